import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_TEST_RUNS,
  parseTestRuns,
  readTestTimes,
  TEST_TIMES_PATH,
  testRunsMarkdown,
  testRunsMedian,
  testRunsPassed,
  testRunsReport,
  type TestRun,
} from '../../bench/lib/test-runs.ts';
import { formatTimes, summarize, TEST_TIMES_FILE } from '../support/reporters/layer-times.ts';

// `npm run bench`'s test figure (bench/lib/test-runs.ts): `npm test` run several times, the median
// their figure, every run listed with its exit code, and the last run's layer table read back from
// the file the layer-times reporter writes, only when that run wrote it.

const times = summarize(
  [
    { layer: 'unit', file: 'tests/unit/a.test.ts', start: 0, end: 1_500, tests: 20 },
    { layer: 'contract', file: 'tests/contract/b.test.ts', start: 100, end: 40_100, tests: 9 },
  ],
  42_000,
);
const runs: TestRun[] = [
  { ms: 240_000, exitCode: 0 },
  { ms: 180_000, exitCode: 1 },
  { ms: 300_000, exitCode: 0 },
];

const dir = mkdtempSync(join(tmpdir(), 'bench-test-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the test runs', () => {
  it('take --test-runs as a whole number of at least one, the default included', () => {
    expect(parseTestRuns(String(DEFAULT_TEST_RUNS))).toBe(DEFAULT_TEST_RUNS);
    expect(parseTestRuns('5')).toBe(5);
    expect(parseTestRuns('0')).toBe(1);
    expect(parseTestRuns('-2')).toBe(1);
    for (const text of ['', 'three', '2.5']) expect(() => parseTestRuns(text)).toThrow(/--test-runs/);
  });

  it('have the median wall time as their figure, and pass only when every run exits 0', () => {
    expect(testRunsMedian(runs)).toBe(240_000);
    expect(testRunsMedian([{ ms: 7, exitCode: 0 }])).toBe(7);
    expect(testRunsPassed(runs)).toBe(false);
    expect(testRunsPassed(runs.map((run) => ({ ...run, exitCode: 0 })))).toBe(true);
    expect(testRunsPassed([{ ms: 1, exitCode: null }])).toBe(false);
    expect(testRunsPassed([])).toBe(false);
  });

  it('name the file the reporter writes relative to the project', () => {
    expect(resolve(import.meta.dirname, '../..', TEST_TIMES_PATH)).toBe(TEST_TIMES_FILE);
  });
});

describe('the last run’s test times', () => {
  const file = join(dir, 'test-times.json');
  writeFileSync(file, JSON.stringify(times));
  const written = statSync(file).mtimeMs;

  it('are read when the file was written after the run started', () => {
    expect(readTestTimes(written - 1_000, file)).toEqual(times);
  });

  it('are not read from a file an earlier run left, a missing file or one that is not the reporter’s', () => {
    expect(readTestTimes(written + 1_000, file)).toBeNull();
    expect(readTestTimes(0, join(dir, 'missing.json'))).toBeNull();
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ layers: 'none' }));
    expect(readTestTimes(0, other)).toBeNull();
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{');
    expect(readTestTimes(0, broken)).toBeNull();
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify(times));
    utimesSync(old, new Date(written - 60_000), new Date(written - 60_000));
    expect(readTestTimes(written - 1_000, old)).toBeNull();
  });

  it('go into the docs and the terminal as the reporter prints them, after every run', () => {
    const markdown = testRunsMarkdown(runs, times);
    expect(markdown).toContain('3.0 min (exit 1)');
    expect(markdown).toContain('4.0 min (exit 0), 3.0 min (exit 1), 5.0 min (exit 0)');
    expect(markdown).toContain(`\`${TEST_TIMES_PATH}\``);
    expect(markdown).toContain(`\`\`\`text\n${formatTimes(times)}\n\`\`\``);
    const report = testRunsReport(runs, times);
    expect(report).toContain('4.0 min (exit 0), 3.0 min (exit 1), 5.0 min (exit 0); median 4.0 min');
    expect(report).toContain(formatTimes(times));
  });

  it('are said to be missing when the last run wrote none, and the runs to be skipped with --skip-test-run', () => {
    expect(testRunsMarkdown(runs, null)).toContain(`The last run wrote no \`${TEST_TIMES_PATH}\`.`);
    expect(testRunsReport(runs, null)).toContain(`The last run wrote no ${TEST_TIMES_PATH}.`);
    expect(testRunsMarkdown(null, null)).toContain('--skip-test-run');
    expect(testRunsReport(null, null)).toContain('--skip-test-run');
  });
});
