/**
 * Runs `work` and puts process.exitCode back as it was. PGlite's Emscripten runtime writes the
 * exit status of its embedded Postgres into process.exitCode: 99 when it starts, 100 after a query
 * that errs, 0 when it shuts down. Around start and close that keeps a clean process from exiting
 * 99 and a test run whose failures are already recorded from exiting 0; a process that also serves
 * requests must still settle its own code at the end (tests/support/exit-code.ts, the scripts).
 */
export async function keepingExitCode<T>(work: () => Promise<T>): Promise<T> {
  const exitCode = process.exitCode;
  try {
    return await work();
  } finally {
    process.exitCode = exitCode;
  }
}
