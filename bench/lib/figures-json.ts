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
  PHONE_ACCESSIBILITY_GOAL,
  PHONE_BEST_PRACTICES_GOAL,
  PHONE_PERFORMANCE_GOAL,
  PHONE_TAP_GOAL_MS,
  PHONE_TBT_GOAL_MS,
  PHONE_TRADING_PERFORMANCE_GOAL,
  QUOTE_P95_GOAL_MS,
  ratio,
  START_FRESH_GOAL_MS,
  START_WARM_GOAL_MS,
  TEST_GOAL_MS,
  verdicts,
  type GoalId,
  type LighthouseFigures,
  type Measured,
  type Verdict,
} from './goals.ts';
import { DEFAULT_TEST_RUNS, TEST_TIMES_PATH, testRunsMedian, type TestRun } from './test-runs.ts';

// `npm run bench -- --json`: the run's figures as one JSON object, for scripts that compare runs.
// The field list below is written into docs/benchmarks.md by every run, so the documented names
// are the ones printed; tests/unit/bench-goals.test.ts holds the two together.

/** Its section of docs/benchmarks.md (bench/lib/docs.ts). */
export const JSON_DOCS_SECTION = 'bench-json';

/** One page's Lighthouse figures in the JSON: null for a figure not taken. */
export type LighthouseJson = { [Figure in keyof LighthouseFigures]: number | null };

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
  lighthouseRuns: number;
  lighthouse: {
    visitor: LighthouseJson;
    bare: LighthouseJson;
    signedIn: LighthouseJson;
    trading: LighthouseJson;
  };
  phoneRuns: number;
  clsSignedIn: number | null;
  clsPhone: number | null;
  phoneTap: number | null;
  phoneTapFromEnabled: number | null;
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
  lighthouseRuns: 'Lighthouse runs behind each page’s medians (mobile preset)',
  lighthouse:
    'per page (`visitor`: the visitor screen, `bare`: the bare page, `signedIn`: a returning signed-in user, ' +
    '`trading`: a timespan from a tap on the DEX Trading tab to its market shown), the medians of ' +
    '`performance`, `accessibility` and `bestPractices` (scores out of 100), `fcp`, `lcp` and `tbt` (ms) and ' +
    '`cls`; `trading` has no `fcp` or `lcp` (null). Goals: `visitor.performance` and `signedIn.performance` ' +
    `≥ ${PHONE_PERFORMANCE_GOAL}, \`visitor.fcp\` and \`visitor.lcp\` ≤ the bare page’s, \`visitor.tbt\` ≤ ${PHONE_TBT_GOAL_MS}, ` +
    `\`visitor.accessibility\` ${PHONE_ACCESSIBILITY_GOAL}, \`visitor.bestPractices\` ${PHONE_BEST_PRACTICES_GOAL}, ` +
    `\`trading.performance\` ≥ ${PHONE_TRADING_PERFORMANCE_GOAL}`,
  phoneRuns: 'cold visits behind each of the four figures below',
  clsSignedIn: `cumulative layout shift of a returning signed-in user’s cold visit until the signed-in screen is settled, p75 (goal ≤ ${CLS_GOAL})`,
  clsPhone: `cumulative layout shift of a cold visit on a 360 px phone, first paint to a connected portal with both balances, p75 (goal ≤ ${CLS_GOAL})`,
  phoneTap: `phone (360 px, 4× CPU, slow 4G): from the wallet button’s first paint to the wallet receiving \`eth_requestAccounts\` after a click on Connect Wallet, median, ms (goal ≤ ${PHONE_TAP_GOAL_MS})`,
  phoneTapFromEnabled: 'the part of `phoneTap` after the button was enabled, median, ms (no goal)',
  verdicts: `per goal (${GOAL_IDS.map((id) => `\`${id}\``).join(', ')}): true met, false not met, null not measured`,
  allMet: 'true when every goal is met, false when any is not, otherwise null',
};

/** Rounded to `digits` decimals; null for a figure that was not taken (JSON has no NaN). */
const round = (value: number, digits: number): number | null =>
  Number.isFinite(value) ? Number(value.toFixed(digits)) : null;

const lighthouseJson = (page: LighthouseFigures): LighthouseJson => ({
  performance: round(page.performance, 0),
  fcp: round(page.fcp, 1),
  lcp: round(page.lcp, 1),
  tbt: round(page.tbt, 1),
  cls: round(page.cls, 5),
  accessibility: round(page.accessibility, 0),
  bestPractices: round(page.bestPractices, 0),
});

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
    lighthouseRuns: m.lighthouse.runs,
    lighthouse: {
      visitor: lighthouseJson(m.lighthouse.visitor),
      bare: lighthouseJson(m.lighthouse.bare),
      signedIn: lighthouseJson(m.lighthouse.signedIn),
      trading: lighthouseJson(m.lighthouse.trading),
    },
    phoneRuns: m.phoneRuns,
    clsSignedIn: round(m.clsSignedIn, 5),
    clsPhone: round(m.clsPhone, 5),
    phoneTap: round(m.phoneTap, 1),
    phoneTapFromEnabled: round(m.phoneTapFromEnabled, 1),
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
