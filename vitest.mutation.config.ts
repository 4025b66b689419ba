import { configDefaults, defineConfig } from 'vitest/config';

// The tests StrykerJS runs against each mutant of src/machines (stryker.config.mjs). Its runner
// wants one plain configuration rather than vitest.config.ts's projects, so this one lists the
// unit and model tests together; MUTATION_LAYER=model keeps only the model tests, to measure what
// the generated paths catch on their own. Only test files that import the mutated code run
// (Stryker's `related` mode), so the unit tests of services and scripts cost nothing here.
//
// Left out:
// - tests/unit/diagrams.test.ts edits a machine's source text and runs the diagram script on a
//   copy; the sandbox's machines are instrumented, so the edit finds nothing to change. What it
//   checks (the machines' structure) is what `ignoreStatic` leaves out of the score anyway.
// - the model project's globalSetup: it prints the path-coverage table and fails a run below
//   100 %, while Stryker runs a few paths at a time. Without it each model test file skips writing
//   its coverage counts (describeModel checks for the directory).
const modelOnly = process.env['MUTATION_LAYER'] === 'model';

export default defineConfig({
  test: {
    include: ['tests/model/**/*.model.test.ts', ...(modelOnly ? [] : ['tests/unit/**/*.test.ts'])],
    exclude: [...configDefaults.exclude, 'tests/unit/diagrams.test.ts'],
    environment: 'node',
  },
});
