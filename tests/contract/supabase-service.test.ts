import { randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import WebSocket from 'ws';
import { authCopy, walletProofCopy } from '../../src/copy/index.ts';
import { AVATAR_MAX_BYTES } from '../../src/domain/profile.ts';
import { describeError, walletProofRefusal } from '../../src/machines/error-words.ts';
import {
  BackendError,
  createSupabaseClient,
  createSupabaseService,
  type AuthChange,
  type Database,
  type NotificationChange,
  type SubscriptionStatus,
  type SupabaseService,
  type WalletProof,
} from '../../src/services/supabase/index.ts';
import { siweMessage } from '../../src/services/wallet/siwe.ts';
import { IMAGES } from '../support/stack/avatar-images.ts';
import { PASSWORD, serviceClient, uniqueEmail } from '../support/stack/users.ts';
import { setWalletAsServer } from '../support/stack/wallets.ts';

// The supabase service against the local stack, through the portal's own
// client factory: every call of docs/product.md#calls and the BackendError each failure
// becomes, with the server's message, code and status.

const stack = inject('gateway');
const chain = inject('chain');
const admin = serviceClient(stack);
const SITE_URL = 'http://127.0.0.1:5173';
const WAIT_MS = 5_000;

const clients: SupabaseClient<Database>[] = [];
const unsubscribes: (() => void)[] = [];

afterEach(async () => {
  for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
});

function newService(): SupabaseService {
  const client = createSupabaseClient({
    url: stack.url,
    anonKey: stack.anonKey,
    realtimeTransport: WebSocket,
  });
  clients.push(client);
  return createSupabaseService(client, { siteUrl: SITE_URL });
}

type Member = { service: SupabaseService; id: string; email: string };

/** A fresh user, signed up (confirmations are off) and signed in through the service. */
async function member(label: string): Promise<Member> {
  const service = newService();
  const email = uniqueEmail(label);
  const { user } = await service.signUp({ email, password: PASSWORD });
  if (!user) throw new Error('sign-up returned no user');
  return { service, id: user.id, email };
}

/** The rejection of `promise`, which must be a BackendError. */
async function refusal(promise: Promise<unknown>): Promise<BackendError> {
  const error: unknown = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(BackendError);
  return error as BackendError;
}

/** The first defined answer of `read`, once it comes: an event a callback has recorded. */
function arrival<T>(read: () => T | undefined, what: string): Promise<T> {
  return vi.waitFor(
    () => {
      const value = read();
      if (value === undefined) throw new Error(`${what} did not arrive within ${WAIT_MS} ms`);
      return value;
    },
    { timeout: WAIT_MS, interval: 20 },
  );
}

async function notify(userId: string, count: number) {
  // Distinct, increasing created_at values make "newest first" observable.
  const base = Date.now() - count * 1000;
  const rows = Array.from({ length: count }, (_, i) => ({
    user_id: userId,
    title: `Notice ${i + 1}`,
    message: `Message ${i + 1}`,
    created_at: new Date(base + i * 1000).toISOString(),
  }));
  const { data, error } = await admin.from('user_notifications').insert(rows).select();
  if (error || !data) throw new Error(`could not insert notifications: ${error?.message}`);
  return data;
}

describe('auth', () => {
  it('signs up with a session when confirmations are off, and the session is the new user', async () => {
    const service = newService();
    const email = uniqueEmail('svc-signup');
    const result = await service.signUp({ email, password: PASSWORD });
    expect(result.hasSession).toBe(true);
    expect(result.user).toMatchObject({
      email,
      emailConfirmedAt: expect.any(String),
      web3Address: null,
      metadata: {},
    });
    expect(await service.getSession()).toEqual(result.user);
  });

  it('refuses a taken email and a weak password with GoTrue’s codes and messages', async () => {
    const { email } = await member('svc-dupe');
    const dupe = await refusal(newService().signUp({ email, password: PASSWORD }));
    expect(dupe).toMatchObject({ code: 'user_already_exists', status: 422 });
    expect(dupe.message).toMatch(/already/i);

    const weak = await refusal(newService().signUp({ email: uniqueEmail('svc-weak'), password: '1' }));
    expect(weak).toMatchObject({ code: 'weak_password', status: 422 });
    expect(weak.message).toMatch(/password/i);
  });

  it('sets a new password and ends the account’s other sessions, keeping this one', async () => {
    const { service, email } = await member('svc-new-password');
    // Another browser, still signed in with the old password.
    const elsewhere = createSupabaseClient({
      url: stack.url,
      anonKey: stack.anonKey,
      realtimeTransport: WebSocket,
    });
    clients.push(elsewhere);
    expect((await elsewhere.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

    await service.updatePassword('a-new-password-1234');

    // Its session can no longer be renewed; this one still is the user's.
    expect((await elsewhere.auth.refreshSession()).error).not.toBeNull();
    expect(await service.getSession()).toMatchObject({ email });
    expect(await refusal(newService().signIn({ email, password: PASSWORD }))).toMatchObject({
      code: 'invalid_credentials',
    });
  });

  it('refuses a wrong password with invalid_credentials and leaves no session', async () => {
    const { email } = await member('svc-wrong');
    const service = newService();
    const error = await refusal(service.signIn({ email, password: 'not-it-1234' }));
    expect(error).toMatchObject({ code: 'invalid_credentials', status: 400 });
    expect(error.message).toMatch(/invalid/i);
    expect(await service.getSession()).toBeNull();
  });

  it('signs in, updates the metadata and signs out, reporting each session event', async () => {
    const { email, id } = await member('svc-events');
    const service = newService();
    const changes: AuthChange[] = [];
    unsubscribes.push(service.onAuthChange((change) => changes.push(change)));
    await arrival(() => changes.find((c) => c.event === 'INITIAL_SESSION'), 'INITIAL_SESSION');

    const user = await service.signIn({ email, password: PASSWORD });
    expect(user).toMatchObject({ id, email });
    expect(await service.getSession()).toMatchObject({ id });

    const metadata = {
      wallet_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      username: 'svc-meta',
      avatar_url: `${stack.url}/storage/v1/object/public/avatars/${id}-1.png`,
      full_name: 'Service Meta',
    };
    await service.updateUserMetadata(metadata);
    await arrival(() => changes.find((c) => c.event === 'USER_UPDATED'), 'USER_UPDATED');
    expect(await service.getSession()).toMatchObject({ id, metadata });

    await service.signOut();
    await arrival(() => changes.find((c) => c.event === 'SIGNED_OUT'), 'SIGNED_OUT');
    expect(await service.getSession()).toBeNull();

    expect(changes.map((c) => c.event)).toEqual([
      'INITIAL_SESSION',
      'SIGNED_IN',
      'USER_UPDATED',
      'SIGNED_OUT',
    ]);
    expect(changes[0]?.user).toBeNull();
    expect(changes[1]?.user).toMatchObject({ id, email });
    expect(changes[2]?.user?.metadata).toEqual(metadata);
    expect(changes[3]?.user).toBeNull();
  });

  it('stops reporting once unsubscribed', async () => {
    const { email } = await member('svc-unsub');
    const service = newService();
    const changes: AuthChange[] = [];
    const unsubscribe = service.onAuthChange((change) => changes.push(change));
    await arrival(() => changes.find((c) => c.event === 'INITIAL_SESSION'), 'INITIAL_SESSION');
    unsubscribe();
    await service.signIn({ email, password: PASSWORD });
    expect(changes.map((c) => c.event)).toEqual(['INITIAL_SESSION']);
  });

  it('refuses a metadata update without a session', async () => {
    const error = await refusal(newService().updateUserMetadata({ username: 'nobody' }));
    expect(error.message).toMatch(/session/i);
  });
});

describe('profiles', () => {
  it('answers null for a user without a profile row (PGRST116)', async () => {
    const { service, id } = await member('svc-noprofile');
    expect(await service.fetchProfile(id)).toBeNull();
  });

  it('upserts a new profile, returns the row with the spec defaults, and fetches the same row', async () => {
    const { service, id, email } = await member('svc-create');
    const saved = await service.upsertProfile({ id, email, username: 'svc-create' });
    expect(saved).toMatchObject({
      id,
      email,
      username: 'svc-create',
      role: 'user',
      account_tier: 'basic',
      kyc_status: 'pending',
      theme_preference: 'dark',
      preferred_language: 'en',
      notification_preferences: {},
      created_at: expect.any(String),
    });
    expect(await service.fetchProfile(id)).toEqual(saved);
  });

  it('saves a fetched profile back as it is, with edits', async () => {
    const { service, id, email } = await member('svc-roundtrip');
    await service.upsertProfile({ id, email });
    const fetched = await service.fetchProfile(id);
    if (!fetched) throw new Error('the profile is gone');
    const saved = await service.upsertProfile({
      ...fetched,
      username: 'edited',
      website: 'https://example.com',
    });
    expect(saved).toEqual({
      ...fetched,
      username: 'edited',
      website: 'https://example.com',
      updated_at: expect.any(String),
    });
  });

  it('never sends a server-owned field, which the database would refuse', async () => {
    const { service, id, email } = await member('svc-escalate');
    const created = await service.upsertProfile({ id, email });
    const attempt = { ...created, role: 'admin', kyc_status: 'verified', api_key_count: 5, username: 'kept' };

    // What the database says to a client that does send them.
    const raw = createSupabaseClient({
      url: stack.url,
      anonKey: stack.anonKey,
      realtimeTransport: WebSocket,
    });
    await raw.auth.signInWithPassword({ email, password: PASSWORD });
    const refused = await raw.from('profiles').upsert(attempt).select().single();
    expect(refused.error?.code).toBe('42501');

    const saved = await service.upsertProfile(attempt);
    expect(saved).toMatchObject({ role: 'user', kyc_status: 'pending', api_key_count: 0, username: 'kept' });
  });

  it('passes on a constraint failure with its code, status and message', async () => {
    const { service, id } = await member('svc-website');
    const error = await refusal(service.upsertProfile({ id, website: 'javascript:alert(1)' }));
    // Hosted PostgREST answers 23514 / 400; the local gateway says SUP / 500. Either is passed on.
    expect(error.code).toEqual(expect.any(String));
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.message).toContain('profiles_website_is_http');
  });

  it('sets one email alert kind as the database holds it: a kind turned off elsewhere stays off', async () => {
    const { service, id, email } = await member('svc-email-alert');
    await service.upsertProfile({
      id,
      email,
      notification_preferences: { email: { transfers: true, bots: true }, digest: 'weekly' },
    });
    // An alert mail's unsubscribe link turns bots off while this page still shows them on.
    const unsubscribed = await admin.rpc('unsubscribe_email_alerts', { p_user_id: id, p_kind: 'bots' });
    expect(unsubscribed.error).toBeNull();

    expect(await service.setEmailAlert('transfers', false)).toEqual({
      email: { transfers: false, bots: false },
      digest: 'weekly',
    });
    expect((await service.fetchProfile(id))?.notification_preferences).toEqual({
      email: { transfers: false, bots: false },
      digest: 'weekly',
    });
  });

  it('passes on a fetch failure other than a missing row', async () => {
    const { service } = await member('svc-badid');
    const error = await refusal(service.fetchProfile('not-a-uuid'));
    expect(error).toMatchObject({ code: '22P02', status: 400 });
    expect(error.message).toMatch(/uuid/);
  });
});

/** A wallet of its own for each test: wallets are unique across profiles, and files run at once. */
const freshWallet = () => privateKeyToAccount(generatePrivateKey());

/** The portal's proof (src/app/provide-portal.ts): a nonce, the message for this site and chain, signed. */
async function proofOf(
  service: SupabaseService,
  wallet: PrivateKeyAccount,
  signer = wallet,
): Promise<WalletProof> {
  const { nonce, expiresAt } = await service.requestWalletNonce(wallet.address);
  const message = siweMessage({
    url: SITE_URL,
    chainId: chain.chainId,
    address: wallet.address,
    nonce,
    now: new Date(),
    statement: walletProofCopy.statement,
    notAfter: new Date(expiresAt),
  });
  return { message, signature: await signer.signMessage({ message }) };
}

describe('wallet proofs (link-wallet)', () => {
  it('links a wallet the user proves, verified, and fetches it back', async () => {
    const { service, id, email } = await member('svc-link');
    await service.upsertProfile({ id, email });
    const wallet = freshWallet();
    const { nonce, expiresAt } = await service.requestWalletNonce(wallet.address);
    expect(nonce).toMatch(/^[A-Za-z0-9]{16,}$/);
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);

    const linked = await service.linkWallet(await proofOf(service, wallet));
    expect(linked).toMatchObject({ id, wallet_verified_at: expect.any(String) });
    expect(linked.wallet_address?.toLowerCase()).toBe(wallet.address.toLowerCase());
    expect(await service.fetchProfile(id)).toEqual(linked);
  });

  it('refuses a proof used twice, and one signed by another key, in their own codes', async () => {
    const { service, id, email } = await member('svc-link-refused');
    await service.upsertProfile({ id, email });
    const wallet = freshWallet();
    const proof = await proofOf(service, wallet);
    await service.linkWallet(proof);
    const replayed = await refusal(service.linkWallet(proof));
    expect(replayed).toMatchObject({ code: 'proof_replayed', status: 403 });
    expect(walletProofRefusal(replayed)).toBe(walletProofCopy.refused.proof_replayed);

    const forged = await refusal(service.linkWallet(await proofOf(service, freshWallet(), freshWallet())));
    expect(forged).toMatchObject({ code: 'proof_signature', status: 403 });
    expect(forged.message).not.toBe('');
  });

  it("refuses to link another account's wallet with wallet_taken (409)", async () => {
    const owner = await member('svc-link-owner');
    const wallet = freshWallet();
    await setWalletAsServer(admin, owner.id, wallet.address, true);
    const { service } = await member('svc-link-thief');
    const taken = await refusal(service.linkWallet(await proofOf(service, wallet)));
    expect(taken).toMatchObject({ code: 'wallet_taken', status: 409 });
    expect(walletProofRefusal(taken)).toBe(walletProofCopy.refused.wallet_taken);
  });

  it('never writes the wallet through a profile save, and clears it (with its proof) on request', async () => {
    const { service, id, email } = await member('svc-clear-wallet');
    await service.upsertProfile({ id, email });
    const wallet = freshWallet();
    const linked = await service.linkWallet(await proofOf(service, wallet));
    const saved = await service.upsertProfile({
      ...linked,
      wallet_address: freshWallet().address,
      username: 'kept',
    });
    expect(saved).toMatchObject({
      username: 'kept',
      wallet_address: linked.wallet_address,
      wallet_verified_at: linked.wallet_verified_at,
    });
    const cleared = await service.clearWallet(id);
    expect(cleared).toMatchObject({ wallet_address: null, wallet_verified_at: null, username: 'kept' });
  });

  it('refuses without a session: the function verifies JWTs', async () => {
    const error = await refusal(newService().requestWalletNonce(freshWallet().address));
    expect(error.status).toBe(401);
  });
});

describe('Sign in with Ethereum', () => {
  /** A message for the portal on the test chain, as the composition root builds it, and its signature. */
  async function signedIn(wallet: PrivateKeyAccount, chainId = chain.chainId) {
    const message = siweMessage({
      url: 'http://127.0.0.1:5173',
      chainId,
      address: wallet.address,
      nonce: 'Abc123def456ghi789',
      now: new Date(),
      statement: authCopy.walletSignInStatement,
    });
    return { message, signature: await wallet.signMessage({ message }) };
  }

  it('signs in a wallet-only user, whose profile holds the wallet, verified, at once', async () => {
    const service = newService();
    const wallet = freshWallet();
    const user = await service.signInWithWallet(await signedIn(wallet));
    expect(user).toMatchObject({ email: null, emailConfirmedAt: null, metadata: {} });
    expect(user.web3Address).toBe(wallet.address);
    expect(await service.getSession()).toEqual(user);
    const profile = await service.fetchProfile(user.id);
    expect(profile).toMatchObject({ id: user.id, username: null, wallet_verified_at: expect.any(String) });
    expect(profile?.wallet_address?.toLowerCase()).toBe(wallet.address.toLowerCase());
  });

  it("passes on the backend's refusal of another wallet's signature, and signs nobody in", async () => {
    const service = newService();
    const { message } = await signedIn(freshWallet());
    const { signature } = await signedIn(freshWallet());
    const error = await refusal(service.signInWithWallet({ message, signature }));
    expect(error.status).toBe(400);
    expect(await service.getSession()).toBeNull();
  });

  it("passes on the backend's refusal of a message for another chain", async () => {
    const error = await refusal(newService().signInWithWallet(await signedIn(freshWallet(), 1)));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/chain 1/);
  });
});

