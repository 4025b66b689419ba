import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEPLOYED_BUILD_ENV,
  ENTRY_BUDGET_BYTES,
  kB,
  measureEntry,
  measureLazyTab,
  TRADING_BUDGET_BYTES,
  TRADING_CHUNKS,
} from '../scripts/lib/entry-size.ts';
import { buildPortal, freePort, PROJECT_DIR, servePortal } from '../scripts/lib/portal-build.ts';
import type { TestTimes } from '../tests/support/reporters/layer-times.ts';
import { serveBarePage } from './lib/bare-page.ts';
import { benchSection } from './lib/bench-docs.ts';
import { connectedPortalVisit, launchChromium, paintTimes, type PaintTimes } from './lib/browser.ts';
import { timeNpm, timeNpmStart } from './lib/commands.ts';
import { machineLine, writeDocsSection } from './lib/docs.ts';
import { benchJson, JSON_DOCS_SECTION, jsonFieldsSection } from './lib/figures-json.ts';
import { goalRows, goalTable, type Measured } from './lib/goals.ts';
import { interactiveVisit, type InteractiveProbe } from './lib/interactive.ts';
import { LIGHTHOUSE_VERSION } from './lib/lighthouse.ts';
import { measurePhone, phoneNotes } from './lib/phone-run.ts';
import { benchStack } from './lib/setup.ts';
import { median, percentile } from './lib/stats.ts';
import { notificationLatencies } from './lib/notification-latency.ts';
import { quoteLatencies } from './lib/quote-latency.ts';
import {
  DEFAULT_TEST_RUNS,
  parseTestRuns,
  readTestTimes,
  TEST_TIMES_PATH,
  testRunsReport,
  testRunText,
  type TestRun,
} from './lib/test-runs.ts';

// `npm run bench`: the portal's speed against its goals (docs/benchmarks.md), in one run on
// this machine, everything on 127.0.0.1.
// - builds the portal for production (against a local stack it starts) and a
//   bare Vite React page beside it, and serves both with `vite preview`;
// - entry JS gzip of both;
// - first and largest contentful paint of cold visits in headless Chromium,
//   portal and bare page taking turns, the median of --runs each and the ratio;
// - interactive: cold visits whose probe clicks Connect Wallet as soon as it is enabled, timed to
//   the wallet being asked to connect (bench/lib/interactive.ts); and, without a wallet, when the
//   button is enabled;
// - a cold visit of an approved wallet up to a connected portal with both balances: every script
//   it downloads, and its cumulative layout shift;
// - the phone (bench/lib/phone-run.ts): both builds served gzip-compressed as a host serves them,
//   Lighthouse's mobile preset on the visitor screen, the bare page, a returning signed-in user and
//   the DEX Trading tab, --lighthouse-runs rounds taking turns (bench/lib/lighthouse.ts); layout
//   shift of a signed-in user and of a 360 px phone, and a throttled phone's tap on Connect Wallet
//   from the button's first paint, --phone-runs visits each (bench/lib/phone.ts);
// - DB insert → notification on screen, p50/p95 over --inserts rows;
// - the Trading tab's own JS (gzip), and typing → DEX quote on screen, p50/p95 over --quotes amounts;
// - `npm start` to its ready banner, fresh (an empty data directory) and warm (median of 3 after);
// - the test command's wall time, unless --skip-test-run: `npm test` --test-runs times in a row
//   (bench/lib/test-runs.ts), their median as the figure and every run listed with its exit code (a
//   run that fails fails the goal), then the last run's time by layer and slowest files, from the
//   .local/test-times.json its reporter (tests/support/reporters/layer-times.ts) wrote.
// It prints every goal with its figure and verdict, writes the same table, the test runs and the
// layer table into docs/benchmarks.md between <!-- bench:start --> and <!-- bench:end --> and the
// JSON field list between <!-- bench-json:start --> and <!-- bench-json:end --> (unless
// --skip-docs), and exits 1 when the entry JS or the Trading tab's JS is over its budget (the
// budgets `npm run size` holds). With --json, everything but one JSON object of the figures
// (bench/lib/figures-json.ts) goes to stderr.
//
//   npm run bench [-- --runs 7 --inserts 20 --quotes 20 --test-runs 3 --lighthouse-runs 5 --phone-runs 5
//                    --skip-test-run --skip-docs --json]
// `npm run bench:phone` (bench/phone.ts) takes the phone's figures alone.

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    inserts: { type: 'string', default: '20' },
    quotes: { type: 'string', default: '20' },
    'test-runs': { type: 'string', default: String(DEFAULT_TEST_RUNS) },
    'lighthouse-runs': { type: 'string', default: '5' },
    'phone-runs': { type: 'string', default: '5' },
    'skip-test-run': { type: 'boolean', default: false },
    'skip-docs': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
