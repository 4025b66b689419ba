import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { e2e } from './context.ts';

// The e2e files that swap on the stack's one DDEX/WETH pool take turns with it, a whole file at a
// time. A swap's outcome depends on every trade before it: trading.e2e expects what the router
// quoted and moves the price on purpose to see a swap reverted, which would revert a generated
// path's swap waiting in its wallet at that moment. The turn is a directory made in the run's
// temporary folder (mkdir is atomic across the worker processes) and removed when the file ends;
// the run's teardown removes the folder, so a crashed worker cannot keep it.

/** A file waits at most this long for its turn: the other files that swap take about two minutes. */
const TURN_WAIT_MS = 10 * 60_000;
/** How often a waiting file looks again. */
const LOOK_AGAIN_MS = 100;

const turnDir = () => join(e2e().locksDir, 'ddex-weth-pool');

/** Whether this file holds the turn: a file that never got it must not end another's. */
let holding = false;

async function takeTurn(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(turnDir());
      holding = true;
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, LOOK_AGAIN_MS));
  }
}

/** Call at the top of a test file that swaps on the pool: its tests run only while no other file's do. */
export function swapsOnTheSharedPool(): void {
  beforeAll(takeTurn, TURN_WAIT_MS);
  afterAll(() => {
    if (!holding) return;
    rmSync(turnDir(), { recursive: true, force: true });
    holding = false;
  });
}
