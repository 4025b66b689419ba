import { ENTRY_BUDGET_BYTES, kB, TRADING_BUDGET_BYTES } from '../../scripts/lib/entry-size.ts';
import type { TestTimes } from '../../tests/support/reporters/layer-times.ts';
import { PHONE_GOAL_IDS, phoneRows, phoneVerdicts, type PhoneMeasured } from './phone-goals.ts';
import { minutes, testRunsMedian, testRunsPassed, testRunsText, type TestRun } from './test-runs.ts';
import {
  atMost,
  CLS_GOAL,
  ms,
  NOT_MEASURED,
  ratio,
  seconds,
  shift,
  times,
  under,
  verdictText,
  type GoalRow,
  type Verdict,
} from './verdicts.ts';

export { CLS_GOAL, NOT_MEASURED, ratio, verdictText, type GoalRow, type Verdict } from './verdicts.ts';
export * from './phone-goals.ts';

// The portal's goals (docs/benchmarks.md) and the verdict of one `npm run bench` on each. Pure, so
// the verdicts and the table are checked by tests/unit/bench-goals.test.ts without a browser. The
// phone's goals are in bench/lib/phone-goals.ts, and come after the desktop's here.

/** Bytes (gzip) of every script a cold visit downloads until the portal is connected with both balances. */
export const CONNECTED_BUDGET_BYTES = 230_000;
/** The portal's largest contentful paint, at most this share of the bare page's. */
export const LCP_RATIO_GOAL = 0.8;
/** Connect Wallet handled within this share of the bare page's largest contentful paint. */
export const INTERACTIVE_RATIO_GOAL = 1.3;
/** The older first-paint goal, kept: the portal's first contentful paint within this share of the bare page's. */
export const FCP_RATIO_GOAL = 1.2;
export const NOTIFICATION_P95_GOAL_MS = 300;
export const QUOTE_P95_GOAL_MS = 150;
/** `npm start` to its ready banner: strictly under these. */
export const START_WARM_GOAL_MS = 10_000;
export const START_FRESH_GOAL_MS = 15_000;
/** `npm test`: the median wall time of its runs (bench/lib/test-runs.ts), every run exiting 0. */
export const TEST_GOAL_MS = 6 * 60_000;

/** What one run measured; times in ms, sizes in bytes, NaN for a figure the run could not take. */
export type Measured = PhoneMeasured & {
  /** Cold visits per paint and interactive figure (each figure is their median). */
  runs: number;
  fcp: number;
  bareFcp: number;
  lcp: number;
  bareLcp: number;
  /** From navigation to the mock wallet receiving eth_requestAccounts after a click on Connect Wallet. */
  interactive: number;
  /** Without a wallet: from navigation to Connect Wallet being enabled (after the discovery timeout). */
  connectEnabledNoWallet: number;
  /** Layout shift from first paint to a connected portal with both balances. */
  cls: number;
  entryGzip: number;
  bareEntryGzip: number;
  tradingGzip: number;
  tradingFiles: number;
  /** The Trading tab with the viem code it shares, as a visitor without a wallet downloads it. */
  tradingWithSharedGzip: number;
  connectedGzip: number;
  connectedFiles: number;
  notifications: number;
  notificationP50: number;
  notificationP95: number;
  quotes: number;
  quoteP50: number;
  quoteP95: number;
  warmStarts: number;
  /** Median of the warm starts. */
  startWarm: number;
  /** The first start, on an empty STACK_DATA_DIR. */
  startFresh: number;
  /** Every `npm test`, in order (the figure is their median), or null when the run skipped them. */
  testRuns: TestRun[] | null;
  /** The last `npm test`'s time by layer and slowest files (.local/test-times.json), or null without one. */
  testTimes: TestTimes | null;
};

/** The goals, in the order the table gives them. */
export const GOAL_IDS = [
  'fcp',
  'lcp',
  'cls',
  'interactive',
  'entry',
  'connected',
  'trading',
  'notification',
  'quote',
  'startWarm',
  'startFresh',
  'test',
  ...PHONE_GOAL_IDS,
] as const;
export type GoalId = (typeof GOAL_IDS)[number];

export function verdicts(m: Measured): Record<GoalId, Verdict> {
  return {
    fcp: atMost(ratio(m.fcp, m.bareFcp), FCP_RATIO_GOAL),
    lcp: atMost(ratio(m.lcp, m.bareLcp), LCP_RATIO_GOAL),
    cls: atMost(m.cls, CLS_GOAL),
    interactive: atMost(ratio(m.interactive, m.bareLcp), INTERACTIVE_RATIO_GOAL),
    entry: atMost(m.entryGzip, ENTRY_BUDGET_BYTES),
    connected: atMost(m.connectedGzip, CONNECTED_BUDGET_BYTES),
    trading: atMost(m.tradingGzip, TRADING_BUDGET_BYTES),
    notification: atMost(m.notificationP95, NOTIFICATION_P95_GOAL_MS),
    quote: atMost(m.quoteP95, QUOTE_P95_GOAL_MS),
    startWarm: under(m.startWarm, START_WARM_GOAL_MS),
    startFresh: under(m.startFresh, START_FRESH_GOAL_MS),
    // A failing test command meets no time goal, however fast it failed: every run must pass.
    test:
      m.testRuns && m.testRuns.length > 0
        ? testRunsPassed(m.testRuns) && testRunsMedian(m.testRuns) <= TEST_GOAL_MS
        : null,
    ...phoneVerdicts(m),
  };
}

