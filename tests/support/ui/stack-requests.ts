import type { Page, Request, Route } from 'playwright-core';

// The page's requests to the local stack or the chain's node, held so the state that waits on
// them can be seen, then let go to the real server, failed as a stopped server fails them, or
// failed from then on (the server stays down). Nothing is answered on the server's behalf.
//
// hold.ts holds one request; a gate holds every matching request while it is closed and can stay
// failed (a server that is down for good). Like there, a held request is settled before its route
// is removed: removing the page's last route turns interception off, and Chromium then sends every
// paused request on by itself.

export type RequestGate = {
  /** Resolves once the first matching request is held. */
  arrived: Promise<void>;
  /** How many matching requests are held now. */
  held(): number;
  /** Lets every held request go on to the server and stops holding. */
  release(): Promise<void>;
  /** Fails every held request (connection refused) and stops holding: the server came back. */
  fail(): Promise<void>;
  /** Fails every held request and every later matching one: the server is down for good. */
  stop(): Promise<void>;
};

export type GateOptions = {
  /** Which requests the gate is for (besides the URL), e.g. a JSON-RPC method or an HTTP method. */
  matches?: (request: Request) => boolean;
  /** Hold every matching request, not only the first (a node polled again and again). */
  all?: boolean;
};

/** The requests some gate holds now: a wait for the page's calls to be answered leaves them out. */
const heldNow = new WeakSet<Request>();

/** Whether a gate holds this request now (it is not answered until a step lets it go). */
export const isHeld = (request: Request): boolean => heldNow.has(request);

/** Starts holding requests to URLs that `url` accepts. Call before the action that sends them. */
export async function gateRequests(
  page: Page,
  url: (url: URL) => boolean,
  options: GateOptions = {},
): Promise<RequestGate> {
  const held: Route[] = [];
  let mode: 'hold' | 'pass' | 'fail' = 'hold';
  let taken = 0;
  let markArrived = () => {};
  const arrived = new Promise<void>((resolve) => {
    markArrived = resolve;
  });
  const handler = async (route: Route) => {
    const wanted = options.matches?.(route.request()) ?? true;
    if (!wanted || mode === 'pass' || (mode === 'hold' && !options.all && taken > 0)) {
      await route.fallback();
      return;
    }
    if (mode === 'fail') {
      await route.abort('connectionrefused').catch(() => undefined);
      return;
    }
    taken += 1;
    heldNow.add(route.request());
    held.push(route);
    markArrived();
  };
  await page.route(url, handler);
  const settle = async (how: (route: Route) => Promise<void>, next: 'pass' | 'fail') => {
    mode = next;
    // A request the page gave up meanwhile (its own timeout) is already settled.
    await Promise.all(
      held.splice(0).map((route) => {
        heldNow.delete(route.request());
        return how(route).catch(() => undefined);
      }),
    );
    if (next === 'pass') await page.unroute(url, handler);
  };
  return {
    arrived,
    held: () => held.length,
    release: () => settle((route) => route.fallback(), 'pass'),
    fail: async () => {
      await settle((route) => route.abort('connectionrefused'), 'pass');
    },
    stop: () => settle((route) => route.abort('connectionrefused'), 'fail'),
  };
}

/** The JSON-RPC method of a request to the node (one call per request: viem does not batch here). */
export function rpcMethod(request: Request): string | null {
  try {
    const body = request.postDataJSON() as { method?: unknown } | null;
    return typeof body?.method === 'string' ? body.method : null;
  } catch {
    return null;
  }
}

/** Requests to this origin and path prefix (e.g. a gateway's `/functions/v1/link-wallet`). */
export function under(base: string): (url: URL) => boolean {
  return (url) => url.href === base || url.href.startsWith(`${base}/`) || url.href.startsWith(`${base}?`);
}
