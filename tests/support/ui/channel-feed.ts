import type { Page, WebSocketRoute } from 'playwright-core';
import { expect } from 'vitest';

// One kind of the page's Realtime channels, routed through the test so the feed built on it can be
// held and seen: the server's answer to the newest join of a channel whose topic starts with the
// given prefix waits until a step lets it go (SUBSCRIBED), every change the server pushes on such a
// channel waits until a step delivers it, and a step can cut the socket as a stopped server does
// (CHANNEL_ERROR). The page's other channels pass untouched. Nothing is sent on the server's
// behalf: what reaches the page is what the local stack said. feed-socket.ts names the
// notifications feed's channel.

/** A postgres_changes frame the server pushed on one of the channels, not yet delivered. */
export type PushedChange = {
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  /** The table it is about. */
  table: string;
  /** The id of the row it is about. */
  rowId: string;
  deliver(): void;
};

export type ChannelFeedRoute = {
  /** A channel asked to join on the open socket and the server's answer is held. */
  joinWaiting(): boolean;
  /** The newest join was answered (and let through) on a socket that is still open. */
  joined(): boolean;
  /** Lets the answer to the newest join through (with what the server said after it), once it came. */
  releaseJoin(): Promise<void>;
  /** Closes the socket on both sides, as a server that stops does. */
  drop(): Promise<void>;
  /** The changes pushed on the open socket and not delivered, oldest first. */
  pending(): PushedChange[];
};

type Frame = { ref: string | null; topic: string; event: string; payload: Record<string, unknown> };

/** A vsn 2.0.0 text frame `[join_ref, ref, topic, event, payload]` (or 1.0.0's object form). */
function parse(message: string | Buffer): Frame | null {
  const text = typeof message === 'string' ? message : message.toString('utf8');
  try {
    const data: unknown = JSON.parse(text);
    const [, ref, topic, event, payload] = Array.isArray(data)
      ? data
      : [null, ...['ref', 'topic', 'event', 'payload'].map((key) => (data as Record<string, unknown>)[key])];
    if (typeof topic !== 'string' || typeof event !== 'string') return null;
    return {
      ref: typeof ref === 'string' ? ref : null,
      topic,
      event,
      payload: (payload ?? {}) as Record<string, unknown>,
    };
  } catch {
    return null;
  }
}

type Socket = {
  page: WebSocketRoute;
  server: WebSocketRoute;
  open: boolean;
  /** The newest join of one of the channels on this socket, and whether its answer went through. */
  join: { topic: string; ref: string | null; answered: boolean } | null;
  /** The held answer to the join and what followed it on that topic; null once let through. */
  held: (string | Buffer)[] | null;
  changes: PushedChange[];
};

/**
 * Routes every WebSocket the page opens (Realtime's is its only one) and holds the channels whose
 * topic starts with `topicPrefix` (e.g. 'realtime:bots:'). Playwright replaces the page's WebSocket
 * only in documents loaded after this: reload the page before it signs in.
 */
export async function routeChannelFeed(page: Page, topicPrefix: string): Promise<ChannelFeedRoute> {
  const sockets: Socket[] = [];
  const newest = () => sockets.at(-1);
  const ours = (topic: string) => topic.startsWith(topicPrefix);

  // Playwright routes Realtime's socket only with a matcher that takes every URL (faults.e2e).
  await page.routeWebSocket(
    () => true,
    (ws) => {
      const server = ws.connectToServer();
      const socket: Socket = { page: ws, server, open: true, join: null, held: null, changes: [] };
      sockets.push(socket);
      ws.onMessage((message) => {
        const frame = parse(message);
        if (frame?.event === 'phx_join' && ours(frame.topic)) {
          socket.join = { topic: frame.topic, ref: frame.ref, answered: false };
          socket.held = null;
        }
        if (frame?.event === 'phx_leave' && frame.topic === socket.join?.topic) socket.join = null;
        server.send(message);
      });
      server.onMessage((message) => {
        const frame = parse(message);
        if (frame && ours(frame.topic) && frame.event === 'postgres_changes') {
          const data = (frame.payload['data'] ?? {}) as Record<string, unknown>;
          const row = (data['type'] === 'DELETE' ? data['old_record'] : data['record']) as
            Record<string, unknown> | undefined;
          const change: PushedChange = {
            type: data['type'] as PushedChange['type'],
            table: String(data['table'] ?? ''),
            rowId: String(row?.['id'] ?? ''),
            deliver: () => {
              socket.changes.splice(socket.changes.indexOf(change), 1);
              if (socket.open) ws.send(message);
            },
          };
          socket.changes.push(change);
          return;
        }
        const join = socket.join;
        if (frame?.event === 'phx_reply' && join && frame.topic === join.topic && frame.ref === join.ref) {
          socket.held = [message];
          return;
        }
        if (socket.held && frame?.topic === join?.topic) socket.held.push(message);
        else ws.send(message);
      });
      const closed = () => {
        socket.open = false;
        socket.changes.length = 0;
      };
      ws.onClose((code, reason) => {
        closed();
        server.close({ code, reason }).catch(() => undefined);
      });
      server.onClose((code, reason) => {
        closed();
        ws.close({ code, reason }).catch(() => undefined);
      });
    },
  );

  return {
    joinWaiting: () => {
      const socket = newest();
      return !!socket?.open && socket.join !== null && !socket.join.answered;
    },
    joined: () => {
      const socket = newest();
      return !!socket?.open && !!socket.join?.answered;
    },
    releaseJoin: async () => {
      await expect
        .poll(() => newest()?.held?.length ?? 0, {
          message: `the server's answer to the join of ${topicPrefix}`,
        })
        .toBeGreaterThan(0);
      const socket = newest();
      if (!socket?.join || !socket.held) throw new Error(`no held answer to the join of ${topicPrefix}`);
      socket.join.answered = true;
      for (const message of socket.held) socket.page.send(message);
      socket.held = null;
    },
    drop: async () => {
      const socket = newest();
      if (!socket?.open) throw new Error('the page has no open Realtime socket to drop');
      socket.open = false;
      socket.changes.length = 0;
      // Closing one side closes the other (above); whichever comes second finds it closed.
      await socket.server.close({ code: 1011, reason: 'server stopped' }).catch(() => undefined);
      await socket.page.close({ code: 1006, reason: 'server stopped' }).catch(() => undefined);
    },
    pending: () => sockets.filter((socket) => socket.open).flatMap((socket) => socket.changes.slice()),
  };
}
