import { randomUUID } from 'node:crypto';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { RealtimeChannel, RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';
import {
  arrived,
  isRecord,
  notificationsOf,
  RawSocket,
  socketUrl,
  subscribed,
  WAIT_MS,
  type Frame,
  type Vsn,
} from '../support/realtime.ts';
import {
  anonClient,
  serviceClient,
  signedInUser,
  type Client,
  type TestUser,
} from '../support/stack/users.ts';

// The Realtime contract the portal relies on for live notifications: unmodified
// supabase-js receives its own user_notifications changes, nobody else's, and
// the Phoenix endpoint behaves like hosted Realtime on the wire.
//
// Nothing here waits a while to prove that nothing arrived. The server hands
// changes out one after another, each to every socket before the next, and a
// socket's frames arrive in order; so once a later change (or a reply on the
// same socket) is here, an earlier frame that was not is never coming.

type NotificationRow = Database['public']['Tables']['user_notifications']['Row'];
type ChangePayload = RealtimePostgresChangesPayload<NotificationRow>;

const stack = inject('gateway');
const service = serviceClient(stack);

const clients: Client[] = [];
const sockets: RawSocket[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
  for (const socket of sockets.splice(0)) socket.close();
});

afterAll(async () => {
  await service.removeAllChannels();
});

async function openSocket(vsn: Vsn): Promise<RawSocket> {
  const socket = await RawSocket.open(stack.url, stack.anonKey, vsn);
  sockets.push(socket);
  return socket;
}

async function user(label: string): Promise<TestUser> {
  const created = await signedInUser(stack, label);
  clients.push(created.client);
  return created;
}

async function notify(
  userId: string,
  title: string,
  message = `message for ${title}`,
): Promise<NotificationRow> {
  const { data, error } = await service
    .from('user_notifications')
    .insert({ user_id: userId, title, message })
    .select()
    .single();
  expect(error).toBeNull();
  if (!data) throw new Error('insert returned no row');
  return data;
}

type Subscription = { channel: RealtimeChannel; events: ChangePayload[] };

/** Subscribes to user_notifications changes with supabase-js and resolves once SUBSCRIBED. */
async function subscribe(client: Client, filter?: string): Promise<Subscription> {
  const events: ChangePayload[] = [];
  const channel = client.channel(`notifications-${randomUUID()}`).on<NotificationRow>(
    'postgres_changes',
    {
      event: '*',
      schema: 'public',
      table: 'user_notifications',
      ...(filter === undefined ? {} : { filter }),
    },
    (payload) => events.push(payload),
  );
  await subscribed(channel, WAIT_MS);
  return { channel, events };
}

function eventFor(events: ChangePayload[], type: ChangePayload['eventType'], id: string) {
  return arrived(
    () =>
      events.find((e) => {
        const row = e.eventType === 'DELETE' ? e.old : e.new;
        return e.eventType === type && 'id' in row && row.id === id;
      }),
    `${type} of notification ${id}`,
  );
}

/**
 * Leaves a channel and waits for the server's reply on its socket: every frame the server wrote to
 * that socket before the reply (a stray change included) has reached the channel by then.
 */
async function drained(client: Client, subscription: Subscription): Promise<ChangePayload[]> {
  expect(await client.removeChannel(subscription.channel)).toBe('ok');
  return subscription.events;
}

/** The binding id the server assigned to the first postgres_changes entry of a join. */
function bindingId(reply: Frame): number {
  const response = reply.payload['response'];
  const changes = isRecord(response) ? response['postgres_changes'] : undefined;
  const first: unknown = Array.isArray(changes) ? changes[0] : undefined;
  const id = isRecord(first) ? first['id'] : undefined;
  if (typeof id !== 'number') throw new Error('join reply carries no postgres_changes id');
  return id;
}

/** Attempts an upgrade that should be refused and resolves with the HTTP status. */
function refusedStatus(params: Record<string, string>): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(socketUrl(stack.url, params));
    ws.on('error', () => undefined);
    ws.once('open', () => {
      ws.close();
      reject(new Error('the upgrade was accepted'));
    });
    ws.once('unexpected-response', (request: ClientRequest, response: IncomingMessage) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      request.destroy();
    });
  });
}

