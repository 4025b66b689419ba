import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { WebSocketServer, type WebSocket } from 'ws';
import { ClaimsError, type Claims, type ClaimsResolver } from '../claims.ts';
import type { Change, ChangeFeed } from './feed.ts';
import { matchesFilter, parseFilter, type RowFilter } from './filters.ts';
import { decode, encode, parseVsn, type PhxMessage, type Vsn } from './protocol.ts';
import { canSee, createTableInfo } from './visibility.ts';

// The Realtime endpoint for postgres_changes: Phoenix channels over a
// websocket at /realtime/v1/websocket, fed by the change queue, delivering a
// row only to subscribers whose claims let them select it.

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

type Channel = { topic: string; joinRef: string | null; claims: Claims | null; bindings: Binding[] };

type Connection = { socket: WebSocket; vsn: Vsn; apikey: string; channels: Map<string, Channel> };

export type RealtimeServer = { close(): Promise<void>; connectionCount(): number };

export function attachRealtime(deps: {
  server: Server;
  pg: PGlite;
  feed: ChangeFeed;
  resolveClaims: ClaimsResolver;
}): RealtimeServer {
  const { server, pg, feed, resolveClaims } = deps;
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

  const send = (connection: Connection, message: PhxMessage) => {
    if (connection.socket.readyState === connection.socket.OPEN) {
      connection.socket.send(encode(connection.vsn, message));
    }
  };

  const reply = (connection: Connection, request: PhxMessage, status: 'ok' | 'error', response: object) =>
    send(connection, {
      joinRef: request.joinRef,
      ref: request.ref,
      topic: request.topic,
      event: 'phx_reply',
      payload: { status, response },
    });

  async function claimsFor(connection: Connection, token: unknown): Promise<Claims> {
    return resolveClaims(connection.apikey, typeof token === 'string' && token !== '' ? token : null);
  }

  async function join(connection: Connection, message: PhxMessage) {
    if (!message.topic.startsWith('realtime:')) {
      return reply(connection, message, 'error', { reason: 'topics must start with "realtime:"' });
    }
    let claims: Claims;
    try {
      claims = await claimsFor(connection, message.payload['access_token']);
    } catch (error) {
      const reason = error instanceof ClaimsError ? error.message : 'Invalid token';
      return reply(connection, message, 'error', { reason });
    }
    const config = message.payload['config'];
    const requested =
      typeof config === 'object' && config !== null
        ? (config as Record<string, unknown>)['postgres_changes']
        : [];
    if (requested !== undefined && !Array.isArray(requested)) {
      return reply(connection, message, 'error', { reason: 'config.postgres_changes must be a list' });
    }
    const bindings: Binding[] = [];
    for (const entry of requested ?? []) {
      const binding = await toBinding(entry);
      if (typeof binding === 'string') return reply(connection, message, 'error', { reason: binding });
      bindings.push(binding);
    }
    connection.channels.set(message.topic, {
      topic: message.topic,
      joinRef: message.joinRef,
      claims,
      bindings,
    });
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

  async function toBinding(entry: unknown): Promise<Binding | string> {
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
    if (!(await published(schema, tableName))) {
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
      connection.channels.delete(message.topic);
      return reply(connection, message, 'ok', {});
    }
    if (message.event === 'access_token') {
      try {
        channel.claims = await claimsFor(connection, message.payload['access_token']);
      } catch (error) {
        channel.claims = null;
        send(connection, {
          joinRef: channel.joinRef,
          ref: null,
          topic: channel.topic,
          event: 'system',
          payload: {
            extension: 'system',
            status: 'error',
            message: `Access token refused: ${error instanceof Error ? error.message : 'invalid'}`,
          },
        });
      }
      return;
    }
    // Broadcast and presence are not served locally; acknowledge so clients
    // waiting for a reply are not left hanging.
    if (message.ref !== null) reply(connection, message, 'ok', {});
  }

  async function deliver(change: Change) {
    const info = await tableInfo(change.schema, change.table);
    const row = change.type === 'DELETE' ? change.oldRecord : change.record;
    for (const connection of connections) {
      for (const channel of connection.channels.values()) {
        if (!channel.claims) continue;
        const ids = channel.bindings
          .filter(
            (b) =>
              b.schema === change.schema &&
              (b.table === undefined || b.table === '*' || b.table === change.table) &&
              (b.event === '*' || b.event === change.type) &&
              matchesFilter(b.filter, row),
          )
          .map((b) => b.id);
        if (ids.length === 0) continue;
        if (!(await canSee(pg, channel.claims, change, info))) continue;
        send(connection, {
          joinRef: null,
          ref: null,
          topic: channel.topic,
          event: 'postgres_changes',
          payload: {
            ids,
            data: {
              schema: change.schema,
              table: change.table,
              commit_timestamp: change.commitTimestamp,
              type: change.type,
              columns: info.columns,
              record: change.record ?? {},
              old_record: change.oldRecord ?? {},
              errors: null,
            },
          },
        });
      }
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
          const connection: Connection = { socket: ws, vsn, apikey: apikey ?? '', channels: new Map() };
          connections.add(connection);
          let queue = Promise.resolve();
          ws.on('message', (data, isBinary) => {
            const text = isBinary ? null : data.toString();
            queue = queue.then(() =>
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
            );
          });
          ws.on('close', () => connections.delete(connection));
          ws.on('error', () => connections.delete(connection));
        }),
      (error: unknown) => refuse(401, error instanceof Error ? error.message : 'Unauthorized'),
    );
  };
  server.on('upgrade', onUpgrade);

  return {
    connectionCount: () => connections.size,
    close: async () => {
      server.off('upgrade', onUpgrade);
      for (const connection of connections) connection.socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
