import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localWalletCopy } from '../../src/copy/local-wallet.ts';
import { LOCAL_WALLET_INFO, LOCAL_WALLET_KEY } from '../../src/services/local-wallet/names.ts';

// What only the local test wallet's code puts in a build: the name it announces itself under, the
// storage key of its private key, and a sentence of its dialog. A build for any chain but the local
// one must hold none of them (src/config/local-wallet-build.ts); scripts/check-entry-size.ts checks
// the Sepolia build it makes, and the e2e builds (local chain) show that the marks are there when
// the wallet is.

export const LOCAL_WALLET_MARKS = [
  LOCAL_WALLET_INFO.rdns,
  LOCAL_WALLET_KEY,
  localWalletCopy.keyWarning,
] as const;

/** Every file under `dir` holding a mark, with the marks it holds. */
export function localWalletMarksIn(dir: string): { file: string; marks: string[] }[] {
  const found: { file: string; marks: string[] }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'latin1');
    const marks = LOCAL_WALLET_MARKS.filter((mark) => text.includes(mark));
    if (marks.length > 0) found.push({ file, marks });
  }
  return found;
}