describe('notifications', () => {
  it('lists the 20 newest, newest first', async () => {
    const { service, id } = await member('svc-list');
    await notify(id, 22);
    const rows = await service.listNotifications(id);
    expect(rows.map((n) => n.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Notice ${22 - i}`));
  });

  it('marks a set read with read_at, leaves the others, and does nothing for an empty set', async () => {
    const { service, id } = await member('svc-mark');
    const [first, second, third] = await notify(id, 3);
    await service.markNotificationsRead([]);
    const before = Date.now();
    await service.markNotificationsRead([first?.id ?? '', third?.id ?? '']);
    const rows = await service.listNotifications(id);
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const row of [first, third]) {
      expect(byId.get(row?.id ?? '')).toMatchObject({ is_read: true, read_at: expect.any(String) });
      expect(Date.parse(byId.get(row?.id ?? '')?.read_at ?? '')).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(byId.get(second?.id ?? '')).toMatchObject({ is_read: false, read_at: null });
  });

  it('refuses marking with an id that is not a uuid', async () => {
    const { service } = await member('svc-mark-bad');
    const error = await refusal(service.markNotificationsRead(['not-a-uuid']));
    expect(error).toMatchObject({ code: '22P02', status: 400 });
  });

  it('clears the owner’s notifications and no one else’s', async () => {
    const owner = await member('svc-clear');
    const bystander = await member('svc-bystander');
    await notify(owner.id, 3);
    await notify(bystander.id, 2);
    await owner.service.clearNotifications(owner.id);
    expect(await owner.service.listNotifications(owner.id)).toEqual([]);
    expect(await bystander.service.listNotifications(bystander.id)).toHaveLength(2);
  });

  it('delivers live INSERT, UPDATE and DELETE of the user’s notifications, and nothing after unsubscribing', async () => {
    const { service, id } = await member('svc-live');
    const other = await member('svc-live-other');
    const changes: NotificationChange[] = [];
    const statuses: SubscriptionStatus[] = [];
    const unsubscribe = service.subscribeNotifications(id, {
      onChange: (change) => changes.push(change),
      onStatus: (status) => statuses.push(status),
    });
    unsubscribes.push(unsubscribe);
    await arrival(() => statuses.find((s) => s === 'SUBSCRIBED'), 'SUBSCRIBED');

    await notify(other.id, 1);
    const [row] = await notify(id, 1);
    const inserted = await arrival(() => changes.find((c) => c.eventType === 'INSERT'), 'the INSERT');
    // Realtime writes timestamps in Postgres's text form, REST in ISO form: compare the instants.
    const { created_at: createdAt, ...fields } = row ?? { created_at: '' };
    expect(inserted.row).toMatchObject(fields);
    expect(Date.parse(inserted.row.created_at)).toBe(Date.parse(createdAt));

    await service.markNotificationsRead([row?.id ?? '']);
    const updated = await arrival(() => changes.find((c) => c.eventType === 'UPDATE'), 'the UPDATE');
    expect(updated.row).toMatchObject({ id: row?.id, is_read: true });

    await service.clearNotifications(id);
    const deleted = await arrival(() => changes.find((c) => c.eventType === 'DELETE'), 'the DELETE');
    expect(deleted.row).toMatchObject({ id: row?.id, title: row?.title, user_id: id });
    expect(changes.every((c) => c.row.user_id === id)).toBe(true);

    unsubscribe();
    // A second channel of the same user on the same socket is the witness: once it has the next
    // row, the removed channel would have had it too.
    const witnessed: NotificationChange[] = [];
    const witnessStatuses: SubscriptionStatus[] = [];
    unsubscribes.push(
      service.subscribeNotifications(id, {
        onChange: (change) => witnessed.push(change),
        onStatus: (status) => witnessStatuses.push(status),
      }),
    );
    await arrival(() => witnessStatuses.find((s) => s === 'SUBSCRIBED'), 'the witness SUBSCRIBED');
    await notify(id, 1);
    await arrival(() => witnessed.find((c) => c.eventType === 'INSERT'), 'the witness INSERT');
    expect(changes).toHaveLength(3);
    // Our own removal is not reported as a channel that closed on us.
    expect(statuses).toEqual(['SUBSCRIBED']);
  });

  it('subscribes again after unsubscribing', async () => {
    const { service, id } = await member('svc-resub');
    const statuses: SubscriptionStatus[] = [];
    const handlers = { onChange: () => undefined, onStatus: (s: SubscriptionStatus) => statuses.push(s) };
    service.subscribeNotifications(id, handlers)();
    const changes: NotificationChange[] = [];
    unsubscribes.push(
      service.subscribeNotifications(id, { ...handlers, onChange: (change) => changes.push(change) }),
    );
    await arrival(() => statuses.find((s) => s === 'SUBSCRIBED'), 'SUBSCRIBED');
    const [row] = await notify(id, 1);
    expect((await arrival(() => changes[0], 'the INSERT')).row.id).toBe(row?.id);
  });
});

describe('transactions', () => {
  it('lists the 20 newest, newest first', async () => {
    const { service, id } = await member('svc-history');
    const base = Date.now() - 21_000;
    const rows = Array.from({ length: 21 }, (_, i) => ({
      user_id: id,
      type: 'token_received',
      status: 'confirmed',
      amount: `${i + 1}`,
      token_symbol: 'DDEX',
      tx_hash: `0x${(i + 1).toString(16).padStart(64, '0')}`,
      created_at: new Date(base + i * 1000).toISOString(),
    }));
    expect((await admin.from('transactions').insert(rows)).error).toBeNull();
    const listed = await service.listTransactions(id);
    expect(listed.map((t) => t.amount)).toEqual(Array.from({ length: 20 }, (_, i) => `${21 - i}`));
    expect(listed[0]).toMatchObject({ user_id: id, token_symbol: 'DDEX', type: 'token_received' });
  });
});

describe('avatars', () => {
  it('uploads under the user id and serves the public URL with the type and cache control', async () => {
    const { service, id } = await member('svc-avatar');
    const data = new Blob([IMAGES.png], { type: 'image/png' });
    const path = await service.uploadAvatar(id, { name: 'me.png', type: 'image/png', size: data.size, data });
    expect(path).toMatch(new RegExp(`^${id}-\\d+\\.png$`));

    const url = service.avatarPublicUrl(path);
    expect(url).toBe(`${stack.url}/storage/v1/object/public/avatars/${path}`);
    const response = await fetch(url ?? '');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('max-age=3600');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(IMAGES.png);
  });

  it('uploads a JPEG and a GIF with their own extensions and types', async () => {
    const { service, id } = await member('svc-avatar-types');
    for (const [type, bytes, name, extension] of [
      ['image/jpeg', IMAGES.jpeg, 'Photo.JPEG', 'jpeg'],
      ['image/gif', IMAGES.gif, 'avatar', 'gif'],
    ] as const) {
      const data = new Blob([bytes], { type });
      const path = await service.uploadAvatar(id, { name, type, size: data.size, data });
      expect(path.endsWith(`.${extension}`)).toBe(true);
      const response = await fetch(service.avatarPublicUrl(path) ?? '');
      expect(response.headers.get('content-type')).toBe(type);
    }
  });

  it('passes on the bucket’s refusal of a wrong type or an oversized file', async () => {
    // The profile machine checks both before it uploads (src/domain/profile.ts); the bucket is the backstop.
    const { service, id } = await member('svc-avatar-refused');
    const text = new Blob(['not an image'], { type: 'text/plain' });
    const wrongType = await refusal(
      service.uploadAvatar(id, { name: 'a.txt', type: 'text/plain', size: text.size, data: text }),
    );
    expect(wrongType.status).toBe(415);
    expect(wrongType.message).toMatch(/mime type text\/plain is not supported/);

    const huge = new Blob([new Uint8Array(AVATAR_MAX_BYTES + 1)], { type: 'image/png' });
    const tooLarge = await refusal(
      service.uploadAvatar(id, { name: 'a.png', type: 'image/png', size: huge.size, data: huge }),
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.message).toMatch(new RegExp(`maximum allowed size of ${AVATAR_MAX_BYTES} bytes`));
  });

  it('passes on the storage server’s refusal of bytes that are not what they claim', async () => {
    const { service, id } = await member('svc-avatar-fake');
    const data = new Blob([IMAGES.gif], { type: 'image/png' });
    const error = await refusal(
      service.uploadAvatar(id, { name: 'fake.png', type: 'image/png', size: data.size, data }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/not a valid image\/png/);
  });

  it('refuses an upload without a session with the bucket policy’s 403', async () => {
    const { id } = await member('svc-avatar-anon');
    const data = new Blob([IMAGES.png], { type: 'image/png' });
    const error = await refusal(
      newService().uploadAvatar(id, { name: 'a.png', type: 'image/png', size: data.size, data }),
    );
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/row-level security/);
  });

  it('has no public URL for an empty path', () => {
    expect(newService().avatarPublicUrl('')).toBeNull();
  });
});

describe('recordTransaction', () => {
  it('passes on the function’s 400 for a hash that is not one', async () => {
    const { service } = await member('svc-rt-garbage');
    const error = await refusal(service.recordTransaction('0x1234'));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/txHash must be a transaction hash/);
  });

  it('passes on the function’s 404 for a hash the chain does not know', async () => {
    const { service, id, email } = await member('svc-rt-unknown');
    await service.upsertProfile({ id, email });
    await setWalletAsServer(admin, id, `0x${randomBytes(20).toString('hex')}`, true);
    const error = await refusal(service.recordTransaction(`0x${randomBytes(32).toString('hex')}`));
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/No mined transaction with this hash/);
  });

  it('passes on the 401 when nobody is signed in: the function verifies JWTs, and there is none', async () => {
    // supabase-js sends no Bearer token without a session (the publishable key is no JWT), so the
    // gateway refuses the call as the hosted platform does before the function runs.
    const error = await refusal(newService().recordTransaction(`0x${'ab'.repeat(32)}`));
    expect(error.status).toBe(401);
    expect(error.message).toBe('Missing authorization header');
  });
});

describe('without a client (missing configuration)', () => {
  const service = createSupabaseService(null, { siteUrl: SITE_URL });
  const data = new Blob([IMAGES.png], { type: 'image/png' });
  const calls: Record<string, () => Promise<unknown>> = {
    getSession: () => service.getSession(),
    signUp: () => service.signUp({ email: 'a@example.com', password: PASSWORD }),
    signIn: () => service.signIn({ email: 'a@example.com', password: PASSWORD }),
    signOut: () => service.signOut(),
    updateUserMetadata: () => service.updateUserMetadata({ username: 'x' }),
    fetchProfile: () => service.fetchProfile('id'),
    upsertProfile: () => service.upsertProfile({ id: 'id' }),
    listNotifications: () => service.listNotifications('id'),
    markNotificationsRead: () => service.markNotificationsRead(['id']),
    clearNotifications: () => service.clearNotifications('id'),
    listTransactions: () => service.listTransactions('id'),
    uploadAvatar: () =>
      service.uploadAvatar('id', { name: 'a.png', type: 'image/png', size: data.size, data }),
    recordTransaction: () => service.recordTransaction(`0x${'ab'.repeat(32)}`),
    clearWallet: () => service.clearWallet('id'),
    requestWalletNonce: () => service.requestWalletNonce(`0x${'ab'.repeat(20)}`),
    linkWallet: () => service.linkWallet({ message: 'm', signature: '0x00' }),
    signInWithWallet: () => service.signInWithWallet({ message: 'm', signature: '0x00' }),
  };

  it.each(Object.keys(calls))('%s rejects with client_unavailable', async (name) => {
    const call = calls[name];
    if (!call) throw new Error(`no call ${name}`);
    const error = await refusal(call());
    expect(error).toMatchObject({ code: 'client_unavailable', status: null });
    expect(describeError(error)).toBe(authCopy.clientUnavailable.description);
  });

  it('says so, has no avatar URL, never reports a session change, and reports the subscription failed', async () => {
    expect(service.available).toBe(false);
    expect(service.avatarPublicUrl('id-1.png')).toBeNull();
    const changes: AuthChange[] = [];
    unsubscribes.push(service.onAuthChange((change) => changes.push(change)));
    const statuses: [SubscriptionStatus, string | undefined][] = [];
    unsubscribes.push(
      service.subscribeNotifications('id', {
        onChange: () => undefined,
        onStatus: (status, error) => statuses.push([status, error]),
      }),
    );
    // The refused join is all this service ever reports, and it reports it later, as a channel
    // would: once it is in, nothing else is on its way, and no session change came with it.
    await vi.waitFor(() =>
      expect(statuses).toEqual([['CHANNEL_ERROR', expect.stringMatching(/no backend is configured/i)]]),
    );
    expect(changes).toEqual([]);
  });
});
