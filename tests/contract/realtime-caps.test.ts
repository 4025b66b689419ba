import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ownRealtimeGateway } from '../support/stack/own-realtime.ts';
import { notificationsOf, recordOf, subscribed, type RawSocket } from '../support/realtime.ts';

// What all the sockets together may cost the Realtime server: sockets are capped per address, per
// API key and in total, and one change is checked against RLS for a bounded number of identities,
// shared out socket by socket so one socket holding many identities cannot crowd the others out.
// Each cap, when hit, says which one in the close (or the channel's system message).
//
// The gateway is the file's own, with caps small enough to reach; the clients connect from other
// loopback addresses (127.0.0.2, …) to be several addresses while staying on this machine.

const LIMITS = { socketsPerAddress: 2, socketsPerKey: 4, socketsTotal: 5, checksPerChange: 3 };

const own = ownRealtimeGateway('realtime-caps', { realtimeLimits: LIMITS });

beforeEach(async () => {
  // Each test counts from nothing: wait until the server has let go of the last test's sockets.
  await vi.waitFor(() => expect(own.gateway.realtimeSockets()).toBe(0), { timeout: 5_000, interval: 20 });
});

/** Whether the server kept the socket open (a heartbeat answered) or closed it, and how. */
async function outcome(socket: RawSocket): Promise<'open' | { code: number; reason: string }> {
  return Promise.race([socket.roundTrip().then(() => 'open' as const), socket.closed]);
}

describe('sockets per address, per key and in total', () => {
  it(`closes a socket past ${LIMITS.socketsPerAddress} from one address with 1008 and the reason, while other addresses connect`, async () => {
    const first = await own.openSocket({ from: '127.0.0.2' });
    const second = await own.openSocket({ from: '127.0.0.2' });
    expect(await outcome(first)).toBe('open');
    expect(await outcome(second)).toBe('open');

    const third = await own.openSocket({ from: '127.0.0.2' });
    expect(await outcome(third)).toEqual({
      code: 1008,
      reason: 'ConnectionRateLimitReached: Too many connections from one address (at most 2)',
    });
    expect(await outcome(await own.openSocket({ from: '127.0.0.3' }))).toBe('open');
    // The two sockets already open are untouched.
    expect(await outcome(first)).toBe('open');

    // The cap counts open sockets: once one closes, the address may open another.
    first.close();
    await first.closed;
    await vi.waitFor(
      async () => expect(await outcome(await own.openSocket({ from: '127.0.0.2' }))).toBe('open'),
      {
        timeout: 5_000,
        interval: 50,
      },
    );
  });

  it(`closes a socket past ${LIMITS.socketsPerKey} with one key, and past ${LIMITS.socketsTotal} in all`, async () => {
    for (const from of ['127.0.0.4', '127.0.0.4', '127.0.0.5', '127.0.0.5']) {
      expect(await outcome(await own.openSocket({ from }))).toBe('open');
    }
    const fifthAnon = await own.openSocket({ from: '127.0.0.6' });
    expect(await outcome(fifthAnon)).toEqual({
      code: 1008,
      reason: 'ConnectionRateLimitReached: Too many connections with one API key (at most 4)',
    });

    // Another key still has room, up to the total.
    expect(await outcome(await own.openSocket({ key: 'service', from: '127.0.0.6' }))).toBe('open');
    const sixth = await own.openSocket({ key: 'service', from: '127.0.0.7' });
    expect(await outcome(sixth)).toEqual({
      code: 1008,
      reason: 'ConnectionRateLimitReached: Too many connections in all (at most 5)',
    });
  });
});

describe('the RLS checks of one change', () => {
  it(`checks at most ${LIMITS.checksPerChange} identities, socket by socket, and closes the channels past that with the reason`, async () => {
    const owner = await own.user('rt-budget-owner');
    const strangers = await Promise.all([1, 2, 3, 4].map((i) => own.user(`rt-budget-${i}`)));

    // One socket, opened first, holds a channel for each of four identities, each bound to every
    // notification: every change would cost four checks for it alone.
    const crowd = await own.openSocket({ from: '127.0.0.8' });
    const topics = strangers.map((_, i) => `realtime:crowd-${i}`);
    for (const [i, stranger] of strangers.entries()) {
      const { reply } = await crowd.join(topics[i] ?? '', stranger.accessToken, [
        { event: '*', schema: 'public', table: 'user_notifications' },
      ]);
      expect(reply.payload).toMatchObject({ status: 'ok' });
    }
    // The owner's own tab, opened after it.
    const received: Record<string, unknown>[] = [];
    await subscribed(
      owner.client
        .channel('owner-notifications')
        .on(
          'postgres_changes',
          notificationsOf(owner.id) as never,
          (payload: { new: Record<string, unknown> }) => received.push(payload.new),
        ),
    );

    const { id } = await own.notify(owner.id, 'budget');

    // The owner hears of it: its one identity was checked in the first round, before the crowd's
    // second and later identities.
    await vi.waitFor(() => expect(received.map((row) => row['id'])).toEqual([id]), { timeout: 5_000 });
    // Of the crowd's four identities two were checked (first and second rounds); the other two
    // channels are closed with the reason, so their client knows it missed a change.
    const closedTopics = await vi.waitFor(
      () => {
        const closed = crowd.frames.filter((f) => f.event === 'phx_close').map((f) => f.topic);
        expect(closed).toHaveLength(2);
        return closed;
      },
      { timeout: 5_000 },
    );
    expect(closedTopics.sort()).toEqual([topics[2], topics[3]]);
    const reasons = crowd.frames
      .filter((f) => f.event === 'system' && f.payload['status'] === 'error')
      .map((f) => f.payload['message']);
    expect(reasons).toEqual([
      'ChangeCheckLimitReached: This change had more subscribers to check than allowed (at most 3); rejoin to receive changes again',
      'ChangeCheckLimitReached: This change had more subscribers to check than allowed (at most 3); rejoin to receive changes again',
    ]);
    // No stranger saw the owner's row.
    expect(crowd.frames.filter((f) => f.event === 'postgres_changes').map(recordOf)).toEqual([]);

    // The channels still open keep working: a change of the first stranger's reaches its channel.
    const [first] = strangers;
    if (!first) throw new Error('no stranger was made');
    const { id: theirs } = await own.notify(first.id, 'budget-after');
    await crowd.changeOf(topics[0] ?? '', theirs);
  });
});
