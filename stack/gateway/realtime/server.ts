import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { WebSocketServer, type WebSocket } from 'ws';
import { ClaimsError, type Claims, type ClaimsResolver } from '../claims.ts';
import type { Change, ChangeFeed } from './feed.ts';
import { matchesFilter, parseFilter, type RowFilter } from './filters.ts';
import { EXP_REQUIRED, expiredMessage, expiresAt, isExpired, RECHECK_MS } from './expiry.ts';
import { shareChecks, socketRefusal } from './admission.ts';
import {
  checkLimitReached,
  DEFAULT_REALTIME_LIMITS,
  MAX_BINDINGS_PER_SOCKET,
  MAX_BUFFERED_BYTES,
  MAX_CHANNELS_PER_SOCKET,
  MAX_PENDING_FRAMES,
  SLOW_CONSUMER,
  TOO_MANY_BINDINGS,
  TOO_MANY_CHANNELS,
  type RealtimeLimits,
} from './limits.ts';
import { decode, encode, encodeWithPayload, parseVsn, type PhxMessage, type Vsn } from './protocol.ts';
import { createTableInfo, identityKey, visibilityOf } from './visibility.ts';

// The Realtime endpoint for postgres_changes: Phoenix channels over a
// websocket at /realtime/v1/websocket, fed by the change queue, delivering a
// row only to subscribers whose claims let them select it, for as long as
// their token lasts. One socket's channels, bindings and unsent bytes are
// bounded, and so are the sockets per address, per key and in all and the RLS
// checks of one change (limits.ts, admission.ts), so one client cannot hold up
// everyone else's changes.

const PATH = '/realtime/v1/websocket';
const MAX_FRAME_BYTES = 1024 * 1024;

type Binding = {
  id: number;
  event: string;
  schema: string;
  table: string | undefined;
  filterText: string | undefined;
  filter: RowFilter | null;
};

type Identity = { token: string | null; claims: Claims; expiresAt: number | null };

/** A channel some of whose bindings match a change. */
type Target = { connection: Connection; channel: Channel; identity: Identity; ids: number[] };

type Channel = {
  topic: string;
  joinRef: string | null;
  identity: Identity;
  bindings: Binding[];
  /** The next look at the token's expiry. */
  timer: NodeJS.Timeout | null;
};

type Connection = {
  socket: WebSocket;
  vsn: Vsn;
  apikey: string;
  /** The peer's address, as the socket-per-address cap counts it. */
  address: string;
  channels: Map<string, Channel>;
  /** Frames received and not handled yet. */
  pending: number;
  /** Dropped for reading too slowly: nothing more is sent. */
  dropped: boolean;
};

export type RealtimeServer = { close(): Promise<void>; connectionCount(): number };

