import type { Page, Request, Route } from 'playwright-core';
import { e2e } from '../e2e/context.ts';

// The page's requests to the stack and to the chain's node, held so the state
// that waits for them can be seen, then let go (the real answer), failed the
// way a stopped server fails them, or delivered with their answer lost on the
// way back. Nothing is answered on the server's behalf. Unlike hold.ts this
// matches on the request itself (a JSON-RPC method is in the body), and the
// route is removed only after the held request is settled: removing the last
// route of a page first lets Playwright continue the requests it still holds.

export type HeldCall = {
  /** Resolves once the page has sent the request (and it is held); fails if it takes too long. */
  arrival(): Promise<void>;
  /** Lets the request go on; the page gets the server's answer. */
  release(): Promise<void>;
  /** Fails the request as a stopped server does (connection refused). */
  fail(): Promise<void>;
  /** The server gets the request and acts on it; its answer never reaches the page. */
  loseAnswer(): Promise<void>;
  /** The held request's JSON body (null before it arrived). */
  body(): unknown;
};

type UrlMatch = string | RegExp | ((url: URL) => boolean);

/** How long a held request may take to arrive before the step fails with its name. */
const ARRIVAL_MS = 30_000;

/** Holds the next request matching `url` that `accept` takes; the others pass untouched. */
export async function holdNext(
  page: Page,
  url: UrlMatch,
  what: string,
  accept: (request: Request) => boolean = () => true,
): Promise<HeldCall> {
  let held: Route | null = null;
  let markArrived = () => {};
  const arrived = new Promise<void>((resolve) => {
    markArrived = resolve;
  });
  const handler = async (route: Route) => {
    if (held || !accept(route.request())) {
      await route.fallback();
      return;
    }
    held = route;
    markArrived();
  };
  await page.route(url, handler);
  const arrival = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the page never sent ${what}`)), ARRIVAL_MS);
    });
    try {
      await Promise.race([arrived, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  const settle = async (how: (route: Route) => Promise<void>) => {
    try {
      await arrival();
      if (held) await how(held);
    } finally {
      await page.unroute(url, handler);
    }
  };
  return {
    arrival,
    body: () => (held as Route | null)?.request().postDataJSON() ?? null,
    release: () => settle((route) => route.fallback()),
    fail: () => settle((route) => route.abort('connectionrefused')),
    loseAnswer: () =>
      settle(async (route) => {
        await route.fetch();
        await route.abort('failed');
      }),
  };
}

/** A request of the page to the chain's node. */
const toNode = (url: URL) => url.href.startsWith(e2e().chain.rpcUrl);

/** The JSON-RPC method of a request to the node (viem sends one call per request here). */
export function rpcMethod(request: Request): string | null {
  if (request.method() !== 'POST') return null;
  const body: unknown = request.postDataJSON();
  return typeof body === 'object' && body !== null && 'method' in body ? String(body.method) : null;
}

/** Holds the page's next call of this JSON-RPC method (or of any) to the chain's node. */
export function holdNextRpc(page: Page, method?: string): Promise<HeldCall> {
  return holdNext(page, toNode, method ? `the node call ${method}` : 'a call to the node', (request) =>
    method ? rpcMethod(request) === method : request.method() === 'POST',
  );
}

/** The page's node stops answering (connection refused) until `start()`. */
export async function stopNode(page: Page): Promise<{ start(): Promise<void> }> {
  const refuse = (route: Route) => route.abort('connectionrefused');
  await page.route(toNode, refuse);
  return { start: () => page.unroute(toNode, refuse) };
}

/**
 * The node takes the page's next call of `method` and answers it; right after, it stops answering
 * (connection refused) until `start()`.
 */
export async function stopNodeAfter(page: Page, method: string): Promise<{ start(): Promise<void> }> {
  let stopped = false;
  const handler = async (route: Route) => {
    if (stopped) {
      await route.abort('connectionrefused');
    } else if (rpcMethod(route.request()) === method) {
      const response = await route.fetch();
      stopped = true;
      await route.fulfill({ response });
    } else {
      await route.fallback();
    }
  };
  await page.route(toNode, handler);
  return { start: () => page.unroute(toNode, handler) };
}
