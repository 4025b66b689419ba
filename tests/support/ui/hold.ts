import type { Page, Route } from 'playwright-core';

// Holding one request of the page on its way to the local stack, so the state
// that waits for it can be seen, and then letting it go on (the real answer)
// or failing it the way a stopped server does. Nothing is answered on the
// stack's behalf: a held request either reaches the real gateway or never
// arrives anywhere.

export type HeldRequest = {
  /** Resolves once the page has sent the request (and it is held). */
  arrived: Promise<void>;
  /** Lets the request go on to the stack; the page gets the real answer. */
  release(): Promise<void>;
  /** Fails the request as a stopped server would (connection refused). */
  fail(): Promise<void>;
};

/**
 * Holds the next request whose URL matches (and, if given, whose method is `method`); other requests
 * pass untouched. Call before the action that makes the request.
 */
export async function holdNextRequest(
  page: Page,
  url: string | RegExp,
  method?: string,
): Promise<HeldRequest> {
  let held: Route | null = null;
  let markArrived = () => {};
  const arrived = new Promise<void>((resolve) => {
    markArrived = resolve;
  });
  const handler = async (route: Route) => {
    if (held || (method && route.request().method() !== method)) {
      await route.fallback();
      return;
    }
    held = route;
    markArrived();
  };
  await page.route(url, handler);
  const settle = async (how: (route: Route) => Promise<void>) => {
    await arrived;
    // Settled before the route goes: unrouting first would let Playwright send it on by itself.
    if (held) await how(held);
    await page.unroute(url, handler);
  };
  return {
    arrived,
    release: () => settle((route) => route.fallback()),
    fail: () => settle((route) => route.abort('connectionrefused')),
  };
}
