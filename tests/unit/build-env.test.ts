import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildEnvProblem } from '../../scripts/lib/build-env.ts';
import { buildPortal } from '../../scripts/lib/portal-build.ts';

// A VITE_ value ships in the bundle. Tatum's key manages the whole Tatum account and belongs to
// the Edge Functions (TATUM_API_KEY): a build with a VITE_TATUM_ value set does not happen.

const outDir = mkdtempSync(join(tmpdir(), 'ddex-build-env-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the build environment', () => {
  it('names every VITE_TATUM_ value set, and has nothing to say of the portal’s own keys', () => {
    expect(
      buildEnvProblem({ VITE_SUPABASE_URL: 'https://x.supabase.co', VITE_TATUM_API_URL: '' }),
    ).toBeNull();
    expect(
      buildEnvProblem({ VITE_TATUM_API_KEY: 'key', VITE_TATUM_API_URL: 'https://api.tatum.io/v4/' }),
    ).toBe(
      'VITE_TATUM_API_KEY and VITE_TATUM_API_URL are set: a VITE_ value ships in the bundle, and Tatum is ' +
        'reached through the Edge Functions (their TATUM_API_KEY, docs/deploy.md). Remove them and build again.',
    );
  });

  it('stops a build that has one, naming it, before writing anything', async () => {
    await expect(buildPortal(outDir, { VITE_TATUM_API_KEY: 'a-tatum-key' })).rejects.toThrow(
      /VITE_TATUM_API_KEY is set/,
    );
  });
});