// The issue's goals are medians of at least seven cold visits.
const RUNS = Math.max(7, Number(args.runs));
const INSERTS = Math.max(20, Number(args.inserts));
const QUOTES = Math.max(20, Number(args.quotes));
const WARM_STARTS = 3;
const TEST_RUNS = parseTestRuns(args['test-runs']);
// Medians of at least three runs on the phone.
const LIGHTHOUSE_RUNS = Math.max(3, Number(args['lighthouse-runs']));
const PHONE_RUNS = Math.max(3, Number(args['phone-runs']));
const JSON_OUT = args.json;

// With --json stdout carries the JSON object alone: whatever else this process writes there (its
// own lines, and anything a library in it prints) goes to stderr.
const writeStdout = process.stdout.write.bind(process.stdout);
if (JSON_OUT) process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

const ms = (value: number) => `${Math.round(value)} ms`;
const step = (text: string) => console.log(`[bench] ${text}`);
const stamp = (probe: InteractiveProbe, key: 'enabledAt' | 'requestedAt') => probe[key] ?? Number.NaN;

const tempDir = mkdtempSync(join(tmpdir(), 'ddex-bench-'));
const cleanups: (() => Promise<unknown> | unknown)[] = [
  () => rmSync(tempDir, { recursive: true, force: true }),
];
const cleanUp = async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
};

