import { createClient, type RealtimeChannel } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';
import { ownRealtimeGateway } from '../support/stack/own-realtime.ts';
import type { Client, TestUser } from '../support/stack/users.ts';
import { arrived, notificationsOf, reasonOf, subscribed, type Frame } from '../support/realtime.ts';

// A channel lives no longer than the token it joined with, as on hosted Realtime: when the token
// expires the server pushes a `system` error and closes the channel (`phx_close`), and delivers
// nothing more on it, unless an `access_token` event brought a fresh token first, as supabase-js
// sends on setAuth and on every token refresh.
//
// Tokens are signed here with the project's JWT secret, so this file runs a gateway of its own.

type NotificationRow = Database['public']['Tables']['user_notifications']['Row'];

const own = ownRealtimeGateway('realtime-expiry');
const { user, openSocket, notify } = own;

/** An access token as lite issues them, for `user`, that expires at `exp` (seconds). */
function tokenFor(user: TestUser, exp: number): Promise<string> {
  return new SignJWT({ role: 'authenticated', aud: 'authenticated', email: user.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(own.gateway.jwtSecret));
}

/** About two seconds from now, in whole seconds as `exp` counts. */
function soon(): number {
  return Math.ceil(Date.now() / 1000) + 2;
}

/** A supabase-js client whose realtime token is whatever `token()` answers, as with a session. */
async function clientWithToken(token: () => string): Promise<Client> {
  const client = createClient<Database>(own.gateway.url, own.gateway.anonKey, {
    accessToken: () => Promise.resolve(token()),
    realtime: { transport: WebSocket as never },
  });
  own.keep(client);
  // Joins carry the token realtime holds when they are sent: have it before the first.
  await client.realtime.setAuth();
  return client;
}

type Watched = { channel: RealtimeChannel; rows: string[]; statuses: string[]; system: unknown[] };

/** A supabase-js channel on the user's notifications that records rows, statuses and system messages. */
async function watch(client: Client, userId: string, name: string): Promise<Watched> {
  const watched: Watched = { channel: client.channel(name), rows: [], statuses: [], system: [] };
  watched.channel
    .on<NotificationRow>(
      'postgres_changes',
      { event: 'INSERT', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${userId}` },
      (payload) => watched.rows.push(payload.new.id),
    )
    .on('system', {}, (payload: unknown) => watched.system.push(payload));
  await new Promise<void>((resolve, reject) => {
    watched.channel.subscribe((status, error) => {
      watched.statuses.push(status);
      if (status === 'SUBSCRIBED') resolve();
      else if (watched.statuses.length === 1) reject(new Error(`${status} ${error?.message ?? ''}`));
    });
  });
  return watched;
}

const isExpiry = (topic: string) => (f: Frame) =>
  f.topic === topic && f.event === 'system' && f.payload['status'] === 'error';

describe('a realtime channel and its token', () => {
  it('stops a channel when its token expires, and keeps one whose token was refreshed', async () => {
    const owner = await user('rt-expiry');
    const exp = soon();
    const shortLived = await tokenFor(owner, exp);
    const socket = await openSocket();
    const expiring = 'realtime:expiring';
    const refreshing = 'realtime:refreshing';
    const first = await socket.join(expiring, shortLived, [notificationsOf(owner.id)]);
    const second = await socket.join(refreshing, shortLived, [notificationsOf(owner.id)]);
    expect(first.reply.payload).toMatchObject({ status: 'ok' });
    expect(second.reply.payload).toMatchObject({ status: 'ok' });

    // The refresh supabase-js sends; hosted Realtime does not answer it, so a heartbeat's reply on
    // the same socket is what says it has been handled.
    socket.send({
      joinRef: second.joinRef,
      ref: socket.ref(),
      topic: refreshing,
      event: 'access_token',
      payload: { access_token: owner.accessToken },
    });
    await socket.roundTrip();

    const before = await notify(owner.id, 'Before expiry');
    await socket.changeOf(expiring, before.id);
    await socket.changeOf(refreshing, before.id);

    // The server says when the token has expired, and closes the channel.
    const system = await socket.waitForFrame(isExpiry(expiring), 'the expiry system message');
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
    expect(system.joinRef).toBe(first.joinRef);
    expect(system.payload).toMatchObject({
      extension: 'system',
      status: 'error',
      message: expect.stringMatching(/^Token has expired/),
      channel: 'expiring',
    });
    const closed = await socket.waitForFrame(
      (f) => f.topic === expiring && f.event === 'phx_close',
      'phx_close of the expired channel',
    );
    expect(closed).toMatchObject({ joinRef: first.joinRef, ref: first.joinRef, payload: {} });
    const mark = socket.frames.length;

    // A later row, and then another: once the second is on the refreshed channel, every frame
    // about the first on this socket has arrived.
    const after = await notify(owner.id, 'After expiry');
    const marker = await notify(owner.id, 'Marker');
    await socket.changeOf(refreshing, after.id, mark);
    await socket.changeOf(refreshing, marker.id, mark);
    expect(socket.changesOn(expiring, mark)).toEqual([]);
    expect(socket.frames.filter(isExpiry(refreshing))).toEqual([]);

    // The closed topic is gone: the server answers a leave for it as an unknown topic.
    const leave = await socket.request(expiring, 'phx_leave', {}, first.joinRef);
    expect(leave.payload).toMatchObject({ status: 'error' });
    expect(reasonOf(leave)).toBe('unmatched topic');
  });

  it('tells supabase-js why the channel closed, and a client that refreshed its token keeps receiving', async () => {
    const owner = await user('rt-expiry-js');
    const shortLived = await tokenFor(owner, soon());
    const expiringClient = await clientWithToken(() => shortLived);
    let current = shortLived;
    const refreshingClient = await clientWithToken(() => current);

    const expired = await watch(expiringClient, owner.id, 'expires');
    const refreshed = await watch(refreshingClient, owner.id, 'refreshes');
    // What supabase-js does on TOKEN_REFRESHED: setAuth pushes access_token to every joined channel.
    current = owner.accessToken;
    await refreshingClient.realtime.setAuth();
    // A join on the same socket, sent after the refresh: its reply means the refresh was handled.
    await subscribed(refreshingClient.channel('after-refresh'));

    const before = await notify(owner.id, 'Before expiry');
    await arrived(() => expired.rows.find((id) => id === before.id), 'the row before expiry');
    await arrived(() => refreshed.rows.find((id) => id === before.id), 'the row on the refreshed client');

    await arrived(() => (expired.statuses.includes('CLOSED') ? true : undefined), 'CLOSED on expiry');
    expect(expired.system).toContainEqual(
      expect.objectContaining({ status: 'error', message: expect.stringMatching(/^Token has expired/) }),
    );

    const after = await notify(owner.id, 'After expiry');
    await arrived(
      () => refreshed.rows.find((id) => id === after.id),
      'the row after the first token expired',
    );
    expect(refreshed.statuses).toEqual(['SUBSCRIBED']);
    expect(refreshed.system).not.toContainEqual(expect.objectContaining({ status: 'error' }));
  });

  it("stops a signed-out supabase-js client's channel receiving the user's rows at once", async () => {
    const owner = await user('rt-sign-out');
    const leaving = await watch(owner.client, owner.id, 'signs-out');
    // The same user on another device stays signed in: its rows are the sync point.
    const otherDevice = await clientWithToken(() => owner.accessToken);
    const staying = await watch(otherDevice, owner.id, 'stays');

    const before = await notify(owner.id, 'Before sign-out');
    await arrived(() => leaving.rows.find((id) => id === before.id), 'the row before sign-out');

    // On SIGNED_OUT supabase-js hands realtime the project key, which it pushes as access_token.
    expect(await owner.client.auth.signOut({ scope: 'local' })).toEqual({ error: null });
    await arrived(
      () => (owner.client.realtime.accessTokenValue === own.gateway.anonKey ? true : undefined),
      'the key as the realtime token',
    );
    // A join sent after that push: its reply means the server has handled it.
    await subscribed(owner.client.channel('after-sign-out'));

    const after = await notify(owner.id, 'After sign-out');
    const marker = await notify(owner.id, 'Marker');
    await arrived(() => staying.rows.find((id) => id === marker.id), 'the marker on the other device');
    // Every change before the marker has been handed out; the leave reply drains this socket.
    expect(await owner.client.removeChannel(leaving.channel)).toBe('ok');
    expect(leaving.rows).toEqual([before.id]);
    expect(staying.rows).toEqual([before.id, after.id, marker.id]);
  });

  it('closes a channel whose access_token refresh is not a valid token', async () => {
    const owner = await user('rt-bad-refresh');
    const socket = await openSocket();
    const topic = 'realtime:bad-refresh';
    const { reply, joinRef } = await socket.join(topic, owner.accessToken, [notificationsOf(owner.id)]);
    expect(reply.payload).toMatchObject({ status: 'ok' });

    socket.send({
      joinRef,
      ref: socket.ref(),
      topic,
      event: 'access_token',
      payload: { access_token: 'not-a-valid-jwt' },
    });
    const system = await socket.waitForFrame(isExpiry(topic), 'the refusal system message');
    expect(system.payload).toMatchObject({ extension: 'system', message: expect.any(String) });
    await socket.waitForFrame((f) => f.topic === topic && f.event === 'phx_close', 'phx_close');
  });

  it('refuses to join with a token that has already expired', async () => {
    const owner = await user('rt-expired-join');
    const socket = await openSocket();
    const stale = await tokenFor(owner, Math.floor(Date.now() / 1000) - 60);
    const { reply } = await socket.join('realtime:stale', stale, [notificationsOf(owner.id)]);
    expect(reply.payload).toMatchObject({ status: 'error' });
    expect(reasonOf(reply)).toEqual(expect.stringMatching(/expired/i));
  });
});
