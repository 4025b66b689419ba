import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { formatCoverage, readCoverage } from './coverage.ts';

// The model project's globalSetup. Test files run in separate workers, so each
// writes its machine's coverage to a JSON file in a directory made here; the
// teardown (after the last test, after Vitest's own summary) merges them,
// prints the table with `paths: P, states: S/S, transitions: T/T` as the last
// line, and fails the run when anything is left uncovered.
export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'ddex-model-paths-'));
  project.provide('modelPathsDir', dir);
  return () => {
    try {
      const rows = readCoverage(dir);
      if (rows.length === 0) return;
      const { text, complete } = formatCoverage(rows);
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
