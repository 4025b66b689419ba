/**
 * For the global teardowns of the layers that run a gateway in the test process. PGlite writes
 * the exit status of its embedded Postgres into process.exitCode: 99 as it starts, 100 after any
 * query that errs (the tests provoke many on purpose), 0 as it shuts down. Vitest itself only ever
 * sets 1, for a failure, and never sets a code for success, so after the gateways are closed any
 * other value is PGlite's and must not become the run's result.
 */
export function dropDatabaseExitCode(): void {
  if (process.exitCode !== 1) process.exitCode = undefined;
}
