import type { TestProject } from 'vitest/node';

/** The statuses PGlite's runtime writes: 99 as it starts, 100 after a query that errs, 0 as it stops. */
const DATABASE_STATUSES: ReadonlySet<number | string | undefined> = new Set([0, 99, 100]);

/**
 * For the global teardowns of the layers that run a gateway in the test process. PGlite writes
 * the exit status of its embedded Postgres into process.exitCode, and the tests provoke failing
 * queries on purpose, so by the end the code can say 100 for a clean run, or 0 for a run Vitest had
 * already marked failed. The run's result is taken from Vitest's own record instead: failed tests
 * or unhandled errors make it 1; a database status is dropped; any other code (a cancelled run's
 * 130) is kept.
 */
export function settleExitCode(project: TestProject): void {
  const { state } = project.vitest;
  if (
    state.getCountOfFailedTests() > 0 ||
    state.getFailedFilepaths().length > 0 ||
    state.getUnhandledErrors().length > 0
  ) {
    process.exitCode = 1;
  } else if (DATABASE_STATUSES.has(process.exitCode)) {
    process.exitCode = undefined;
  }
}
