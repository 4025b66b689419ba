import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { benchJson, JSON_FIELDS } from '../../bench/lib/figures-json.ts';
import { ENTRY_BUDGET_BYTES, kB, TRADING_BUDGET_BYTES } from '../../scripts/lib/entry-size.ts';
import {
  CLS_GOAL,
  CONNECTED_BUDGET_BYTES,
  GOAL_IDS,
  goalRows,
  goalTable,
  INTERACTIVE_RATIO_GOAL,
  LCP_RATIO_GOAL,
  NOT_MEASURED,
  NOTIFICATION_P95_GOAL_MS,
  PHONE_ACCESSIBILITY_GOAL,
  PHONE_BEST_PRACTICES_GOAL,
  PHONE_GOAL_IDS,
  PHONE_PERFORMANCE_GOAL,
  PHONE_TAP_GOAL_MS,
  PHONE_TBT_GOAL_MS,
  PHONE_TRADING_PERFORMANCE_GOAL,
  QUOTE_P95_GOAL_MS,
  START_FRESH_GOAL_MS,
  START_WARM_GOAL_MS,
  TEST_GOAL_MS,
  verdicts,
  type GoalRow,
  type LighthouseFigures,
  type Measured,
} from '../../bench/lib/goals.ts';
import type { TestRun } from '../../bench/lib/test-runs.ts';
import { summarize } from '../support/reporters/layer-times.ts';

// `npm run bench`'s verdicts, table and JSON (bench/lib/goals.ts, bench/lib/figures-json.ts): each
// goal of the portal is judged against its limit, a figure the run did not take is said to be
// not measured rather than met, and the JSON carries the fields docs/benchmarks.md lists. Limits
// are read from the code, never restated here.

/** `npm test` runs that all exit 0, taking these wall times. */
const passing = (...ms: number[]): TestRun[] => ms.map((time) => ({ ms: time, exitCode: 0 }));

/** What the last `npm test`'s reporter wrote: two layers and their files. */
const testTimes = summarize(
  [
    { layer: 'unit', file: 'tests/unit/a.test.ts', start: 0, end: 1_200.4, tests: 30 },
    { layer: 'unit', file: 'tests/unit/b.test.ts', start: 600, end: 2_000.6, tests: 12 },
    { layer: 'e2e', file: 'tests/e2e/c.e2e.test.ts', start: 2_000, end: 92_000.5, tests: 8 },
  ],
  95_000,
);

/** A page's Lighthouse figures that meet every phone goal, with room. */
const page: LighthouseFigures = {
  performance: 100,
  fcp: 1_100,
  lcp: 1_100,
  tbt: PHONE_TBT_GOAL_MS - 30,
  cls: 0.001,
  accessibility: PHONE_ACCESSIBILITY_GOAL,
  bestPractices: PHONE_BEST_PRACTICES_GOAL,
};

/** A run that meets every goal, with room. */
const good: Measured = {
  runs: 7,
  fcp: 60,
  bareFcp: 112,
  lcp: 80,
  bareLcp: 120,
  interactive: 140,
  connectEnabledNoWallet: 560,
  cls: CLS_GOAL / 5,
  entryGzip: ENTRY_BUDGET_BYTES - 6_000,
  bareEntryGzip: 68_000,
  tradingGzip: TRADING_BUDGET_BYTES - 27_500,
  tradingFiles: 4,
  tradingWithSharedGzip: 82_600,
  connectedGzip: CONNECTED_BUDGET_BYTES - 30_000,
  connectedFiles: 16,
  notifications: 20,
  notificationP50: 24,
  notificationP95: NOTIFICATION_P95_GOAL_MS - 266,
  quotes: 20,
  quoteP50: QUOTE_P95_GOAL_MS - 33,
  quoteP95: QUOTE_P95_GOAL_MS - 30,
  warmStarts: 3,
  startWarm: START_WARM_GOAL_MS - 6_300,
  startFresh: START_FRESH_GOAL_MS - 9_100,
  testRuns: passing(TEST_GOAL_MS - 30_000, TEST_GOAL_MS - 60_000, TEST_GOAL_MS - 20_000),
  testTimes,
  lighthouse: {
    runs: 3,
    visitor: page,
    bare: { ...page, fcp: 1_200, lcp: 1_200, tbt: 0, bestPractices: 96 },
    signedIn: { ...page, performance: 99 },
    trading: { ...page, performance: 95, fcp: Number.NaN, lcp: Number.NaN },
  },
  phoneRuns: 5,
  clsSignedIn: CLS_GOAL / 2,
  clsPhone: 0,
  phoneTap: PHONE_TAP_GOAL_MS - 40,
  phoneTapFromEnabled: 4,
};