try {
  const stack = await benchStack(tempDir, cleanups, step);
  const { gateway, portalDir, bareDir, wallet } = stack;
  const portalUrl = `http://127.0.0.1:${await freePort()}`;
  const bareUrl = `http://127.0.0.1:${await freePort()}`;
  const portalServer = await servePortal(portalDir, Number(new URL(portalUrl).port));
  cleanups.push(() => portalServer.close());
  const bareServer = await serveBarePage(bareDir, Number(new URL(bareUrl).port));
  cleanups.push(() => bareServer.close());

  // The entry budget is held on the build as deployed, for Sepolia (`npm run size`): this stack's
  // build for the local chain also carries the local test wallet's offer.
  step('building the portal as deployed, for its entry');
  const deployedDir = join(tempDir, 'deployed');
  await buildPortal(deployedDir, DEPLOYED_BUILD_ENV);
  const portalEntry = measureEntry(deployedDir);
  const tradingTab = measureLazyTab(portalDir, TRADING_CHUNKS);
  const bareEntry = measureEntry(bareDir);

  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  step(`paint: ${RUNS} cold visits each, taking turns (after one warm-up each)`);
  await paintTimes(browser, portalUrl);
  await paintTimes(browser, bareUrl);
  const portalPaints: PaintTimes[] = [];
  const barePaints: PaintTimes[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    portalPaints.push(await paintTimes(browser, portalUrl));
    barePaints.push(await paintTimes(browser, bareUrl));
  }
  const paint = (runs: PaintTimes[]) => ({
    fcp: median(runs.map((run) => run.fcp)),
    lcp: median(runs.map((run) => run.lcp)),
  });
  const portalPaint = paint(portalPaints);
  const barePaint = paint(barePaints);

  step(`interactive: ${RUNS} cold visits with a wallet, ${RUNS} without`);
  const withWallet: InteractiveProbe[] = [];
  const withoutWallet: InteractiveProbe[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    withWallet.push(await interactiveVisit(browser, portalUrl, wallet));
    withoutWallet.push(await interactiveVisit(browser, portalUrl, null));
  }

  step('a connected portal: its scripts and layout shift');
  const connected = await connectedPortalVisit(browser, portalUrl, wallet);

  step(`notifications: ${INSERTS} inserts`);
  const latencies = await notificationLatencies(browser, portalUrl, gateway, INSERTS);

  step(`DEX quotes: ${QUOTES} typed amounts`);
  const quotes = await quoteLatencies(browser, portalUrl, wallet, QUOTES);

  const phone = await measurePhone({
    stack,
    browser,
    runs: PHONE_RUNS,
    lighthouseRuns: LIGHTHOUSE_RUNS,
    step,
  });
  await cleanUp();

  step(`npm start: one first start, then ${WARM_STARTS} warm ones`);
  const startDir = mkdtempSync(join(tmpdir(), 'ddex-bench-start-'));
  cleanups.push(() => rmSync(startDir, { recursive: true, force: true }));
  const startEnv = {
    STACK_DATA_DIR: startDir,
    STACK_APP_PORT: String(await freePort()),
    STACK_GATEWAY_PORT: String(await freePort()),
    STACK_RPC_PORT: String(await freePort()),
  };
  const firstStart = await timeNpmStart(startEnv);
  const warmStarts: number[] = [];
  for (let run = 0; run < WARM_STARTS; run += 1) warmStarts.push(await timeNpmStart(startEnv));
  await cleanUp();

  let testRuns: TestRun[] | null = null;
  let testTimes: TestTimes | null = null;
  if (!args['skip-test-run']) {
    testRuns = [];
    let lastStart = Date.now();
    for (let run = 1; run <= TEST_RUNS; run += 1) {
      step(`npm test, run ${run} of ${TEST_RUNS} (its output follows${JSON_OUT ? ', on stderr' : ''})`);
      lastStart = Date.now();
      const { ms, code } = await timeNpm(['test'], JSON_OUT);
      const result: TestRun = { ms, exitCode: code };
      testRuns.push(result);
      step(`npm test, run ${run} of ${TEST_RUNS}: ${testRunText(result)}`);
    }
    // Every `vitest run` rewrites the file: only one written since the last run started is that run's.
    testTimes = readTestTimes(lastStart);
    if (!testTimes) step(`the last npm test wrote no ${TEST_TIMES_PATH}`);
  }

  const measured: Measured = {
    runs: RUNS,
    fcp: portalPaint.fcp,
    bareFcp: barePaint.fcp,
    lcp: portalPaint.lcp,
    bareLcp: barePaint.lcp,
    interactive: median(withWallet.map((probe) => stamp(probe, 'requestedAt'))),
    connectEnabledNoWallet: median(withoutWallet.map((probe) => stamp(probe, 'enabledAt'))),
    cls: connected.layout.cls,
    entryGzip: portalEntry.gzip,
    bareEntryGzip: bareEntry.gzip,
    tradingGzip: tradingTab.own.gzip,
    tradingFiles: tradingTab.own.files.length,
    tradingWithSharedGzip: tradingTab.all.gzip,
    connectedGzip: connected.scripts.gzip,
    connectedFiles: connected.scripts.files,
    notifications: latencies.length,
    notificationP50: percentile(latencies, 0.5),
    notificationP95: percentile(latencies, 0.95),
    quotes: quotes.length,
    quoteP50: percentile(quotes, 0.5),
    quoteP95: percentile(quotes, 0.95),
    warmStarts: warmStarts.length,
    startWarm: median(warmStarts),
    startFresh: firstStart,
    testRuns,
    testTimes,
    ...phone.measured,
  };
  const finishedAt = new Date();
  const machine = machineLine(finishedAt);
  const table = goalTable(goalRows(measured));
  const shifts = connected.layout.shifts
    .toSorted((a, b) => b.value - a.value)
    .slice(0, 3)
    .map(
      (shift) => `${shift.value.toFixed(4)} at ${ms(shift.at)} (${shift.sources.join(', ') || 'no source'})`,
    );
  console.log(`\n${table}\n`);
  console.log(`portal FCP runs: ${portalPaints.map((run) => ms(run.fcp)).join(', ')}`);
  console.log(`portal LCP runs: ${portalPaints.map((run) => ms(run.lcp)).join(', ')}`);
  console.log(`bare LCP runs:   ${barePaints.map((run) => ms(run.lcp)).join(', ')}`);
  console.log(
    `interactive runs: ${withWallet.map((probe) => `${ms(stamp(probe, 'requestedAt'))} (enabled ${ms(stamp(probe, 'enabledAt'))}, ${probe.clicks} click${probe.clicks === 1 ? '' : 's'})`).join(', ')}`,
  );
  console.log(`layout shifts: ${shifts.join('; ') || 'none'}`);
  console.log(`notification latencies: ${latencies.map(ms).join(', ')}`);
  console.log(`quote latencies: ${quotes.map(ms).join(', ')}`);
  for (const line of [...phone.lines, ...phoneNotes(phone)]) console.log(line);
  console.log(`\n${testRunsReport(testRuns, testTimes)}`);

  if (!args['skip-docs']) {
    const section = benchSection({
      machine,
      table,
      testRuns,
      testTimes,
      shifts,
      portalEntry,
      phone,
      lighthouseVersion: LIGHTHOUSE_VERSION,
    });
    const docsPath = join(PROJECT_DIR, 'docs', 'benchmarks.md');
    await writeDocsSection(docsPath, 'bench', section);
    await writeDocsSection(docsPath, JSON_DOCS_SECTION, jsonFieldsSection());
    step('wrote docs/benchmarks.md');
  }
  if (JSON_OUT) writeStdout(`${JSON.stringify(benchJson(measured, finishedAt, machine))}\n`);
  const tradingOver = tradingTab.own.gzip > TRADING_BUDGET_BYTES;
  const overBudget = portalEntry.gzip > ENTRY_BUDGET_BYTES || tradingOver;
  if (overBudget) {
    console.error(
      `[bench] entry JS ${kB(portalEntry.gzip)} (budget ${kB(ENTRY_BUDGET_BYTES)}) or Trading tab JS ${kB(tradingTab.own.gzip)} (budget ${kB(TRADING_BUDGET_BYTES)}) is over its budget`,
    );
  }
  // Said outright: the gateway's PGlite leaves its own statuses (99, 100) in process.exitCode.
  process.exitCode = overBudget ? 1 : 0;
} finally {
  await cleanUp();
}
