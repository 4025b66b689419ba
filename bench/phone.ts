import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from './lib/browser.ts';
import { goalTable, phoneRows } from './lib/goals.ts';
import { measurePhone, phoneNotes } from './lib/phone-run.ts';
import { benchStack } from './lib/setup.ts';

// `npm run bench:phone`: the phone's figures of `npm run bench` alone (bench/lib/phone-run.ts), on a
// chain, a gateway and builds of their own on 127.0.0.1: Lighthouse's mobile preset on the visitor
// screen, the bare page, a returning signed-in user and the DEX Trading tab, layout shift of a
// signed-in user and of a 360 px phone, and a throttled phone's tap on Connect Wallet. It prints
// the phone's rows of the goal table and what the runs noticed; docs/benchmarks.md is written only
// by the full `npm run bench`.
//
//   npm run bench:phone [-- --lighthouse-runs 5 --phone-runs 5]

const { values: args } = parseArgs({
  options: {
    'lighthouse-runs': { type: 'string', default: '5' },
    'phone-runs': { type: 'string', default: '5' },
  },
});
const LIGHTHOUSE_RUNS = Math.max(3, Number(args['lighthouse-runs']));
const PHONE_RUNS = Math.max(3, Number(args['phone-runs']));
const step = (text: string) => console.log(`[bench:phone] ${text}`);

const tempDir = mkdtempSync(join(tmpdir(), 'ddex-bench-phone-'));
const cleanups: (() => Promise<unknown> | unknown)[] = [
  () => rmSync(tempDir, { recursive: true, force: true }),
];
try {
  const stack = await benchStack(tempDir, cleanups, step);
  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  const phone = await measurePhone({
    stack,
    browser,
    runs: PHONE_RUNS,
    lighthouseRuns: LIGHTHOUSE_RUNS,
    step,
  });
  console.log(`\n${goalTable(phoneRows(phone.measured))}\n`);
  for (const line of [...phone.lines, ...phoneNotes(phone)]) console.log(line);
  // Said outright: the gateway's PGlite leaves its own statuses in process.exitCode.
  process.exitCode = 0;
} finally {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}
