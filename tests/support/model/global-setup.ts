import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { formatCoverage, mergeCoverage, measureCoverage, readCoverageFiles } from './coverage.ts';
import { writePathsReport } from './report.ts';

// The model project's globalSetup. Test files run in separate workers, so each
// writes its machine's coverage to a JSON file in a directory made here; the
// teardown (after the last test, after Vitest's own summary) merges them,
// writes the report page (reports/paths/index.html), prints the table with
// `paths: P, states: S/S, transitions: T/T` as the last line, and fails the
// run when anything is left uncovered.

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MODEL_REPORT = join(REPO_ROOT, 'reports', 'paths', 'index.html');

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'ddex-model-paths-'));
  project.provide('modelPathsDir', dir);
  return () => {
    try {
      const files = readCoverageFiles(dir);
      if (files.length === 0) return;
      try {
        writePathsReport(MODEL_REPORT, 'Generated paths: coverage of the statecharts', files);
        process.stdout.write(`\nPath coverage report: ${relative(process.cwd(), MODEL_REPORT)}\n`);
      } catch (error) {
        process.stdout.write(`\nThe path coverage report could not be written: ${String(error)}\n`);
        process.exitCode = 1;
      }
      const { text, complete } = formatCoverage(mergeCoverage(files).map(measureCoverage));
      process.stdout.write(text);
      if (!complete) process.exitCode = 1;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    modelPathsDir: string;
  }
}
