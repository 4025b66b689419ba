import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

// The Tatum key manages the whole Tatum account (every user's subscriptions, the HMAC secret that
// signs deliveries), so it must never reach the browser, nor the SDK that would use it: both live
// in the Edge Functions. This searches every file of every production build the e2e setup made
// (its three variants) for the key value the stack's functions hold and for the SDK's marks.

const { appDirs, tatumApiKeys, unreadValues } = inject('bundleScan');

/** Strings only the Tatum SDK (or a request carrying a Tatum key) puts in a bundle. */
const SDK_MARKS = [
  '@tatumio/tatum',
  // The headers the SDK sends with every request, and its key's header.
  'x-ttm-sdk-version',
  'x-ttm-sdk-product',
  'x-api-key',
  // Its REST base, and the variable it reads the local override from.
  'api.tatum.io',
  'TATUM_URL',
] as const;

type Found = { file: string; mark: string };

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Every occurrence of a mark in the files under `dirs`, as file and mark. */
async function search(dirs: readonly string[], marks: readonly string[]): Promise<Found[]> {
  const found: Found[] = [];
  for (const dir of dirs) {
    for (const file of await filesUnder(dir)) {
      const text = await readFile(file, 'latin1');
      for (const mark of marks) if (text.includes(mark)) found.push({ file, mark });
    }
  }
  return found;
}

describe('the production build holds no Tatum key and no Tatum SDK', () => {
  it('the key the functions hold is in no file of any build', async () => {
    expect(tatumApiKeys.every((key) => key.length >= 32)).toBe(true);
    expect(appDirs).toHaveLength(3);
    expect(await search(appDirs, tatumApiKeys)).toEqual([]);
  });

  it("none of the SDK's marks is in any file of any build", async () => {
    const files = (await Promise.all(appDirs.map(filesUnder))).flat();
    // A build that is there at all: index.html, the policy and the scripts.
    expect(files.some((file) => file.endsWith('index.html'))).toBe(true);
    expect(files.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(3);
    expect(await search(appDirs, SDK_MARKS)).toEqual([]);
  });

  it('ships no VITE_ value the portal does not read, as a key left over in a .env', async () => {
    expect(await search(appDirs, unreadValues)).toEqual([]);
  });

  it('would find the SDK: its marks are in its own code', async () => {
    // The published SDK, as a bundler would take it: were it imported, these would ship.
    const sdk = join(process.cwd(), 'node_modules', '@tatumio', 'tatum', 'dist');
    const marks = new Set((await search([sdk], SDK_MARKS)).map((hit) => hit.mark));
    expect([...marks].sort()).toEqual([...SDK_MARKS].sort());
  });
});