/** `good` with the Lighthouse figures of one page changed. */
const withPage = (
  name: keyof Measured['lighthouse'] & string,
  figures: Partial<LighthouseFigures>,
): Measured => {
  const pages = good.lighthouse as Record<string, LighthouseFigures | number>;
  return {
    ...good,
    lighthouse: { ...good.lighthouse, [name]: { ...(pages[name] as LighthouseFigures), ...figures } },
  };
};

const rowOf = (rows: GoalRow[], start: string): GoalRow => {
  const row = rows.find((candidate) => candidate.measure.startsWith(start));
  if (!row) throw new Error(`no row starting “${start}”`);
  return row;
};

describe('bench goals', () => {
  it('meets every goal of a run within all its limits', () => {
    expect(Object.values(verdicts(good)).every((verdict) => verdict === true)).toBe(true);
    expect(goalRows(good).filter((row) => row.verdict === 'met')).toHaveLength(GOAL_IDS.length);
  });

  it('holds LCP and interactive to shares of the bare page’s LCP, the limits included', () => {
    // A bare LCP of 1000 ms keeps the limits whole milliseconds.
    const bareLcp = 1000;
    const lcpLimit = Math.floor(LCP_RATIO_GOAL * bareLcp);
    const interactiveLimit = Math.floor(INTERACTIVE_RATIO_GOAL * bareLcp);
    expect(verdicts({ ...good, lcp: lcpLimit, bareLcp }).lcp).toBe(true);
    expect(verdicts({ ...good, lcp: lcpLimit + 1, bareLcp }).lcp).toBe(false);
    expect(verdicts({ ...good, interactive: interactiveLimit, bareLcp }).interactive).toBe(true);
    expect(verdicts({ ...good, interactive: interactiveLimit + 1, bareLcp }).interactive).toBe(false);
    // Interactive is held to the bare page's LCP, not to its first paint.
    expect(
      verdicts({ ...good, interactive: interactiveLimit, bareFcp: bareLcp / 10, bareLcp }).interactive,
    ).toBe(true);
  });

  it('holds the sizes, latencies and layout shift to their limits, the limits included', () => {
    const limits = verdicts({
      ...good,
      cls: CLS_GOAL,
      entryGzip: ENTRY_BUDGET_BYTES,
      connectedGzip: CONNECTED_BUDGET_BYTES,
      tradingGzip: TRADING_BUDGET_BYTES,
      notificationP95: NOTIFICATION_P95_GOAL_MS,
      quoteP95: QUOTE_P95_GOAL_MS,
    });
    expect(limits).toMatchObject({
      cls: true,
      entry: true,
      connected: true,
      trading: true,
      notification: true,
      quote: true,
    });
    const over = verdicts({
      ...good,
      cls: CLS_GOAL + 0.0001,
      entryGzip: ENTRY_BUDGET_BYTES + 1,
      connectedGzip: CONNECTED_BUDGET_BYTES + 1,
      tradingGzip: TRADING_BUDGET_BYTES + 1,
      notificationP95: NOTIFICATION_P95_GOAL_MS + 1,
      quoteP95: QUOTE_P95_GOAL_MS + 1,
    });
    expect(over).toMatchObject({
      cls: false,
      entry: false,
      connected: false,
      trading: false,
      notification: false,
      quote: false,
    });
  });

  it('wants npm start strictly under its warm and fresh goals', () => {
    expect(
      verdicts({ ...good, startWarm: START_WARM_GOAL_MS - 1, startFresh: START_FRESH_GOAL_MS - 1 }),
    ).toMatchObject({ startWarm: true, startFresh: true });
    expect(
      verdicts({ ...good, startWarm: START_WARM_GOAL_MS, startFresh: START_FRESH_GOAL_MS }),
    ).toMatchObject({ startWarm: false, startFresh: false });
  });

  it('takes the median of the npm test runs as the test figure: one slow run does not fail the goal', () => {
    const oneSlow = passing(TEST_GOAL_MS * 2, TEST_GOAL_MS - 60_000, TEST_GOAL_MS - 120_000);
    expect(verdicts({ ...good, testRuns: oneSlow }).test).toBe(true);
    // The median at the goal meets it; a millisecond over does not, whatever the fastest run did.
    expect(verdicts({ ...good, testRuns: passing(TEST_GOAL_MS, 1, TEST_GOAL_MS * 2) }).test).toBe(true);
    expect(verdicts({ ...good, testRuns: passing(TEST_GOAL_MS + 1, 1, TEST_GOAL_MS * 2) }).test).toBe(false);
    // A single run is its own median.
    expect(verdicts({ ...good, testRuns: passing(TEST_GOAL_MS) }).test).toBe(true);
    expect(verdicts({ ...good, testRuns: passing(TEST_GOAL_MS + 1) }).test).toBe(false);
  });

  it('shows the median and every run with its time and exit code', () => {
    const row = rowOf(
      goalRows({ ...good, testRuns: passing(200_000, 100_000, 300_000) }),
      'Full test command',
    );
    expect(row).toEqual({
      measure: 'Full test command (`npm test`) wall time (median of 3 runs)',
      portal: '3.3 min; runs: 3.3 min (exit 0), 1.7 min (exit 0), 5.0 min (exit 0)',
      bare: '—',
      goal: `≤ ${TEST_GOAL_MS / 60_000} min, every run exit 0`,
      verdict: 'met',
    });
    expect(rowOf(goalRows({ ...good, testRuns: passing(60_000) }), 'Full test command').measure).toBe(
      'Full test command (`npm test`) wall time (median of 1 run)',
    );
  });

  it('fails the test goal when any run fails, however fast the median', () => {
    const fast = TEST_GOAL_MS / 6;
    const oneFailed: TestRun[] = [...passing(fast), { ms: fast / 2, exitCode: 1 }, ...passing(fast)];
    expect(verdicts({ ...good, testRuns: oneFailed }).test).toBe(false);
    expect(verdicts({ ...good, testRuns: [{ ms: fast, exitCode: null }] }).test).toBe(false);
    expect(verdicts({ ...good, testRuns: [{ ms: fast, exitCode: 1 }] }).test).toBe(false);
    const failed = rowOf(
      goalRows({
        ...good,
        testRuns: [
          { ms: 3 * 60_000, exitCode: 0 },
          { ms: 2 * 60_000, exitCode: 1 },
          { ms: 4 * 60_000, exitCode: null },
        ],
      }),
      'Full test command',
    );
    expect(failed.portal).toBe(
      '3.0 min (a run failed); runs: 3.0 min (exit 0), 2.0 min (exit 1), 4.0 min (ended by a signal)',
    );
    expect(failed.verdict).toBe('**not met**');
  });

  it('says “not measured” for a skipped test run or a figure the browser could not give, never “met”', () => {
    const partial: Measured = {
      ...good,
      testRuns: null,
      testTimes: null,
      cls: Number.NaN,
      interactive: Number.NaN,
    };
    expect(verdicts(partial)).toMatchObject({ test: null, cls: null, interactive: null, lcp: true });
    expect(verdicts({ ...good, testRuns: [] }).test).toBeNull();
    const rows = goalRows(partial);
    expect(rowOf(rows, 'Full test command')).toMatchObject({
      measure: 'Full test command (`npm test`) wall time',
      portal: 'not run (--skip-test-run)',
      verdict: NOT_MEASURED,
    });
    expect(rowOf(rows, 'Cumulative layout shift')).toMatchObject({
      portal: NOT_MEASURED,
      verdict: NOT_MEASURED,
    });
    expect(rowOf(rows, 'Interactive').verdict).toBe(NOT_MEASURED);
  });

  it('holds the phone’s Lighthouse scores to their floors, the floors included', () => {
    const at = (name: 'visitor' | 'signedIn' | 'trading', figures: Partial<LighthouseFigures>) =>
      verdicts(withPage(name, figures));
    expect(at('visitor', { performance: PHONE_PERFORMANCE_GOAL }).phonePerformance).toBe(true);
    expect(at('visitor', { performance: PHONE_PERFORMANCE_GOAL - 1 }).phonePerformance).toBe(false);
    expect(at('visitor', { accessibility: PHONE_ACCESSIBILITY_GOAL }).phoneAccessibility).toBe(true);
    expect(at('visitor', { accessibility: PHONE_ACCESSIBILITY_GOAL - 1 }).phoneAccessibility).toBe(false);
    expect(at('visitor', { bestPractices: PHONE_BEST_PRACTICES_GOAL }).phoneBestPractices).toBe(true);
    expect(at('visitor', { bestPractices: PHONE_BEST_PRACTICES_GOAL - 1 }).phoneBestPractices).toBe(false);
    expect(at('signedIn', { performance: PHONE_PERFORMANCE_GOAL }).phoneSignedIn).toBe(true);
    expect(at('signedIn', { performance: PHONE_PERFORMANCE_GOAL - 1 }).phoneSignedIn).toBe(false);
    expect(at('trading', { performance: PHONE_TRADING_PERFORMANCE_GOAL }).phoneTrading).toBe(true);
    expect(at('trading', { performance: PHONE_TRADING_PERFORMANCE_GOAL - 1 }).phoneTrading).toBe(false);
    // Each page's goal is its own: a poor Trading tab leaves the visitor screen's verdicts alone.
    expect(at('trading', { performance: 10 })).toMatchObject({ phonePerformance: true, phoneTrading: false });
  });

  it('holds the phone’s paints to the bare page’s, its blocking time to its limit, the limits included', () => {
    const bare = good.lighthouse.bare;
    expect(
      verdicts(withPage('visitor', { fcp: bare.fcp, lcp: bare.lcp, tbt: PHONE_TBT_GOAL_MS })),
    ).toMatchObject({
      phoneFcp: true,
      phoneLcp: true,
      phoneTbt: true,
    });
    expect(
      verdicts(withPage('visitor', { fcp: bare.fcp + 1, lcp: bare.lcp + 1, tbt: PHONE_TBT_GOAL_MS + 1 })),
    ).toMatchObject({ phoneFcp: false, phoneLcp: false, phoneTbt: false });
    // The bare page moves the limit: the same portal paint meets it beside a slower bare page.
    expect(verdicts(withPage('bare', { fcp: bare.fcp * 2 })).phoneFcp).toBe(true);
    expect(verdicts(withPage('bare', { lcp: good.lighthouse.visitor.lcp - 1 })).phoneLcp).toBe(false);
  });

  it('holds the phone’s layout shifts and tap to their limits, the limits included', () => {
    expect(
      verdicts({ ...good, clsSignedIn: CLS_GOAL, clsPhone: CLS_GOAL, phoneTap: PHONE_TAP_GOAL_MS }),
    ).toMatchObject({ clsSignedIn: true, clsPhone: true, phoneTap: true });
    expect(
      verdicts({
        ...good,
        clsSignedIn: CLS_GOAL + 0.0001,
        clsPhone: CLS_GOAL + 0.0001,
        phoneTap: PHONE_TAP_GOAL_MS + 1,
      }),
    ).toMatchObject({ clsSignedIn: false, clsPhone: false, phoneTap: false });
    // The part after the button was enabled has no goal of its own.
    expect(verdicts({ ...good, phoneTapFromEnabled: PHONE_TAP_GOAL_MS * 10 }).phoneTap).toBe(true);
  });

  it('says “not measured” for a phone figure not taken', () => {
    const missing = { ...good, phoneTap: Number.NaN, clsPhone: Number.NaN };
    expect(verdicts(withPage('visitor', { performance: Number.NaN, fcp: Number.NaN }))).toMatchObject({
      phonePerformance: null,
      phoneFcp: null,
      phoneLcp: true,
    });
    expect(verdicts(withPage('bare', { lcp: Number.NaN })).phoneLcp).toBeNull();
    expect(verdicts(missing)).toMatchObject({ phoneTap: null, clsPhone: null, clsSignedIn: true });
    expect(rowOf(goalRows(missing), 'Phone tap')).toMatchObject({ verdict: NOT_MEASURED });
  });

  it('shows the phone’s rows after the desktop’s, the Trading tab without paints of its own', () => {
    const rows = goalRows(good);
    const phoneRows = rows.slice(rows.findIndex((row) => row.measure.startsWith('Phone')));
    expect(phoneRows.filter((row) => row.verdict === 'met')).toHaveLength(PHONE_GOAL_IDS.length);
    expect(rowOf(rows, 'Phone, visitor screen (Lighthouse mobile preset, median of 3 runs)')).toEqual({
      measure: 'Phone, visitor screen (Lighthouse mobile preset, median of 3 runs): performance score',
      portal: '100',
      bare: '100',
      goal: `≥ ${PHONE_PERFORMANCE_GOAL}`,
      verdict: 'met',
    });
    expect(rowOf(rows, 'Phone, visitor screen (Lighthouse mobile preset): best practices')).toMatchObject({
      portal: '100',
      bare: '96',
    });
    expect(rowOf(rows, 'Phone, DEX Trading tab').portal).toBe(
      '95 (TBT 20 ms, CLS 0.0010; accessibility 100, best practices 100)',
    );
    expect(rowOf(rows, 'Phone, returning signed-in user').portal).toBe(
      '99 (FCP 1100 ms, LCP 1100 ms, TBT 20 ms, CLS 0.0010; accessibility 100, best practices 100)',
    );
    expect(rowOf(rows, 'Phone tap')).toMatchObject({
      portal: `${PHONE_TAP_GOAL_MS - 40} ms (4 ms of it after the button was enabled)`,
      goal: `≤ ${PHONE_TAP_GOAL_MS} ms`,
      verdict: 'met',
    });
    // Shown for information: no goal, so no verdict.
    expect(
      rowOf(rows, 'Phone, visitor screen (Lighthouse mobile preset): cumulative layout shift'),
    ).toMatchObject({ goal: '—', verdict: '—' });
  });

  it('shows each figure beside its goal in a markdown table, one row per line', () => {
    const rows = goalRows({ ...good, lcp: 228, bareLcp: 120 });
    expect(rowOf(rows, 'Largest contentful paint')).toEqual({
      measure: `Largest contentful paint, visitor (median of ${good.runs} cold visits)`,
      portal: '228 ms (1.90×)',
      bare: '120 ms',
      goal: `≤ ${LCP_RATIO_GOAL}× the bare page`,
      verdict: '**not met**',
    });
    expect(rowOf(rows, 'All JS to a connected portal')).toMatchObject({
      portal: `${kB(good.connectedGzip)} in ${good.connectedFiles} files`,
      goal: `≤ ${kB(CONNECTED_BUDGET_BYTES)}`,
    });
    // Shown for information: no goal, so no verdict.
    expect(rowOf(rows, 'Connect Wallet enabled without a wallet')).toMatchObject({ goal: '—', verdict: '—' });
    const lines = goalTable(rows).split('\n');
    expect(lines[0]).toBe('| Measure | Portal | Bare Vite React page | Goal | Verdict |');
    expect(lines).toHaveLength(rows.length + 2);
    expect(lines.slice(2).every((line) => line.startsWith('| ') && line.split(' | ').length === 5)).toBe(
      true,
    );
  });
});

