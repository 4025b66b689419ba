import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { formatCoverage, mergeCoverage, measureCoverage, readCoverageFiles } from '../model/coverage.ts';
import type { CoverageOptions } from '../model/coverage.ts';
import { writePathsReport } from '../model/report.ts';
import { formatFailures, readFailures } from './failures.ts';
import { readReasons } from './reasons.ts';

// A second globalSetup of the e2e project, for the UI-driven paths
// (tests/model/*.ui.test.ts): like the model project's, each file writes what
// its paths covered (and why the rest is not UI-reachable) to a directory made
// here; the teardown prints the table ending `ui paths: P, states: S/S,
// transitions: T/T` and fails the run below the goal or when a transition left
// out has no reason.

/** The share of the user-facing machines' transitions the UI paths must drive. */
export const UI_TRANSITION_GOAL = 0.9;

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const UI_REPORT = join(REPO_ROOT, 'reports', 'paths', 'ui.html');

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'ddex-ui-paths-'));
  project.provide('uiPathsDir', dir);
  return () => {
    try {
      const files = readCoverageFiles(dir);
      if (files.length === 0) return;
      const options: CoverageOptions = {
        heading: 'UI-driven paths (the generated paths, each step caused in the portal and its view checked)',
        summaryLabel: 'ui paths',
        goal: UI_TRANSITION_GOAL,
        reasons: readReasons(dir),
      };
      try {
        writePathsReport(UI_REPORT, 'UI-driven paths: the statecharts through the portal', files, options);
        process.stdout.write(`\nUI path coverage report: ${relative(process.cwd(), UI_REPORT)}\n`);
      } catch (error) {
        process.stdout.write(`\nThe UI path coverage report could not be written: ${String(error)}\n`);
        process.exitCode = 1;
      }
      const { text, complete } = formatCoverage(mergeCoverage(files).map(measureCoverage), options);
      process.stdout.write(text);
      // Under the table, where the end of a long run's output still shows them.
      process.stdout.write(formatFailures(readFailures(dir)));
      if (!complete) process.exitCode = 1;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    uiPathsDir: string;
  }
}
