/**
 * Runs `work` and puts process.exitCode back as it was. PGlite's Emscripten runtime writes the
 * exit status of its embedded Postgres into process.exitCode: 99 when it starts, 0 when it shuts
 * down. Left alone, that makes a clean process exit 99, and a test run whose failures were already
 * recorded exit 0.
 */
export async function keepingExitCode<T>(work: () => Promise<T>): Promise<T> {
  const exitCode = process.exitCode;
  try {
    return await work();
  } finally {
    process.exitCode = exitCode;
  }
}
