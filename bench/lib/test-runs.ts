import { readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { formatTimes, TEST_TIMES_FILE, type TestTimes } from '../../tests/support/reporters/layer-times.ts';
import { median } from './stats.ts';

// `npm run bench`'s test figure: `npm test` run several times in a row, the median of their wall
// times, every run listed with its exit code, and the last run's time by layer as its reporter
// (tests/support/reporters/layer-times.ts) wrote it to .local/test-times.json. Pure but for
// readTestTimes, so tests/unit/bench-goals.test.ts checks it without running the tests.

/** `npm test` runs of one bench unless `--test-runs` says otherwise. */
export const DEFAULT_TEST_RUNS = 3;

/** One `npm test`: its wall time and exit code (null when a signal ended it). */
export type TestRun = { ms: number; exitCode: number | null };

/** The file the layer-times reporter writes, relative to the project, as the docs name it. */
export const TEST_TIMES_PATH = relative(resolve(import.meta.dirname, '../..'), TEST_TIMES_FILE);

/** `--test-runs`: a whole number, at least 1 (a smaller one runs once). */
export function parseTestRuns(text: string): number {
  const runs = Number(text);
  if (text.trim() === '' || !Number.isInteger(runs)) {
    throw new Error(`--test-runs takes a whole number of runs, not “${text}”`);
  }
  return Math.max(1, runs);
}

/** The test figure: the median wall time of the runs (NaN for none). */
export const testRunsMedian = (runs: readonly TestRun[]): number => median(runs.map((run) => run.ms));

/** Every run exited 0 (and there was at least one). */
export const testRunsPassed = (runs: readonly TestRun[]): boolean =>
  runs.length > 0 && runs.every((run) => run.exitCode === 0);

export const minutes = (ms: number): string => `${(ms / 60_000).toFixed(1)} min`;
/** A run's time and exit code: “6.1 min (exit 1)”. */
export const testRunText = (run: TestRun): string =>
  `${minutes(run.ms)} (${run.exitCode === null ? 'ended by a signal' : `exit ${run.exitCode}`})`;

/** Every run in order, each with its time and exit code: “5.8 min (exit 0), 6.1 min (exit 1)”. */
export const testRunsText = (runs: readonly TestRun[]): string => runs.map(testRunText).join(', ');

const isTestTimes = (value: unknown): value is TestTimes =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as TestTimes).totalMs === 'number' &&
  Array.isArray((value as TestTimes).layers) &&
  Array.isArray((value as TestTimes).slowest);

/**
 * The times the reporter wrote to `file`, when it wrote them at or after `since` (epoch ms, the
 * last run's start); null when the file is missing, older (that run wrote none) or not the
 * reporter's.
 */
export function readTestTimes(since: number, file = TEST_TIMES_FILE): TestTimes | null {
  try {
    if (statSync(file).mtimeMs < since) return null;
    const times: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isTestTimes(times) ? times : null;
  } catch {
    return null;
  }
}

/** For the terminal: the runs, then the last run's table as `npm test` printed it. */
export function testRunsReport(runs: readonly TestRun[] | null, times: TestTimes | null): string {
  if (!runs) return 'npm test: not run (--skip-test-run)';
  const lines = [`npm test runs: ${testRunsText(runs)}; median ${minutes(testRunsMedian(runs))}`];
  lines.push(times ? `The last run:\n${formatTimes(times)}` : `The last run wrote no ${TEST_TIMES_PATH}.`);
  return lines.join('\n');
}

/** For docs/benchmarks.md: the same, in words and a code block. */
export function testRunsMarkdown(runs: readonly TestRun[] | null, times: TestTimes | null): string {
  if (!runs) return '`npm test` was not run (`--skip-test-run`).';
  const count = runs.length === 1 ? 'once' : `${runs.length} times in a row`;
  return [
    `\`npm test\` ran ${count} after the other measures: ${testRunsText(runs)}. The test figure is ` +
      'the median wall time, and a run that exits other than 0 fails the goal however fast it was.',
    '',
    ...(times
      ? [
          `The last run's time by layer and its slowest files, as its reporter wrote them to \`${TEST_TIMES_PATH}\`:`,
          '',
          '```text',
          formatTimes(times),
          '```',
        ]
      : [`The last run wrote no \`${TEST_TIMES_PATH}\`.`]),
  ].join('\n');
}