describe('bench JSON', () => {
  const date = new Date('2026-01-02T03:04:05Z');

  it('has exactly the documented fields, with ratios and verdicts beside the raw figures', () => {
    const json = benchJson({ ...good, lcp: 240, bareLcp: 120 }, date, 'test machine');
    expect(Object.keys(json).sort()).toEqual(Object.keys(JSON_FIELDS).sort());
    expect(json).toMatchObject({
      date: '2026-01-02T03:04:05.000Z',
      machine: 'test machine',
      lcp: 240,
      bareLcp: 120,
      lcpRatio: 2,
      entryGzip: good.entryGzip,
      allMet: false,
    });
    expect(json.verdicts.lcp).toBe(false);
    expect(Object.keys(json.verdicts)).toEqual([...GOAL_IDS]);
    // One line of valid JSON, as `--json` prints it.
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('gives the median of the test runs, every run with its exit code, and the last run’s layers', () => {
    const testRuns: TestRun[] = [
      { ms: 300_000.4, exitCode: 0 },
      { ms: 200_000.6, exitCode: 1 },
      { ms: 400_000, exitCode: 0 },
    ];
    const json = benchJson({ ...good, testRuns }, date, 'test machine');
    expect(json.testMs).toBe(300_000);
    expect(json.testRuns).toEqual([
      { ms: 300_000, exitCode: 0 },
      { ms: 200_001, exitCode: 1 },
      { ms: 400_000, exitCode: 0 },
    ]);
    expect(json.verdicts.test).toBe(false);
    expect(json.testLayers).toEqual([
      { layer: 'e2e', files: 1, tests: 8, wallMs: 90_001, sumMs: 90_001 },
      { layer: 'unit', files: 2, tests: 42, wallMs: 2_001, sumMs: 2_601 },
    ]);
  });

  it('gives each page’s Lighthouse figures and the phone’s, null for the Trading tab’s paints', () => {
    const json = benchJson(withPage('visitor', { tbt: 12.34, cls: 0.0123456 }), date, 'test machine');
    expect(json.lighthouseRuns).toBe(3);
    expect(json.lighthouse.visitor).toEqual({
      performance: 100,
      fcp: 1100,
      lcp: 1100,
      tbt: 12.3,
      cls: 0.01235,
      accessibility: 100,
      bestPractices: 100,
    });
    expect(json.lighthouse.trading).toMatchObject({ performance: 95, fcp: null, lcp: null });
    expect(json).toMatchObject({
      phoneRuns: 5,
      clsPhone: 0,
      phoneTap: PHONE_TAP_GOAL_MS - 40,
      phoneTapFromEnabled: 4,
    });
    expect(json.verdicts).toMatchObject({ phonePerformance: true, phoneTap: true });
  });

  it('gives null, not NaN, for figures not taken, and allMet null when nothing failed but something is missing', () => {
    const json = benchJson(
      { ...good, cls: Number.NaN, testRuns: null, testTimes: null },
      date,
      'test machine',
    );
    expect(json).toMatchObject({ cls: null, testMs: null, testRuns: null, testLayers: null, allMet: null });
    expect(json.verdicts).toMatchObject({ cls: null, test: null });
    // Runs whose last one wrote no test times: the runs count, the layers are missing.
    expect(benchJson({ ...good, testTimes: null }, date, 'test machine').testLayers).toBeNull();
    expect(benchJson(good, date, 'test machine').allMet).toBe(true);
  });

  it('is listed field by field in docs/benchmarks.md', () => {
    const docs = readFileSync(new URL('../../docs/benchmarks.md', import.meta.url), 'utf8');
    const section = docs.slice(
      docs.indexOf('<!-- bench-json:start -->'),
      docs.indexOf('<!-- bench-json:end -->'),
    );
    for (const field of Object.keys(JSON_FIELDS)) expect(section).toContain(`- \`${field}\`: `);
  });
});
