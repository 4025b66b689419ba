/**
 * Resolves once the browser has painted content for the first time, or after
 * `fallbackMs` where that is never reported (a tab opened in the background
 * paints nothing; some browsers lack paint timing).
 *
 * The services' code (supabase-js, viem) waits for it: fetched and evaluated
 * before that paint, it would hold the first screen back by the time it takes
 * to parse, although nothing on that screen needs it.
 */
export function afterFirstPaint(fallbackMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    let observer: PerformanceObserver | null = null;
    const done = () => {
      clearTimeout(timer);
      observer?.disconnect();
      resolve();
    };
    const timer = setTimeout(done, fallbackMs);
    try {
      observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length > 0) done();
      });
      observer.observe({ type: 'paint', buffered: true });
    } catch {
      // No paint timing here: the fallback resolves.
    }
  });
}

/**
 * Resolves once React has committed the page for the first time (`committed`: the hydration of the
 * prerendered HTML, or the first render of an empty page) and the browser has painted. The HTML
 * paints before any script runs, so the paint alone would let the services' code be parsed while
 * React is still hydrating, holding back the moment the page answers a click.
 */
export async function afterFirstCommit(committed: Promise<void>, fallbackMs = 1000): Promise<void> {
  await committed;
  await afterFirstPaint(fallbackMs);
}