export function attachRealtime(deps: {
  server: Server;
  pg: PGlite;
  feed: ChangeFeed;
  resolveClaims: ClaimsResolver;
  limits?: Partial<RealtimeLimits>;
}): RealtimeServer {
  const { server, pg, feed, resolveClaims } = deps;
  const limits: RealtimeLimits = { ...DEFAULT_REALTIME_LIMITS, ...deps.limits };
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const connections = new Set<Connection>();
  const tableInfo = createTableInfo(pg);
  let nextBindingId = 1;

  const published = async (schema: string, table: string | undefined): Promise<boolean> => {
    const result = await pg.query(
      `select 1 from pg_publication_tables
        where pubname = 'supabase_realtime' and schemaname = $1 and ($2::text is null or tablename = $2)`,
      [schema, table ?? null],
    );
    return result.rows.length > 0;
  };

  const sendText = (connection: Connection, text: string) => {
    const { socket } = connection;
    if (connection.dropped || socket.readyState !== socket.OPEN) return;
    socket.send(text);
    // What the kernel would not take waits in the process: past the limit the client is not
    // reading, and is dropped rather than buffered for without end.
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      connection.dropped = true;
      forget(connection);
      socket.close(SLOW_CONSUMER.code, SLOW_CONSUMER.reason);
    }
  };

  const send = (connection: Connection, message: PhxMessage) =>
    sendText(connection, encode(connection.vsn, message));

  const reply = (connection: Connection, request: PhxMessage, status: 'ok' | 'error', response: object) =>
    send(connection, {
      joinRef: request.joinRef,
      ref: request.ref,
      topic: request.topic,
      event: 'phx_reply',
      payload: { status, response },
    });

  /** The socket is gone or dropped: its channels' timers go with it. */
  function forget(connection: Connection) {
    // Frames already queued are still handled: a join or refresh among them must add no channel
    // and no timer to a socket that is gone.
    connection.dropped = true;
    connections.delete(connection);
    for (const channel of connection.channels.values()) stopWatching(channel);
  }

  async function identityFor(connection: Connection, token: unknown): Promise<Identity> {
    const bearer = typeof token === 'string' && token !== '' ? token : null;
    const claims = await resolveClaims(connection.apikey, bearer);
    const expiry = expiresAt(claims);
    // A user token (not the project's key) must end some time.
    if (bearer !== null && bearer !== connection.apikey && expiry === null)
      throw new ClaimsError(EXP_REQUIRED);
    return { token: bearer, claims, expiresAt: expiry };
  }

  function stopWatching(channel: Channel) {
    if (channel.timer) clearTimeout(channel.timer);
    channel.timer = null;
  }

  /** Looks again when the token expires (or in five minutes, whichever is first). */
  function watchExpiry(connection: Connection, channel: Channel) {
    stopWatching(channel);
    const expiry = channel.identity.expiresAt;
    if (expiry === null) return;
    const delay = Math.max(0, Math.min(expiry - Date.now(), RECHECK_MS));
    channel.timer = setTimeout(() => {
      channel.timer = null;
      if (connection.channels.get(channel.topic) !== channel) return;
      if (isExpired(expiry)) shutDown(connection, channel, expiredMessage(expiry));
      else watchExpiry(connection, channel);
    }, delay);
    channel.timer.unref();
  }

  /** As hosted Realtime ends a channel: a system error saying why, then phx_close. */
  function shutDown(connection: Connection, channel: Channel, reason: string) {
    stopWatching(channel);
    if (connection.channels.get(channel.topic) === channel) connection.channels.delete(channel.topic);
    send(connection, {
      joinRef: channel.joinRef,
      ref: null,
      topic: channel.topic,
      event: 'system',
      payload: {
        extension: 'system',
        status: 'error',
        message: reason,
        channel: channel.topic.slice('realtime:'.length),
      },
    });
    send(connection, {
      joinRef: channel.joinRef,
      ref: channel.joinRef,
      topic: channel.topic,
      event: 'phx_close',
      payload: {},
    });
  }

  const bindingCount = (connection: Connection, except: string) =>
    [...connection.channels.values()].reduce(
      (sum, channel) => sum + (channel.topic === except ? 0 : channel.bindings.length),
      0,
    );

  async function join(connection: Connection, message: PhxMessage) {
    if (!message.topic.startsWith('realtime:')) {
      return reply(connection, message, 'error', { reason: 'topics must start with "realtime:"' });
    }
    // Joining a topic again replaces its channel, so it takes no new place.
    const replaced = connection.channels.get(message.topic);
    if (!replaced && connection.channels.size >= MAX_CHANNELS_PER_SOCKET) {
      return reply(connection, message, 'error', { reason: TOO_MANY_CHANNELS });
    }
    const config = message.payload['config'];
    const requested =
      typeof config === 'object' && config !== null
        ? (config as Record<string, unknown>)['postgres_changes']
        : [];
    if (requested !== undefined && !Array.isArray(requested)) {
      return reply(connection, message, 'error', { reason: 'config.postgres_changes must be a list' });
    }
    // Counted before any of them costs a query.
    if (bindingCount(connection, message.topic) + (requested?.length ?? 0) > MAX_BINDINGS_PER_SOCKET) {
      return reply(connection, message, 'error', { reason: TOO_MANY_BINDINGS });
    }
    let identity: Identity;
    try {
      identity = await identityFor(connection, message.payload['access_token']);
    } catch (error) {
      const reason = error instanceof ClaimsError ? error.message : 'Invalid token';
      return reply(connection, message, 'error', { reason });
    }
    const bindings: Binding[] = [];
    const publishedMemo = new Map<string, Promise<boolean>>();
    for (const entry of requested ?? []) {
      const binding = await toBinding(entry, publishedMemo);
      if (typeof binding === 'string') return reply(connection, message, 'error', { reason: binding });
      bindings.push(binding);
    }
    if (replaced) stopWatching(replaced);
    const channel: Channel = {
      topic: message.topic,
      joinRef: message.joinRef,
      identity,
      bindings,
      timer: null,
    };
    if (connection.dropped) return;
    connection.channels.set(message.topic, channel);
    watchExpiry(connection, channel);
    reply(connection, message, 'ok', {
      postgres_changes: bindings.map((b) => ({
        id: b.id,
        event: b.event,
        schema: b.schema,
        ...(b.table === undefined ? {} : { table: b.table }),
        ...(b.filterText === undefined ? {} : { filter: b.filterText }),
      })),
    });
    if (bindings.length > 0) {
      send(connection, {
        joinRef: message.joinRef,
        ref: null,
        topic: message.topic,
        event: 'system',
        payload: {
          extension: 'postgres_changes',
          status: 'ok',
          message: 'Subscribed to PostgreSQL',
          channel: message.topic.slice('realtime:'.length),
        },
      });
    }
  }

  /** A channel's token refresh, as supabase-js sends it on setAuth and on every token refresh. */
  async function refresh(connection: Connection, channel: Channel, token: unknown) {
    // As hosted Realtime: no token, or the one the channel has, changes nothing, and gets no reply.
    if (typeof token !== 'string' || token === '' || token === channel.identity.token) return;
    let identity: Identity;
    try {
      identity = await identityFor(connection, token);
    } catch (error) {
      if (connection.channels.get(channel.topic) !== channel) return;
      const reason = error instanceof Error ? error.message : 'invalid';
      return shutDown(connection, channel, `Access token refused: ${reason}`);
    }
    if (connection.dropped || connection.channels.get(channel.topic) !== channel) return;
    channel.identity = identity;
    watchExpiry(connection, channel);
  }

  async function toBinding(entry: unknown, memo: Map<string, Promise<boolean>>): Promise<Binding | string> {
    if (typeof entry !== 'object' || entry === null) return 'each postgres_changes entry must be an object';
    const e = entry as Record<string, unknown>;
    const event = e['event'];
    const schema = e['schema'];
    const table = e['table'];
    const filterText = e['filter'];
    if (typeof event !== 'string' || !['*', 'INSERT', 'UPDATE', 'DELETE'].includes(event)) {
      return 'event must be one of *, INSERT, UPDATE, DELETE';
    }
    if (typeof schema !== 'string' || schema === '') return 'schema is required';
    if (table !== undefined && table !== '*' && typeof table !== 'string') return 'table must be a string';
    if (filterText !== undefined && typeof filterText !== 'string') return 'filter must be a string';
    const filter = parseFilter(filterText);
    if (typeof filter === 'string') return filter;
    const tableName = table === undefined || table === '*' ? undefined : (table as string);
    const key = JSON.stringify([schema, tableName ?? null]);
    let isPublished = memo.get(key);
    if (!isPublished) {
      isPublished = published(schema, tableName);
      memo.set(key, isPublished);
    }
    if (!(await isPublished)) {
      return `${schema}.${tableName ?? '*'} is not in the supabase_realtime publication`;
    }
    return { id: nextBindingId++, event, schema, table: table as string | undefined, filterText, filter };
  }

  async function onFrame(connection: Connection, text: string) {
    const decoded = decode(connection.vsn, text);
    if (!decoded.ok) {
      send(connection, {
        joinRef: null,
        ref: decoded.ref,
        topic: 'phoenix',
        event: 'phx_reply',
        payload: { status: 'error', response: { reason: decoded.reason } },
      });
      return;
    }
    const message = decoded.message;
    if (message.topic === 'phoenix' && message.event === 'heartbeat')
      return reply(connection, message, 'ok', {});
    if (message.event === 'phx_join') return join(connection, message);
    const channel = connection.channels.get(message.topic);
    if (!channel) return reply(connection, message, 'error', { reason: 'unmatched topic' });
    if (message.event === 'phx_leave') {
      stopWatching(channel);
      connection.channels.delete(message.topic);
      return reply(connection, message, 'ok', {});
    }
    if (message.event === 'access_token')
      return refresh(connection, channel, message.payload['access_token']);
    // Broadcast and presence are not served locally; acknowledge so clients
    // waiting for a reply are not left hanging.
    if (message.ref !== null) reply(connection, message, 'ok', {});
  }

  async function deliver(change: Change) {
    const row = change.type === 'DELETE' ? change.oldRecord : change.record;
    // Who wants the change, before any database work, socket by socket.
    const bySocket: Target[][] = [];
    for (const connection of connections) {
      const wanting: Target[] = [];
      bySocket.push(wanting);
      for (const channel of connection.channels.values()) {
        // A token may expire before its timer runs (a busy event loop): it never gets another row.
        const expiry = channel.identity.expiresAt;
        if (expiry !== null && isExpired(expiry)) {
          shutDown(connection, channel, expiredMessage(expiry));
          continue;
        }
        const ids = channel.bindings
          .filter(
            (b) =>
              b.schema === change.schema &&
              (b.table === undefined || b.table === '*' || b.table === change.table) &&
              (b.event === '*' || b.event === change.type) &&
              matchesFilter(b.filter, row),
          )
          .map((b) => b.id);
        if (ids.length > 0) wanting.push({ connection, channel, identity: channel.identity, ids });
      }
    }
    const { checked: targets, over } = shareChecks(
      bySocket,
      ({ identity }) => (identity.claims.role === 'service_role' ? null : identityKey(identity.claims)),
      limits.checksPerChange,
    );
    // Past the budget a channel would silently miss the change: it is closed, saying why.
    for (const { connection, channel } of over) {
      shutDown(connection, channel, checkLimitReached(limits.checksPerChange));
    }
    if (targets.length === 0) return;
    const info = await tableInfo(change.schema, change.table);
    const visible = visibilityOf(pg, change, info);
    // The row is serialized once for every channel that gets it.
    const data = JSON.stringify({
      schema: change.schema,
      table: change.table,
      commit_timestamp: change.commitTimestamp,
      type: change.type,
      columns: info.columns,
      record: change.record ?? {},
      old_record: change.oldRecord ?? {},
      errors: null,
    });
    for (const { connection, channel, identity, ids } of targets) {
      if (!(await visible(identity.claims))) continue;
      // While the checks ran the channel may have left, expired or taken another token.
      if (connection.channels.get(channel.topic) !== channel || channel.identity !== identity) continue;
      if (isExpired(identity.expiresAt)) continue;
      sendText(
        connection,
        encodeWithPayload(
          connection.vsn,
          { joinRef: null, ref: null, topic: channel.topic, event: 'postgres_changes' },
          `{"ids":${JSON.stringify(ids)},"data":${data}}`,
        ),
      );
    }
  }

  feed.onChange(deliver);

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== PATH) return;
    const vsn = parseVsn(url.searchParams.get('vsn'));
    const apikey = url.searchParams.get('apikey') ?? request.headers['apikey']?.toString() ?? null;
    const refuse = (status: 400 | 401, text: string) => {
      const reason = status === 400 ? 'Bad Request' : 'Unauthorized';
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${text}\n`,
      );
    };
    if (!vsn) return refuse(400, 'Unsupported vsn: use 1.0.0 or 2.0.0');
    resolveClaims(apikey, null).then(
      () =>
        wss.handleUpgrade(request, socket, head, (ws) => {
          const origin = { address: request.socket.remoteAddress ?? '', apikey: apikey ?? '' };
          // Checked and counted in one step, so sockets opening at once cannot all pass a cap.
          const refusal = socketRefusal(connections, origin, limits);
          if (refusal) return ws.close(refusal.code, refusal.reason);
          const connection: Connection = {
            socket: ws,
            vsn,
            ...origin,
            channels: new Map(),
            pending: 0,
            dropped: false,
          };
          connections.add(connection);
          let queue = Promise.resolve();
          ws.on('message', (data, isBinary) => {
            const text = isBinary ? null : data.toString();
            // Frames are handled one at a time; a client sending faster is not read until they are.
            connection.pending++;
            if (connection.pending >= MAX_PENDING_FRAMES && !ws.isPaused) ws.pause();
            queue = queue
              .then(() =>
                text === null
                  ? send(connection, {
                      joinRef: null,
                      ref: null,
                      topic: 'phoenix',
                      event: 'phx_reply',
                      payload: {
                        status: 'error',
                        response: { reason: 'malformed frame: binary frames are not served' },
                      },
                    })
                  : onFrame(connection, text).catch((error: unknown) =>
                      console.error('[realtime] frame failed:', error),
                    ),
              )
              .finally(() => {
                connection.pending--;
                if (ws.isPaused && connection.pending <= MAX_PENDING_FRAMES / 2) ws.resume();
              });
          });
          ws.on('close', () => forget(connection));
          ws.on('error', () => forget(connection));
        }),
      (error: unknown) => refuse(401, error instanceof Error ? error.message : 'Unauthorized'),
    );
  };
  server.on('upgrade', onUpgrade);

  return {
    connectionCount: () => connections.size,
    close: async () => {
      server.off('upgrade', onUpgrade);
      for (const connection of connections) {
        forget(connection);
        connection.socket.terminate();
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