const size = (bytes: number) => (Number.isFinite(bytes) ? kB(bytes) : NOT_MEASURED);

/** Every goal of the run in the order docs/benchmarks.md gives them, plus the figures kept for information. */
export function goalRows(m: Measured): GoalRow[] {
  const verdict = verdicts(m);
  const row = (measure: string, portal: string, bare: string, goal: string, id: GoalId | null): GoalRow => ({
    measure,
    portal,
    bare,
    goal,
    verdict: id === null ? '—' : verdictText(verdict[id]),
  });
  const tests = m.testRuns && m.testRuns.length > 0 ? m.testRuns : null;
  return [
    row(
      `First contentful paint, visitor (median of ${m.runs} cold visits)`,
      `${ms(m.fcp)} (${times(ratio(m.fcp, m.bareFcp))})`,
      ms(m.bareFcp),
      `≤ ${FCP_RATIO_GOAL}× the bare page`,
      'fcp',
    ),
    row(
      `Largest contentful paint, visitor (median of ${m.runs} cold visits)`,
      `${ms(m.lcp)} (${times(ratio(m.lcp, m.bareLcp))})`,
      ms(m.bareLcp),
      `≤ ${LCP_RATIO_GOAL}× the bare page`,
      'lcp',
    ),
    row(
      'Cumulative layout shift, first paint to a connected portal with balances',
      shift(m.cls),
      '—',
      `≤ ${CLS_GOAL}`,
      'cls',
    ),
    row(
      `Interactive: Connect Wallet click handled (median of ${m.runs} cold visits)`,
      `${ms(m.interactive)} (${times(ratio(m.interactive, m.bareLcp))} the bare LCP)`,
      `LCP ${ms(m.bareLcp)}`,
      `≤ ${INTERACTIVE_RATIO_GOAL}× the bare page’s LCP`,
      'interactive',
    ),
    row(
      `Connect Wallet enabled without a wallet (median of ${m.runs}; waits out discovery by design)`,
      ms(m.connectEnabledNoWallet),
      '—',
      '—',
      null,
    ),
    row(
      'Entry JS before first paint (gzip)',
      size(m.entryGzip),
      size(m.bareEntryGzip),
      `≤ ${kB(ENTRY_BUDGET_BYTES)}`,
      'entry',
    ),
    row(
      'All JS to a connected portal with both balances (gzip)',
      `${size(m.connectedGzip)} in ${m.connectedFiles} files`,
      '—',
      `≤ ${kB(CONNECTED_BUDGET_BYTES)}`,
      'connected',
    ),
    row(
      'Trading tab’s own JS, chart included (gzip)',
      `${size(m.tradingGzip)} in ${m.tradingFiles} files (${size(m.tradingWithSharedGzip)} with shared viem, for a visitor)`,
      '—',
      `≤ ${kB(TRADING_BUDGET_BYTES)}`,
      'trading',
    ),
    row(
      `DB insert → notification on screen (${m.notifications} inserts)`,
      `p50 ${ms(m.notificationP50)}, p95 ${ms(m.notificationP95)}`,
      '—',
      `p95 ≤ ${NOTIFICATION_P95_GOAL_MS} ms`,
      'notification',
    ),
    row(
      `Typing → DEX quote on screen (${m.quotes} amounts)`,
      `p50 ${ms(m.quoteP50)}, p95 ${ms(m.quoteP95)}`,
      '—',
      `p95 ≤ ${QUOTE_P95_GOAL_MS} ms`,
      'quote',
    ),
    row(
      `\`npm start\` to ready, warm (median of ${m.warmStarts})`,
      seconds(m.startWarm),
      '—',
      `< ${START_WARM_GOAL_MS / 1000} s`,
      'startWarm',
    ),
    row(
      '`npm start` to ready, fresh (first start, empty data directory)',
      seconds(m.startFresh),
      '—',
      `< ${START_FRESH_GOAL_MS / 1000} s`,
      'startFresh',
    ),
    row(
      `Full test command (\`npm test\`) wall time${tests ? ` (median of ${tests.length} run${tests.length === 1 ? '' : 's'})` : ''}`,
      tests
        ? `${minutes(testRunsMedian(tests))}${testRunsPassed(tests) ? '' : ' (a run failed)'}; runs: ${testRunsText(tests)}`
        : 'not run (--skip-test-run)',
      '—',
      `≤ ${TEST_GOAL_MS / 60_000} min, every run exit 0`,
      'test',
    ),
    ...phoneRows(m),
  ];
}

/** The rows as a markdown table, for the terminal and docs/benchmarks.md alike. */
export function goalTable(rows: readonly GoalRow[]): string {
  return [
    '| Measure | Portal | Bare Vite React page | Goal | Verdict |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${[row.measure, row.portal, row.bare, row.goal, row.verdict].join(' | ')} |`),
  ].join('\n');
}
