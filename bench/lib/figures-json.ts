import { ENTRY_BUDGET_BYTES, TRADING_BUDGET_BYTES } from '../../scripts/lib/entry-size.ts';
import type { LayerTime } from '../../tests/support/reporters/layer-times.ts';
import {
  CLS_GOAL,
  CONNECTED_BUDGET_BYTES,
  FCP_RATIO_GOAL,
  GOAL_IDS,
  INTERACTIVE_RATIO_GOAL,
  LCP_RATIO_GOAL,
  NOTIFICATION_P95_GOAL_MS,
  QUOTE_P95_GOAL_MS,
  ratio,
  START_FRESH_GOAL_MS,
  START_WARM_GOAL_MS,
  TEST_GOAL_MS,
  verdicts,
  type GoalId,
  type Measured,
  type Verdict,
} from './goals.ts';
import { DEFAULT_TEST_RUNS, TEST_TIMES_PATH, testRunsMedian, type TestRun } from './test-runs.ts';

// `npm run bench -- --json`: the run's figures as one JSON object, for scripts that compare runs.
// The field list below is written into docs/benchmarks.md by every run, so the documented names
// are the ones printed; tests/unit/bench-goals.test.ts holds the two together.

/** Its section of docs/benchmarks.md (bench/lib/docs.ts). */
export const JSON_DOCS_SECTION = 'bench-json';

export type BenchJson = {
  date: string;
  machine: string;
  runs: number;
  fcp: number | null;
  bareFcp: number | null;
  fcpRatio: number | null;
  lcp: number | null;
  bareLcp: number | null;
  lcpRatio: number | null;
  cls: number | null;
  interactive: number | null;
  interactiveRatio: number | null;
  connectEnabledNoWallet: number | null;
  entryGzip: number | null;
  bareEntryGzip: number | null;
  connectedGzip: number | null;
  connectedFiles: number;
  tradingGzip: number | null;
  tradingFiles: number;
  tradingWithSharedGzip: number | null;
  notifications: number;
  notificationP50: number | null;
  notificationP95: number | null;
  quotes: number;
  quoteP50: number | null;
  quoteP95: number | null;
  warmStarts: number;
  startWarm: number | null;
  startFresh: number | null;
  testMs: number | null;
  testRuns: TestRun[] | null;
  testLayers: LayerTime[] | null;
  verdicts: Record<GoalId, Verdict>;
  allMet: Verdict;
};

