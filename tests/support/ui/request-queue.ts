import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';

// Every request of one kind held on its way to the local stack, for as long as
// a path runs: a machine that reads again before the last answer came (a fetch
// restarted by a change) never gets an answer the path did not let go. Like
// hold.ts, nothing is answered on the stack's behalf: a held request reaches
// the real gateway, or fails as it would against a stopped server.

export type HeldRequests = {
  /** How many are held now. */
  count(): number;
  /** How many the page has sent so far, held or settled. */
  sent(): number;
  /** Waits until at least one is held. */
  arrived(): Promise<void>;
  /** Lets the oldest held request go on to the stack. */
  releaseOldest(): Promise<void>;
  /** Fails the oldest held request as a stopped server would (connection refused). */
  failOldest(): Promise<void>;
  releaseAll(): Promise<void>;
  failAll(): Promise<void>;
};

/** Holds every request of the page to a URL `matches` accepts, with this method, until a step settles it. */
export async function holdEvery(
  page: Page,
  matches: (url: URL) => boolean,
  method: string,
): Promise<HeldRequests> {
  const held: Route[] = [];
  let sent = 0;
  await page.route(matches, async (route) => {
    if (route.request().method() !== method) {
      await route.fallback();
      return;
    }
    sent += 1;
    held.push(route);
  });
  const oldest = async () => {
    await expect.poll(() => held.length, { message: `a held ${method} request` }).toBeGreaterThan(0);
    const route = held.shift();
    if (!route) throw new Error(`no ${method} request is held`);
    return route;
  };
  const release = (route: Route) => route.fallback();
  const fail = (route: Route) => route.abort('connectionrefused');
  return {
    count: () => held.length,
    sent: () => sent,
    arrived: () => expect.poll(() => held.length).toBeGreaterThan(0),
    releaseOldest: async () => release(await oldest()),
    failOldest: async () => fail(await oldest()),
    releaseAll: async () => {
      await Promise.all(held.splice(0).map(release));
    },
    failAll: async () => {
      await Promise.all(held.splice(0).map(fail));
    },
  };
}

/** A REST table of the local stack, as the page's supabase-js addresses it. */
export const restTable = (gatewayUrl: string, table: string) => (url: URL) =>
  url.href.startsWith(`${gatewayUrl}/rest/v1/${table}`);
