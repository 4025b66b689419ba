import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { benchJson, JSON_FIELDS } from '../../bench/lib/figures-json.ts';
import { ENTRY_BUDGET_BYTES } from '../../scripts/lib/entry-size.ts';
import {
  GOAL_IDS,
  goalRows,
  goalTable,
  NOT_MEASURED,
  verdicts,
  type GoalRow,
  type Measured,
} from '../../bench/lib/goals.ts';

// `npm run bench`'s verdicts, table and JSON (bench/lib/goals.ts, bench/lib/figures-json.ts): each
// goal of the portal is judged against its limit, a figure the run did not take is said to be
// not measured rather than met, and the JSON carries the fields docs/benchmarks.md lists.

/** A run that meets every goal, with room. */
const good: Measured = {
  runs: 7,
  fcp: 60,
  bareFcp: 112,
  lcp: 80,
  bareLcp: 120,
  interactive: 140,
  connectEnabledNoWallet: 560,
  cls: 0.002,
  entryGzip: 125_000,
  bareEntryGzip: 68_000,
  tradingGzip: 42_500,
  tradingFiles: 4,
  tradingWithSharedGzip: 82_600,
  connectedGzip: 200_000,
  connectedFiles: 16,
  notifications: 20,
  notificationP50: 24,
  notificationP95: 34,
  quotes: 20,
  quoteP50: 117,
  quoteP95: 120,
  warmStarts: 3,
  startWarm: 3_700,
  startFresh: 5_900,
  testRun: { ms: 5.5 * 60_000, exitCode: 0 },
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

  it('judges paint and interactive against the bare page: LCP 0.8×, interactive 1.3× its LCP', () => {
    expect(verdicts({ ...good, lcp: 96, bareLcp: 120 }).lcp).toBe(true);
    expect(verdicts({ ...good, lcp: 97, bareLcp: 120 }).lcp).toBe(false);
    expect(verdicts({ ...good, interactive: 156, bareLcp: 120 }).interactive).toBe(true);
    expect(verdicts({ ...good, interactive: 157, bareLcp: 120 }).interactive).toBe(false);
    // Interactive is held to the bare page's LCP, not to its first paint.
    expect(verdicts({ ...good, interactive: 150, bareFcp: 50, bareLcp: 120 }).interactive).toBe(true);
  });

  it('holds the sizes, latencies and layout shift to their limits, the limits included', () => {
    const limits = verdicts({
      ...good,
      cls: 0.01,
      entryGzip: ENTRY_BUDGET_BYTES,
      connectedGzip: 230_000,
      tradingGzip: 70_000,
      notificationP95: 300,
      quoteP95: 150,
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
      cls: 0.0101,
      entryGzip: ENTRY_BUDGET_BYTES + 1,
      connectedGzip: 230_001,
      tradingGzip: 70_001,
      notificationP95: 301,
      quoteP95: 151,
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

  it('wants npm start strictly under 10 s warm and 15 s fresh', () => {
    expect(verdicts({ ...good, startWarm: 9_999, startFresh: 14_999 })).toMatchObject({
      startWarm: true,
      startFresh: true,
    });
    expect(verdicts({ ...good, startWarm: 10_000, startFresh: 15_000 })).toMatchObject({
      startWarm: false,
      startFresh: false,
    });
  });

  it('fails the test goal for a failing test command, however fast, and for one over 6 minutes', () => {
    expect(verdicts({ ...good, testRun: { ms: 60_000, exitCode: 1 } }).test).toBe(false);
    expect(verdicts({ ...good, testRun: { ms: 6 * 60_000 + 1, exitCode: 0 } }).test).toBe(false);
    expect(verdicts({ ...good, testRun: { ms: 6 * 60_000, exitCode: 0 } }).test).toBe(true);
    const failed = rowOf(
      goalRows({ ...good, testRun: { ms: 3 * 60_000, exitCode: 1 } }),
      'Full test command',
    );
    expect(failed.portal).toBe('3.0 min (exit 1)');
    expect(failed.verdict).toBe('**not met**');
  });

  it('says “not measured” for a skipped test run or a figure the browser could not give, never “met”', () => {
    const partial: Measured = { ...good, testRun: null, cls: Number.NaN, interactive: Number.NaN };
    expect(verdicts(partial)).toMatchObject({ test: null, cls: null, interactive: null, lcp: true });
    const rows = goalRows(partial);
    expect(rowOf(rows, 'Full test command')).toMatchObject({
      portal: 'not run (--skip-test-run)',
      verdict: NOT_MEASURED,
    });
    expect(rowOf(rows, 'Cumulative layout shift')).toMatchObject({
      portal: NOT_MEASURED,
      verdict: NOT_MEASURED,
    });
    expect(rowOf(rows, 'Interactive').verdict).toBe(NOT_MEASURED);
  });

  it('shows each figure beside its goal in a markdown table, one row per line', () => {
    const rows = goalRows({ ...good, lcp: 228, bareLcp: 120 });
    expect(rowOf(rows, 'Largest contentful paint')).toEqual({
      measure: 'Largest contentful paint, visitor (median of 7 cold visits)',
      portal: '228 ms (1.90×)',
      bare: '120 ms',
      goal: '≤ 0.8× the bare page',
      verdict: '**not met**',
    });
    expect(rowOf(rows, 'All JS to a connected portal')).toMatchObject({
      portal: '200.0 kB in 16 files',
      goal: '≤ 230.0 kB',
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
      entryGzip: 125_000,
      testMs: 330_000,
      testExitCode: 0,
      allMet: false,
    });
    expect(json.verdicts.lcp).toBe(false);
    expect(Object.keys(json.verdicts)).toEqual([...GOAL_IDS]);
    // One line of valid JSON, as `--json` prints it.
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('gives null, not NaN, for figures not taken, and allMet null when nothing failed but something is missing', () => {
    const json = benchJson({ ...good, cls: Number.NaN, testRun: null }, date, 'test machine');
    expect(json).toMatchObject({ cls: null, testMs: null, testExitCode: null, allMet: null });
    expect(json.verdicts).toMatchObject({ cls: null, test: null });
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