describe('postgres_changes with supabase-js', () => {
  it('delivers INSERT, UPDATE and DELETE of her own notifications to the owner', async () => {
    const owner = await user('rt-owner');
    const { events } = await subscribe(owner.client, `user_id=eq.${owner.id}`);

    const row = await notify(owner.id, 'Deposit received', 'Your 5 DDEX arrived.');
    const inserted = await eventFor(events, 'INSERT', row.id);
    expect(inserted.schema).toBe('public');
    expect(inserted.table).toBe('user_notifications');
    expect(inserted.new).toMatchObject({
      id: row.id,
      user_id: owner.id,
      title: 'Deposit received',
      message: 'Your 5 DDEX arrived.',
      is_read: false,
    });

    const { error: updateError } = await owner.client
      .from('user_notifications')
      .update({ is_read: true })
      .eq('id', row.id);
    expect(updateError).toBeNull();
    const updated = await eventFor(events, 'UPDATE', row.id);
    expect(updated.new).toMatchObject({ id: row.id, is_read: true, title: 'Deposit received' });

    const { error: deleteError } = await owner.client.from('user_notifications').delete().eq('id', row.id);
    expect(deleteError).toBeNull();
    const deleted = await eventFor(events, 'DELETE', row.id);
    expect(deleted.old).toMatchObject({ id: row.id });

    expect(events.map((e) => e.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
  });

  it("does not deliver a user's notifications to other users or to anon", async () => {
    const owner = await user('rt-owner');
    const snooper = await user('rt-snooper');
    const wanderer = await user('rt-wanderer');
    const anon = anonClient(stack);
    clients.push(anon);

    const own = await subscribe(owner.client, `user_id=eq.${owner.id}`);
    const targeted = await subscribe(snooper.client, `user_id=eq.${owner.id}`);
    const unfiltered = await subscribe(wanderer.client);
    const anonTargeted = await subscribe(anon, `user_id=eq.${owner.id}`);
    const anonUnfiltered = await subscribe(anon);

    const row = await notify(owner.id, 'Private notice');
    await eventFor(own.events, 'INSERT', row.id);
    const { error: updateError } = await owner.client
      .from('user_notifications')
      .update({ is_read: true })
      .eq('id', row.id);
    expect(updateError).toBeNull();
    await eventFor(own.events, 'UPDATE', row.id);
    const { error: deleteError } = await owner.client.from('user_notifications').delete().eq('id', row.id);
    expect(deleteError).toBeNull();
    await eventFor(own.events, 'DELETE', row.id);

    // A later change the unfiltered snooper may see: once it is on his socket, the owner's three
    // changes have been handed out to every socket, and would have reached his first.
    const mine = await notify(wanderer.id, 'Your own notice');
    await eventFor(unfiltered.events, 'INSERT', mine.id);
    expect(unfiltered.events.map((e) => e.eventType)).toEqual(['INSERT']);
    expect(unfiltered.events[0]?.new).toMatchObject({ id: mine.id, user_id: wanderer.id });

    // The others have no row of their own to wait for: their leave replies drain their sockets.
    expect(await drained(snooper.client, targeted)).toEqual([]);
    expect(await drained(anon, anonTargeted)).toEqual([]);
    expect(await drained(anon, anonUnfiltered)).toEqual([]);
  });
});

describe('the Phoenix endpoint on the wire', () => {
  let owner: TestUser;

  beforeAll(async () => {
    owner = await signedInUser(stack, 'rt-wire');
  });

  afterAll(async () => {
    await owner.client.removeAllChannels();
  });

  it('speaks vsn 1.0.0 object frames end to end', async () => {
    const socket = await openSocket('1.0.0');
    const topic = 'realtime:wire-v1';
    const { reply, joinRef } = await socket.join(topic, owner.accessToken, [notificationsOf(owner.id)]);

    expect(reply.payload).toMatchObject({
      status: 'ok',
      response: { postgres_changes: [{ ...notificationsOf(owner.id), id: expect.any(Number) }] },
    });
    const system = await socket.waitForFrame((f) => f.topic === topic && f.event === 'system', 'system');
    expect(system.payload).toMatchObject({ extension: 'postgres_changes', status: 'ok' });
    expect(system.joinRef).toBe(joinRef);

    const row = await notify(owner.id, 'Over vsn 1');
    const change = await arrived(() => socket.changesOn(topic)[0], 'postgres_changes over vsn 1.0.0');
    expect(change.payload).toMatchObject({
      ids: [bindingId(reply)],
      data: {
        schema: 'public',
        table: 'user_notifications',
        type: 'INSERT',
        commit_timestamp: expect.any(String),
        record: { id: row.id, title: 'Over vsn 1', user_id: owner.id, is_read: false },
        errors: null,
      },
    });
    // Every frame the server sent on this socket was an object, never an array.
    expect(socket.rawFrames.length).toBeGreaterThan(0);
    for (const raw of socket.rawFrames) {
      expect(isRecord(raw)).toBe(true);
    }
  });

  it('replies ok to a vsn 2.0.0 heartbeat as an array frame', async () => {
    const socket = await openSocket('2.0.0');
    const reply = await socket.request('phoenix', 'heartbeat', {});
    expect(reply.payload).toEqual({ status: 'ok', response: {} });
    expect(Array.isArray(socket.rawFrames.at(-1))).toBe(true);
  });

  it('answers malformed frames with an error and keeps the socket and its subscription working', async () => {
    const socket = await openSocket('2.0.0');
    const topic = 'realtime:wire-malformed';
    const { reply } = await socket.join(topic, owner.accessToken, [notificationsOf(owner.id)]);
    expect(reply.payload).toMatchObject({ status: 'ok' });

    const malformed: [string, string][] = [
      ['this is not json', 'not JSON'],
      [JSON.stringify([null, '90', 'phoenix']), 'expected [join_ref, ref, topic, event, payload]'],
      [JSON.stringify([null, '91', 'phoenix', 'heartbeat', 'not an object']), 'payload must be an object'],
      ['42', 'expected [join_ref, ref, topic, event, payload]'],
    ];
    for (const [frame, problem] of malformed) {
      const mark = socket.frames.length;
      socket.sendText(frame);
      const error = await socket.waitForFrame(
        (f) => f.topic === 'phoenix' && f.event === 'phx_reply',
        `error reply to ${frame}`,
        mark,
      );
      expect(error.payload['status']).toBe('error');
      const response = error.payload['response'];
      const reason = isRecord(response) ? response['reason'] : undefined;
      expect(reason).toEqual(expect.stringMatching(/^malformed frame/));
      expect(reason).toEqual(expect.stringContaining(problem));
    }

    const heartbeat = await socket.request('phoenix', 'heartbeat', {});
    expect(heartbeat.payload).toMatchObject({ status: 'ok' });

    const row = await notify(owner.id, 'After the garbage');
    const change = await socket.changeOf(topic, row.id);
    expect(change.payload).toMatchObject({
      data: { type: 'INSERT', record: { title: 'After the garbage' } },
    });
  });

  it('refuses a join with an invalid access token', async () => {
    const socket = await openSocket('2.0.0');
    const { reply } = await socket.join('realtime:wire-bad-token', 'not-a-valid-jwt', [
      notificationsOf(owner.id),
    ]);
    expect(reply.payload).toMatchObject({ status: 'error', response: { reason: expect.any(String) } });
  });

  it('refuses a join on a table outside the supabase_realtime publication', async () => {
    const socket = await openSocket('2.0.0');
    const { reply } = await socket.join('realtime:wire-profiles', owner.accessToken, [
      { event: '*', schema: 'public', table: 'profiles', filter: `id=eq.${owner.id}` },
    ]);
    expect(reply.payload).toMatchObject({
      status: 'error',
      response: { reason: expect.stringContaining('publication') },
    });
  });

  it('refuses a join with a malformed filter', async () => {
    const socket = await openSocket('2.0.0');
    const { reply } = await socket.join('realtime:wire-bad-filter', owner.accessToken, [
      { event: '*', schema: 'public', table: 'user_notifications', filter: 'user_id=zz.1' },
    ]);
    expect(reply.payload).toMatchObject({
      status: 'error',
      response: { reason: expect.stringContaining('filter') },
    });
  });

  it('refuses upgrades without a valid apikey (401) or with an unknown vsn (400)', async () => {
    expect(await refusedStatus({ vsn: '2.0.0' })).toBe(401);
    expect(await refusedStatus({ apikey: 'not-a-project-key', vsn: '2.0.0' })).toBe(401);
    expect(await refusedStatus({ apikey: stack.anonKey, vsn: '9.9.9' })).toBe(400);
  });

  it('stops delivering changes on a topic after phx_leave', async () => {
    const socket = await openSocket('2.0.0');
    const leaving = 'realtime:wire-leaving';
    const staying = 'realtime:wire-staying';
    const left = await socket.join(leaving, owner.accessToken, [notificationsOf(owner.id)]);
    expect(left.reply.payload).toMatchObject({ status: 'ok' });
    const stayed = await socket.join(staying, owner.accessToken, [notificationsOf(owner.id)]);
    expect(stayed.reply.payload).toMatchObject({ status: 'ok' });

    const before = await notify(owner.id, 'Before leaving');
    await socket.changeOf(leaving, before.id);

    const leaveReply = await socket.request(leaving, 'phx_leave', {}, left.joinRef);
    expect(leaveReply.payload).toMatchObject({ status: 'ok' });
    const mark = socket.frames.length;

    const after = await notify(owner.id, 'After leaving');
    // A later row on the channel still joined: once it is here, every frame about `after` on this
    // socket has arrived.
    const marker = await notify(owner.id, 'Marker');
    await socket.changeOf(staying, after.id, mark);
    await socket.changeOf(staying, marker.id, mark);
    expect(socket.changesOn(leaving, mark)).toEqual([]);
  });
});
