import type { Page, Request } from 'playwright-core';
import { e2e } from '../e2e/context.ts';
import { isHeld } from './stack-requests.ts';

// What the page has asked the chain's node and not had answered yet, and its latest calls.
// `settle` (trading-tab.ts) moves the page's paused clock only once every call the page made is
// answered or held on purpose: the page's timers (batch flushes, polls, back-offs) would otherwise
// outrun a node that answers slowly on a busy machine. The latest calls go into a failure's message.

/** How long the node may take to answer one of the page's calls before a step gives up. */
const ANSWER_LIMIT_MS = 30_000;
/** How often the wait looks again (real time; the page's clock is paused meanwhile). */
const LOOK_EVERY_MS = 10;
const LINES_KEPT = 24;

type Traffic = { lines: string[]; open: Set<Request> };
const traffics = new WeakMap<Page, Traffic>();

const methodsOf = (request: Request) => {
  try {
    const body: unknown = request.postDataJSON();
    const calls = (Array.isArray(body) ? body : [body]) as { method?: unknown }[];
    return calls.map((call) => String(call.method)).join(',');
  } catch {
    return '?';
  }
};

/** Starts keeping the page's calls to the node: call once, right after the page opens. */
export function recordNodeTraffic(page: Page): void {
  const { rpcUrl } = e2e().chain;
  const traffic: Traffic = { lines: [], open: new Set() };
  traffics.set(page, traffic);
  const add = (line: string) => {
    traffic.lines.push(line);
    if (traffic.lines.length > LINES_KEPT) traffic.lines.shift();
  };
  const ours = (request: Request) => request.url().startsWith(rpcUrl);
  page.on('request', (request) => {
    if (!ours(request)) return;
    traffic.open.add(request);
    add(`sent ${methodsOf(request)}`);
  });
  page.on('requestfailed', (request) => {
    if (!ours(request)) return;
    traffic.open.delete(request);
    add(`failed ${methodsOf(request)}: ${request.failure()?.errorText ?? ''}`);
  });
  page.on('requestfinished', (request) => {
    if (!ours(request)) return;
    traffic.open.delete(request);
    void request
      .response()
      .then((response) => response?.text())
      .then((text) => add(`answered ${methodsOf(request)}: ${(text ?? '').slice(0, 200)}`))
      .catch(() => add(`answered ${methodsOf(request)}`));
  });
}

/** The page's latest calls to the node and their answers (their first characters), oldest first. */
export function nodeTrafficOf(page: Page): string[] {
  return traffics.get(page)?.lines.slice() ?? [];
}

const unanswered = (traffic: Traffic) => [...traffic.open].filter((request) => !isHeld(request));

/** Waits (real time) until the node has answered every call of the page that is not held on purpose. */
export async function untilNodeAnswered(page: Page): Promise<void> {
  const traffic = traffics.get(page);
  if (!traffic) return;
  const since = Date.now();
  while (unanswered(traffic).length > 0) {
    if (Date.now() - since > ANSWER_LIMIT_MS) {
      const calls = unanswered(traffic).map(methodsOf).join('; ');
      throw new Error(`the node did not answer the page's calls within ${ANSWER_LIMIT_MS} ms: ${calls}`);
    }
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}
