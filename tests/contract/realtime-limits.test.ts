import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { ownRealtimeGateway } from '../support/stack/own-realtime.ts';
import { arrived, notificationsOf, reasonOf, recordOf, socketUrl, subscribed } from '../support/realtime.ts';

// What one socket may cost the Realtime server: at most 100 channels (hosted Realtime's default
// max_channels_per_client) and 100 postgres_changes bindings, each refused past that with a reason
// supabase-js reports as CHANNEL_ERROR; a socket that stops reading is dropped once 4 MiB wait to
// be sent, not buffered without end; and a change is checked against RLS once per identity, not
// once per channel.
//
// This file runs a gateway of its own: it counts the database work of its Realtime server, and its
// flood of large rows should slow no other file's stack.

const MAX_CHANNELS = 100;
const MAX_BINDINGS = 100;

const own = ownRealtimeGateway('realtime-limits');
const { user, openSocket, notify } = own;
const rawSockets: WebSocket[] = [];

afterEach(() => {
  vi.restoreAllMocks();
  for (const socket of rawSockets.splice(0)) socket.terminate();
});

/** Distinct bindings on the user's notifications (the same binding twice would be one). */
function bindings(userId: string, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    ...notificationsOf(userId),
    filter: `title=eq.binding-${i}`,
  }));
}

