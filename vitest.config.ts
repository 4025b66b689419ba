import { defineConfig } from 'vitest/config';

// The README screenshots (tests/e2e/*.screenshots.test.ts) only take pictures:
// they join the e2e project when asked for (`npm run screenshots` sets
// E2E_SCREENSHOTS=1), so an ordinary run neither runs nor skips them.
const screenshots = process.env['E2E_SCREENSHOTS'] === '1';

// The layers before the browser tests share one group, so they share a worker count: two, one per
// core (Vitest's default leaves one core idle). Their files are independent: each contract file
// has its own accounts and users on the shared stack.
const LAYER_WORKERS = 2;

// Five layers: unit tests run in isolation; model tests run the paths
// generated from each statechart and print their coverage table at the end
// (tests/support/model/); contract tests drive the real local stack, which
// their global setup starts on free ports with empty data; postgres tests run
// the migrations and the access-policy matrix on a real PostgreSQL 17 loaded
// like a hosted project (tests/support/postgres/); e2e tests drive the built
// portal in Debian's Chromium against a stack of their own (tests/support/e2e/).
export default defineConfig({
  test: {
    // After the usual report: each layer's wall time and the ten slowest files (.local/test-times.json).
    reporters: ['default', './tests/support/reporters/layer-times.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          maxWorkers: LAYER_WORKERS,
        },
      },
      {
        test: {
          name: 'model',
          include: ['tests/model/**/*.model.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/model/global-setup.ts'],
          maxWorkers: LAYER_WORKERS,
        },
      },
      {
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/gateway-setup.ts'],
          maxWorkers: LAYER_WORKERS,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'postgres',
          include: ['tests/postgres/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/postgres/global-setup.ts'],
          maxWorkers: LAYER_WORKERS,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: [
            'tests/e2e/**/*.e2e.test.ts',
            // The generated paths driven through the portal (tests/support/ui/).
            'tests/model/**/*.ui.test.ts',
            ...(screenshots ? ['tests/e2e/**/*.screenshots.test.ts'] : []),
          ],
          environment: 'node',
          globalSetup: ['tests/support/e2e/global-setup.ts', 'tests/support/ui/global-setup.ts'],
          setupFiles: ['tests/support/e2e/setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // An expect.poll on the page waits as long as Playwright's own waits do (30 s): a page
          // under load takes its time to reach a state, and the poll ends as soon as it does.
          expect: { poll: { timeout: 30_000 } },
          // Each worker drives a Chromium while this process serves the stack: two at a time
          // suits a 2-core machine. A worker count of its own needs a group of its own, which
          // runs after the other layers rather than competing with them.
          maxWorkers: 2,
          // The files of a worker share its module cache, so one Chromium serves them all (launched
          // by the first, tests/support/e2e/browser.ts) rather than one launched per file. Each
          // test still opens a fresh browser context.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
