import type { Page } from 'playwright-core';

// Cumulative layout shift of a visit: every layout-shift entry the page reports (buffered, so
// those before the observer are in) that no user input caused, summed. Each shift keeps what
// moved, so a figure over the goal says where to look.

export type LayoutShift = {
  value: number;
  /** performance.now() of the shift. */
  at: number;
  /** The nodes that moved: tag name and the start of their text. */
  sources: string[];
};

export type LayoutShifts = { cls: number; shifts: LayoutShift[] };

declare global {
  interface Window {
    __layoutShifts?: { read: () => LayoutShifts };
  }
}

/** The observer as an init script (a string, for the reason interactive.ts gives). */
export const LAYOUT_SHIFT_INIT_SCRIPT = `(() => {
  const totals = { cls: 0, shifts: [] };
  const describe = (node) => {
    if (!node) return '(removed)';
    const text = (node.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return node.nodeName.toLowerCase() + (text ? ' "' + text + '"' : '');
  };
  const add = (entries) => {
    for (const entry of entries) {
      if (entry.hadRecentInput) continue;
      totals.cls += entry.value;
      totals.shifts.push({
        value: entry.value,
        at: entry.startTime,
        sources: (entry.sources || []).map((source) => describe(source.node)),
      });
    }
  };
  let observer = null;
  try {
    const watching = new PerformanceObserver((list) => add(list.getEntries()));
    watching.observe({ type: 'layout-shift', buffered: true });
    observer = watching;
  } catch (error) {
    totals.cls = NaN;
  }
  window.__layoutShifts = {
    read: () => {
      if (observer) add(observer.takeRecords());
      return { cls: totals.cls, shifts: totals.shifts.slice() };
    },
  };
})();`;

/** The shifts so far, those the observer has not yet been handed included. */
export async function readLayoutShifts(page: Page): Promise<LayoutShifts> {
  const read = await page.evaluate(() => window.__layoutShifts?.read() ?? null);
  return read ?? { cls: Number.NaN, shifts: [] };
}