describe('channels and bindings per socket', () => {
  it(`refuses a channel past ${MAX_CHANNELS} on one socket with a reason supabase-js reports`, async () => {
    const owner = await user('rt-channels');
    const open = await Promise.all(
      Array.from({ length: MAX_CHANNELS }, (_, i) => subscribed(owner.client.channel(`room-${i}`))),
    );
    expect(open).toHaveLength(MAX_CHANNELS);

    const extra = owner.client.channel('one-too-many');
    await expect(subscribed(extra)).rejects.toThrow(
      /CHANNEL_ERROR ChannelRateLimitReached: Too many channels \(at most 100/,
    );
    await owner.client.removeChannel(extra);

    // The limit counts open channels: leaving one makes room for another.
    const [first] = open;
    if (!first) throw new Error('no channel was opened');
    expect(await owner.client.removeChannel(first)).toBe('ok');
    await subscribed(owner.client.channel('room-again'));
  });

  it(`refuses postgres_changes bindings past ${MAX_BINDINGS} on one socket`, async () => {
    const owner = await user('rt-bindings');
    const socket = await openSocket();

    const tooMany = await socket.join('realtime:too-many', owner.accessToken, bindings(owner.id, 101));
    expect(tooMany.reply.payload).toMatchObject({ status: 'error' });
    expect(reasonOf(tooMany.reply)).toMatch(/^PostgresChangesLimitReached: Too many bindings \(at most 100/);

    // Spread over channels, the total counts.
    const sixty = await socket.join('realtime:sixty', owner.accessToken, bindings(owner.id, 60));
    expect(sixty.reply.payload).toMatchObject({ status: 'ok' });
    const fortyOne = await socket.join('realtime:forty-one', owner.accessToken, bindings(owner.id, 41));
    expect(reasonOf(fortyOne.reply)).toMatch(/^PostgresChangesLimitReached/);
    const forty = await socket.join('realtime:forty', owner.accessToken, bindings(owner.id, 40));
    expect(forty.reply.payload).toMatchObject({ status: 'ok' });

    // supabase-js reports the refusal as CHANNEL_ERROR with the server's reason.
    const channel = owner.client.channel('many-bindings');
    for (const binding of bindings(owner.id, 101)) {
      channel.on('postgres_changes', binding as never, () => undefined);
    }
    await expect(subscribed(channel)).rejects.toThrow(/CHANNEL_ERROR PostgresChangesLimitReached/);
  });
});

describe('a socket that stops reading', () => {
  it('is closed with 1008 while another socket keeps receiving', async () => {
    const owner = await user('rt-slow');
    const healthy = await openSocket();
    const topic = 'realtime:healthy';
    expect(
      (await healthy.join(topic, owner.accessToken, [notificationsOf(owner.id)])).reply.payload,
    ).toMatchObject({ status: 'ok' });

    // The slow socket joins 50 channels on the owner's rows, then reads nothing more.
    const slow = new WebSocket(socketUrl(own.gateway.url, { apikey: own.gateway.anonKey, vsn: '2.0.0' }));
    rawSockets.push(slow);
    let replies = 0;
    let changes = 0;
    slow.on('message', (data) => {
      const [, , , event] = JSON.parse(data.toString()) as unknown[];
      if (event === 'phx_reply') replies++;
      if (event === 'postgres_changes') changes++;
    });
    let closed: { code: number; reason: string } | undefined;
    slow.once('close', (code, reason) => (closed = { code, reason: reason.toString() }));
    await new Promise((resolve) => slow.once('open', resolve));
    const channels = 50;
    for (let i = 0; i < channels; i++) {
      slow.send(
        JSON.stringify([
          String(i),
          String(i),
          `realtime:slow-${i}`,
          'phx_join',
          { config: { postgres_changes: [notificationsOf(owner.id)] }, access_token: owner.accessToken },
        ]),
      );
    }
    await arrived(() => (replies === channels ? true : undefined), 'the slow socket joined');
    slow.pause();

    // Each row is 256 kB to every channel of the slow socket: 12.8 MB a row, far past what the
    // kernel and the server's limit hold between them.
    const big = 'x'.repeat(256 * 1024);
    const rows = [await notify(owner.id, 'Big 1', big), await notify(owner.id, 'Big 2', big)];
    for (const row of rows) await healthy.changeOf(topic, row.id);

    // Reading again, it gets what was already on its way, then the server's close.
    slow.resume();
    expect(await arrived(() => closed, 'the server to close the slow socket', 10_000)).toEqual({
      code: 1008,
      reason: expect.stringMatching(/too slowly/),
    });
    expect(changes).toBeLessThan(rows.length * channels);

    const later = await notify(owner.id, 'After the drop');
    await healthy.changeOf(topic, later.id);
  });
});

describe('row-level security checks', () => {
  it('checks a change once per identity, however many channels that identity has', async () => {
    const owner = await user('rt-batch-owner');
    const other = await user('rt-batch-other');
    const first = await openSocket();
    const second = await openSocket();
    const bystander = await openSocket();
    const binding = { event: 'INSERT', schema: 'public', table: 'user_notifications' };
    const ownerTopics = ['a', 'b', 'c', 'd', 'e'].map((name) => `realtime:batch-${name}`);
    for (const [i, topic] of ownerTopics.entries()) {
      const socket = i < 3 ? first : second;
      expect((await socket.join(topic, owner.accessToken, [binding])).reply.payload).toMatchObject({
        status: 'ok',
      });
    }
    expect(
      (await bystander.join('realtime:batch-other', other.accessToken, [binding])).reply.payload,
    ).toMatchObject({ status: 'ok' });

    const checks = vi.spyOn(own.gateway.pg, 'transaction');
    const id = randomUUID();
    await own.gateway.pg.query(
      `insert into public.user_notifications (id, user_id, title) values ($1, $2, 'Batch')`,
      [id, owner.id],
    );
    for (const [i, topic] of ownerTopics.entries()) await (i < 3 ? first : second).changeOf(topic, id);
    // The change has been handed out once the feed has taken it off its queue.
    await expect
      .poll(async () => (await own.gateway.pg.query('select 1 from _realtime.changes')).rows.length)
      .toBe(0);

    // Two identities subscribed to the table: the owner (five channels, two sockets) and the other.
    expect(checks).toHaveBeenCalledTimes(2);

    // And the other was refused the owner's row: his own later row is the first thing he got.
    const marker = await notify(other.id, 'Marker');
    await bystander.changeOf('realtime:batch-other', marker.id);
    expect(bystander.changesOn('realtime:batch-other').map(recordOf)).toEqual([
      expect.objectContaining({ id: marker.id }),
    ]);
  });
});
