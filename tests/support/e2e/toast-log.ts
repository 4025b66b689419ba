import type { Page } from 'playwright-core';

// The toasts a page has announced, in order. The portal shows one toast at a time and a newer one
// replaces it (docs/product.md#toasts), so a toast the page raised can be gone a moment later for a
// reason the step did not cause: a live notification of the DDEX a swap brought in, delivered by the
// stack whenever the chain's watcher gets to it, or the toast's own timer while a paused clock is
// moved on. A step that checks "the page told the user" reads this log, as a screen reader user
// hears every toast the live regions announce.

declare global {
  interface Window {
    __toastsAnnounced?: string[];
  }
}

/** Starts the log on an open page: from now on, every toast its live regions show is kept. */
export async function logToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const announced: string[] = [];
    window.__toastsAnnounced = announced;
    const regions = () => document.querySelectorAll('[role="status"][aria-live], [role="alert"][aria-live]');
    // What each region showed when last looked at: a toast is new when its region's words change.
    const showing = new Map<Element, string>();
    const note = () => {
      for (const region of regions()) {
        const text = region.textContent?.trim() ?? '';
        if (text !== '' && text !== showing.get(region)) announced.push(text);
        showing.set(region, text);
      }
    };
    note();
    new MutationObserver(note).observe(document.body, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
}

/**
 * Whether a toast with this title (or description) was announced since the last one taken; taking
 * it forgets it and every toast before it, so the next check sees only what came after.
 */
export async function takeToast(page: Page, text: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    const announced = window.__toastsAnnounced;
    if (!announced) throw new Error('no toast log on this page: call logToasts once it is open');
    const index = announced.findIndex((shown) => shown.includes(wanted));
    if (index < 0) return false;
    announced.splice(0, index + 1);
    return true;
  }, text);
}
