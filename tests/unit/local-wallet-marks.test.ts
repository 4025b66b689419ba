import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localWalletMarksIn } from '../../scripts/lib/local-wallet-marks.ts';
import { LOCAL_WALLET_INFO, LOCAL_WALLET_KEY } from '../../src/services/local-wallet/names.ts';

// `npm run size` builds the portal for Sepolia and fails when any file of that build holds the
// local test wallet's code (scripts/check-entry-size.ts): the search must find it wherever it sits.

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the build check for the local test wallet's code", () => {
  it('finds its marks in any file of a build, nested chunks included, and nothing in a clean one', () => {
    dir = mkdtempSync(join(tmpdir(), 'ddex-marks-'));
    mkdirSync(join(dir, 'assets', 'nested'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<html><script src="/assets/index.js"></script></html>');
    writeFileSync(join(dir, 'assets', 'index.js'), 'export const portal = "DDEX Token Portal";');
    expect(localWalletMarksIn(dir)).toEqual([]);

    writeFileSync(join(dir, 'assets', 'nested', 'chunk.js'), `announce({rdns:"${LOCAL_WALLET_INFO.rdns}"})`);
    writeFileSync(join(dir, 'assets', 'key.js'), `localStorage.getItem("${LOCAL_WALLET_KEY}")`);
    const found = localWalletMarksIn(dir).map(({ file, marks }) => [file.slice(dir.length), marks]);
    expect(found.sort()).toEqual([
      ['/assets/key.js', [LOCAL_WALLET_KEY]],
      ['/assets/nested/chunk.js', [LOCAL_WALLET_INFO.rdns]],
    ]);
  });
});
