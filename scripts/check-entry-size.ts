import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEPLOYED_BUILD_ENV,
  ENTRY_BUDGET_BYTES,
  kB,
  measureEntry,
  measureLazyTab,
  TRADING_BUDGET_BYTES,
  TRADING_CHUNKS,
} from './lib/entry-size.ts';
import { localWalletMarksIn } from './lib/local-wallet-marks.ts';
import { buildPortal } from './lib/portal-build.ts';

// Part of `npm test`: builds the portal for production, for Sepolia as deployed, into a temporary
// folder and fails when the JavaScript before first paint is over the entry budget, or the Trading
// tab's own code (its lazy chunks, chart included) or the Trading Bots tab's is over its budget, or
// when any file of the build holds the local test wallet's code, which only a build for the local
// chain may carry (src/config/local-wallet-build.ts).
//   npx tsx scripts/check-entry-size.ts

/** The Trading Bots tab's own code (its page and views, the bots machine, service and copy). */
const BOTS_BUDGET_BYTES = 30_000;
/** Where that code starts: its page, and the composition src/main.tsx loads with it. */
const BOTS_CHUNKS = ['BotsPage', 'bots-tab'] as const;

const outDir = mkdtempSync(join(tmpdir(), 'ddex-entry-size-'));
try {
  await buildPortal(outDir, DEPLOYED_BUILD_ENV);
  const entry = measureEntry(outDir);
  // No entry scripts found means the build's index.html no longer looks as this check expects.
  if (entry.files.length === 0) throw new Error(`found no scripts or modulepreloads in ${outDir}/index.html`);
  for (const file of entry.files) console.log(`  ${file.file.padEnd(48)} ${kB(file.gzip).padStart(9)} gzip`);
  const verdict = entry.gzip <= ENTRY_BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `entry JS: ${kB(entry.gzip)} gzip (${kB(entry.bytes)} raw), ${verdict} the ${kB(ENTRY_BUDGET_BYTES)} budget`,
  );
  if (entry.gzip > ENTRY_BUDGET_BYTES) process.exitCode = 1;

  const trading = measureLazyTab(outDir, TRADING_CHUNKS);
  if (trading.all.files.length === 0) throw new Error(`found no Trading tab chunks in ${outDir}/assets`);
  for (const file of trading.own.files)
    console.log(`  ${file.file.padEnd(48)} ${kB(file.gzip).padStart(9)} gzip`);
  const tradingVerdict = trading.own.gzip <= TRADING_BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `Trading tab's own JS: ${kB(trading.own.gzip)} gzip, ${tradingVerdict} the ${kB(TRADING_BUDGET_BYTES)} budget ` +
      `(${kB(trading.all.gzip)} with the viem code it shares with the token service, which a first send loads, for a visitor who opens it first)`,
  );
  if (trading.own.gzip > TRADING_BUDGET_BYTES) process.exitCode = 1;

  const bots = measureLazyTab(outDir, BOTS_CHUNKS);
  if (bots.all.files.length === 0) throw new Error(`found no Trading Bots tab chunks in ${outDir}/assets`);
  for (const file of bots.own.files)
    console.log(`  ${file.file.padEnd(48)} ${kB(file.gzip).padStart(9)} gzip`);
  const botsVerdict = bots.own.gzip <= BOTS_BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `Trading Bots tab's own JS: ${kB(bots.own.gzip)} gzip, ${botsVerdict} the ${kB(BOTS_BUDGET_BYTES)} budget ` +
      `(${kB(bots.all.gzip)} with the code it shares with the rest of the portal)`,
  );
  if (bots.own.gzip > BOTS_BUDGET_BYTES) process.exitCode = 1;

  const localWallet = localWalletMarksIn(outDir);
  for (const { file, marks } of localWallet) {
    console.log(`  ${file}: local test wallet code (${marks.join(', ')})`);
  }
  console.log(
    localWallet.length === 0
      ? 'Sepolia build: no local test wallet code'
      : 'Sepolia build: HOLDS local test wallet code, which only a build for the local chain may carry',
  );
  if (localWallet.length > 0) process.exitCode = 1;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
