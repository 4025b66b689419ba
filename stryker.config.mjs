// StrykerJS over the statecharts (issue 18): does a test fail when a machine's code changes?
// `npm run test:mutation` runs it through scripts/mutation.ts, which picks the test layer
// (unit + model, or the model tests alone with --model-only) and prints the score; see
// docs/path-coverage.md. Not part of `npm test`: a full run takes minutes.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['src/machines/**/*.ts'],
  testRunner: 'vitest',
  // One plain Vitest configuration holding the layers measured; MUTATION_LAYER=model narrows it.
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  // Each mutant runs only the tests that reached it.
  coverageAnalysis: 'perTest',
  // A mutant reached only while a module loads (a machine's config object) would need every test
  // file reloaded for each one; the diagrams in docs/machines pin those, so they are left out.
  ignoreStatic: true,
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/index.json' },
  clearTextReporter: { reportTests: false, logTests: false, skipFull: true },
  // Two cores: one test runner each.
  concurrency: 2,
  // A busy machine is slow, not stuck: a mutant is a timeout only well past its usual time.
  timeoutMS: 10_000,
  // The first run (every related test, with coverage per test) can take minutes on a loaded machine.
  dryRunTimeoutMinutes: 15,
  tempDirName: '.stryker-tmp',
  // Nothing a test reads lives in these, and the local stack's data is large.
  ignorePatterns: ['.local', 'dist', 'coverage', 'reports', '.env', '.env.*'],
};
