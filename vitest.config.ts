import { defineConfig } from 'vitest/config';

// Three layers so far: unit tests run in isolation; model tests run the paths
// generated from each statechart and print their coverage table at the end
// (tests/model/support/); contract tests drive the real local stack, which
// each test file starts on a free port with empty data.
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'model',
          include: ['tests/model/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/model/support/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/gateway-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