/** What each field holds, in the words docs/benchmarks.md gives it. */
export const JSON_FIELDS: { [Field in keyof BenchJson]: string } = {
  date: 'when the run finished (ISO 8601, UTC)',
  machine: 'CPU, cores, memory and Node version of the machine',
  runs: 'cold visits behind each paint and interactive median',
  fcp: 'first contentful paint of a visitor, median, ms',
  bareFcp: 'the same for the bare Vite React page, ms',
  fcpRatio: `\`fcp\` / \`bareFcp\` (goal ≤ ${FCP_RATIO_GOAL})`,
  lcp: 'largest contentful paint of a visitor, median, ms',
  bareLcp: 'the same for the bare Vite React page, ms',
  lcpRatio: `\`lcp\` / \`bareLcp\` (goal ≤ ${LCP_RATIO_GOAL})`,
  cls: `cumulative layout shift from first paint to a connected portal with both balances (goal ≤ ${CLS_GOAL})`,
  interactive:
    'from navigation to the wallet receiving `eth_requestAccounts` after a click on Connect Wallet, median, ms',
  interactiveRatio: `\`interactive\` / \`bareLcp\` (goal ≤ ${INTERACTIVE_RATIO_GOAL})`,
  connectEnabledNoWallet:
    'without a wallet, from navigation to Connect Wallet being enabled, median, ms (no goal)',
  entryGzip: `entry JavaScript of the built \`index.html\`, gzip bytes (goal ≤ ${ENTRY_BUDGET_BYTES})`,
  bareEntryGzip: 'the same for the bare page, gzip bytes',
  connectedGzip: `every script a cold visit downloads up to a connected portal with both balances, gzip bytes (goal ≤ ${CONNECTED_BUDGET_BYTES})`,
  connectedFiles: 'how many files `connectedGzip` counts',
  tradingGzip: `the Trading tab’s own chunks, chart included, gzip bytes (goal ≤ ${TRADING_BUDGET_BYTES})`,
  tradingFiles: 'how many files `tradingGzip` counts',
  tradingWithSharedGzip:
    'the Trading tab with the viem code it shares, as a visitor downloads it, gzip bytes',
  notifications: 'database inserts timed',
  notificationP50: 'insert → notification on screen, p50, ms',
  notificationP95: `the same, p95, ms (goal ≤ ${NOTIFICATION_P95_GOAL_MS})`,
  quotes: 'amounts typed',
  quoteP50: 'typing → DEX quote on screen, p50, ms',
  quoteP95: `the same, p95, ms (goal ≤ ${QUOTE_P95_GOAL_MS})`,
  warmStarts: 'warm `npm start` runs behind `startWarm`',
  startWarm: `\`npm start\` to its ready banner, warm, median, ms (goal < ${START_WARM_GOAL_MS})`,
  startFresh: `\`npm start\` to its ready banner on an empty data directory, ms (goal < ${START_FRESH_GOAL_MS})`,
  testMs: `\`npm test\` wall time, the median of \`testRuns\`, ms (goal ≤ ${TEST_GOAL_MS} with every run exiting 0); null when skipped`,
  testRuns: `every \`npm test\` in order (${DEFAULT_TEST_RUNS} by default, \`--test-runs\`), each its wall time \`ms\` and its \`exitCode\` (null when a signal ended it); null when skipped`,
  testLayers: `the last \`npm test\`'s time by layer, as its reporter wrote it to \`${TEST_TIMES_PATH}\`, slowest first: \`layer\`, \`files\`, \`tests\`, \`wallMs\` (from the layer's first file starting to its last ending) and \`sumMs\` (its files' times summed); null when skipped or not written`,
  verdicts: `per goal (${GOAL_IDS.map((id) => `\`${id}\``).join(', ')}): true met, false not met, null not measured`,
  allMet: 'true when every goal is met, false when any is not, otherwise null',
};

/** Rounded to `digits` decimals; null for a figure that was not taken (JSON has no NaN). */
const round = (value: number, digits: number): number | null =>
  Number.isFinite(value) ? Number(value.toFixed(digits)) : null;

export function benchJson(m: Measured, date: Date, machine: string): BenchJson {
  const verdict = verdicts(m);
  const all = Object.values(verdict);
  return {
    date: date.toISOString(),
    machine,
    runs: m.runs,
    fcp: round(m.fcp, 1),
    bareFcp: round(m.bareFcp, 1),
    fcpRatio: round(ratio(m.fcp, m.bareFcp), 3),
    lcp: round(m.lcp, 1),
    bareLcp: round(m.bareLcp, 1),
    lcpRatio: round(ratio(m.lcp, m.bareLcp), 3),
    cls: round(m.cls, 5),
    interactive: round(m.interactive, 1),
    interactiveRatio: round(ratio(m.interactive, m.bareLcp), 3),
    connectEnabledNoWallet: round(m.connectEnabledNoWallet, 1),
    entryGzip: round(m.entryGzip, 0),
    bareEntryGzip: round(m.bareEntryGzip, 0),
    connectedGzip: round(m.connectedGzip, 0),
    connectedFiles: m.connectedFiles,
    tradingGzip: round(m.tradingGzip, 0),
    tradingFiles: m.tradingFiles,
    tradingWithSharedGzip: round(m.tradingWithSharedGzip, 0),
    notifications: m.notifications,
    notificationP50: round(m.notificationP50, 1),
    notificationP95: round(m.notificationP95, 1),
    quotes: m.quotes,
    quoteP50: round(m.quoteP50, 1),
    quoteP95: round(m.quoteP95, 1),
    warmStarts: m.warmStarts,
    startWarm: round(m.startWarm, 0),
    startFresh: round(m.startFresh, 0),
    testMs: m.testRuns && m.testRuns.length > 0 ? round(testRunsMedian(m.testRuns), 0) : null,
    testRuns: m.testRuns && m.testRuns.map((run) => ({ ms: Math.round(run.ms), exitCode: run.exitCode })),
    testLayers:
      m.testTimes &&
      m.testTimes.layers.map((layer) => ({
        layer: layer.layer,
        files: layer.files,
        tests: layer.tests,
        wallMs: Math.round(layer.wallMs),
        sumMs: Math.round(layer.sumMs),
      })),
    verdicts: verdict,
    allMet: all.includes(false) ? false : all.includes(null) ? null : true,
  };
}

/** The field list for docs/benchmarks.md. */
export function jsonFieldsSection(): string {
  return [
    '## Portal figures as JSON: `npm run bench -- --json`',
    '',
    'With `--json` the run prints its progress and the table on stderr and one JSON object, on one line, ' +
      'as the last line of stdout (`npm run --silent bench -- --json` leaves out npm’s own banner). ' +
      'Times are in milliseconds and sizes in bytes; a figure the run could not take is `null`.',
    '',
    ...Object.entries(JSON_FIELDS).map(([field, meaning]) => `- \`${field}\`: ${meaning}`),
  ].join('\n');
}
