import type { Page } from 'playwright-core';

// A page opened with `clock: true` keeps time flowing; these maps stop it once the page is ready,
// so a timer of the portal (a retry's back-off, a wait for the feed) fires only when a step moves
// the clock on, never because a step took its time. Stop it only after every lazily loaded part
// the path needs has appeared: React reveals such a part on a timer of its own.

/** Stops the clock of the page's browser context where it is (every tab of the world). */
export async function pauseClock(page: Page): Promise<void> {
  // pauseAt takes a time ahead of the page's clock, which runs on while the call is on its way.
  for (let ahead = 50; ; ahead *= 2) {
    const now = await page.evaluate(() => Date.now());
    const paused = await page.clock.pauseAt(now + ahead).then(
      () => true,
      (error: unknown) => {
        if (ahead >= 1600) throw error;
        return false;
      },
    );
    if (paused) return;
  }
}
