import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

// The load stack's record of what the Tatum emulator delivered to market-bots. The emulator's own
// books (_tatum.deliveries) say when a delivery was owed and when it was answered, and how many
// attempts it took, but not how long each request took or what the function answered. So, in the
// stack process only, the requests the dispatcher makes to that one URL are timed from the outside
// of the dispatcher, as a proxy in front of the function would time them, and their Server-Timing
// header and answer are kept; nothing about the request or the answer is changed. The load script
// reads both over a small HTTP server on 127.0.0.1:
//   GET /deliveries  what the tap saw, in order (memory only, cheap to poll)
//   GET /books       the emulator's rows for that URL (one query)

export type TappedDelivery = {
  txId: string | null;
  /** Which leg of its transaction the body is (legOf). */
  leg: string | null;
  /** Epoch milliseconds when the request started, and how long until its answer was read. */
  startedAt: number;
  ms: number;
  status: number | null;
  serverTiming: string | null;
  fired: number | null;
  error: string | null;
};

export type BookedDelivery = {
  txId: string | null;
  leg: string | null;
  attempts: number;
  delivered: boolean;
  /** Epoch milliseconds. */
  owedAt: number;
  deliveredAt: number | null;
};

type EventFields = { txId?: unknown; asset?: unknown; amount?: unknown };

function parsed(body: unknown): EventFields | null {
  try {
    const fields: unknown = JSON.parse(String(body));
    return typeof fields === 'object' && fields !== null ? (fields as EventFields) : null;
  } catch {
    return null;
  }
}

/**
 * Which leg of its transaction an address event is: its transaction, token and signed amount.
 * Tatum's documented body names no log, so that is what tells a swap's two legs apart (and the
 * bench's own copies from the emulator's). null for a body that is no address event.
 */
export function legOf(body: unknown): string | null {
  const fields = parsed(body);
  const { txId, asset, amount } = fields ?? {};
  if (typeof txId !== 'string' || typeof asset !== 'string' || typeof amount !== 'string') return null;
  return `${txId.toLowerCase()}:${asset.toLowerCase()}:${amount}`;
}

function eventOf(body: unknown): { txId: string | null; leg: string | null } {
  const txId = parsed(body)?.txId;
  return { txId: typeof txId === 'string' ? txId.toLowerCase() : null, leg: legOf(body) };
}

/** Times every POST to `url` made through this process's fetch; returns what it saw so far. */
function tapFetch(url: string): TappedDelivery[] {
  const seen: TappedDelivery[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    if (input !== url || init?.method !== 'POST') return original(input, init);
    const entry: TappedDelivery = {
      ...eventOf(init.body),
      startedAt: Date.now(),
      ms: 0,
      status: null,
      serverTiming: null,
      fired: null,
      error: null,
    };
    const started = performance.now();
    try {
      const response = await original(input, init);
      const text = await response.clone().text();
      entry.ms = performance.now() - started;
      entry.status = response.status;
      entry.serverTiming = response.headers.get('server-timing');
      try {
        const fired = (JSON.parse(text) as { fired?: unknown }).fired;
        entry.fired = typeof fired === 'number' ? fired : null;
      } catch {
        entry.fired = null;
      }
      return response;
    } catch (error) {
      entry.ms = performance.now() - started;
      entry.error = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      seen.push(entry);
    }
  };
  return seen;
}

/** Taps deliveries to `url` and serves what was seen; resolves with the server's base URL. */
export async function startMarketTap(
  pg: PGlite,
  url: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const seen = tapFetch(url);
  const books = async (): Promise<BookedDelivery[]> => {
    const { rows } = await pg.query<{
      body: string;
      attempts: number;
      delivered: boolean;
      owed_at: number;
      delivered_at: number | null;
    }>(
      `select body, attempts, delivered_at is not null as delivered,
              (extract(epoch from created_at) * 1000)::float8 as owed_at,
              (extract(epoch from delivered_at) * 1000)::float8 as delivered_at
         from _tatum.deliveries where url = $1 order by id`,
      [url],
    );
    return rows.map((row) => ({
      ...eventOf(row.body),
      attempts: row.attempts,
      delivered: row.delivered,
      owedAt: row.owed_at,
      deliveredAt: row.delivered_at,
    }));
  };
  const server: Server = createServer((request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url === '/deliveries') return answer(200, seen);
    if (request.method === 'GET' && request.url === '/books') {
      books().then(
        (rows) => answer(200, rows),
        (error: unknown) => answer(500, { error: String(error) }),
      );
      return;
    }
    answer(404, { error: 'not found' });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
