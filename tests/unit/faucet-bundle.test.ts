import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localHumanCheckCopy } from '../../src/copy/faucet-local.ts';
import { HCAPTCHA_API } from '../../src/services/faucet/hcaptcha-script.ts';
import { buildPortal } from '../../scripts/lib/portal-build.ts';

// Which human check each build holds (issue 33): a build for the local chain has the stand-in for
// hCaptcha's widget and nothing of hCaptcha; any other build has hCaptcha's loader and widget and
// nothing of the stand-in, whose test token and words would otherwise ship to Sepolia.

const TEST_RESPONSE = '10000000-aaaa-bbbb-cccc-000000000001';
const BASE = {
  VITE_SUPABASE_URL: 'http://127.0.0.1:54321',
  VITE_SUPABASE_ANON_KEY: 'sb_publishable_x',
  VITE_RPC_URL: 'http://127.0.0.1:8545',
  VITE_DDEX_TOKEN_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
};

const dirs: string[] = [];
let local = '';
let sepolia = '';

/** Every JavaScript file of a build, as one text. */
function scriptsOf(outDir: string): string {
  const assets = join(outDir, 'assets');
  return readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(assets, file), 'utf8'))
    .join('\n');
}

async function built(env: Record<string, string>): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'ddex-faucet-bundle-'));
  dirs.push(outDir);
  await buildPortal(outDir, { ...BASE, ...env });
  return scriptsOf(outDir);
}

beforeAll(async () => {
  local = await built({ VITE_CHAIN_ID: '31337' });
  sepolia = await built({ VITE_CHAIN_ID: '11155111', VITE_HCAPTCHA_SITEKEY: 'a-site-key' });
}, 120_000);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the faucet’s human check in the bundle', () => {
  it('a local build holds the stand-in and its test token, and nothing of hCaptcha', () => {
    expect(local.includes(TEST_RESPONSE)).toBe(true);
    expect(local.includes(localHumanCheckCopy.note)).toBe(true);
    expect(local.includes(HCAPTCHA_API)).toBe(false);
  });

  it('a Sepolia build holds hCaptcha’s loader and its site key, and nothing of the stand-in', () => {
    // (Asserted as booleans: a failure would print the whole bundle.)
    expect(sepolia.includes(HCAPTCHA_API)).toBe(true);
    expect(sepolia.includes('a-site-key')).toBe(true);
    expect(sepolia.includes(TEST_RESPONSE)).toBe(false);
    expect(sepolia.includes(localHumanCheckCopy.note)).toBe(false);
    expect(sepolia.includes(localHumanCheckCopy.label)).toBe(false);
  });
});
