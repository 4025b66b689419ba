import type { User } from '@supabase/supabase-js';
import { http, HttpResponse } from 'msw';
import { recoverMessageAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { profileCopy } from '../../src/copy/index.ts';
import { AVATAR_MAX_BYTES, AVATAR_TYPES, avatarProblem } from '../../src/domain/profile.ts';
import { toAuthUser } from '../../src/services/supabase/auth-user.ts';
import { avatarObjectName } from '../../src/services/supabase/avatars.ts';
import { clientProfileFields } from '../../src/services/supabase/profile-fields.ts';
import { siweMessage } from '../../src/services/wallet/siwe.ts';
import {
  BackendError,
  CLIENT_PROFILE_FIELDS,
  createSupabaseClient,
  createSupabaseService,
  NETWORK_ERROR,
  type Profile,
  type SupabaseService,
} from '../../src/services/supabase/index.ts';
import { profileRow } from '../support/fixtures.ts';

// The pure parts of the supabase service, and the shapes it sends and the
// faults it meets on the wire, played by msw in front of the real supabase-js.
// The local stack's behaviour is the contract test's business.

const ORIGIN = 'http://127.0.0.1:59432';
const SITE_URL = 'http://127.0.0.1:5173';
const NOW = 1_790_000_000_000;
const USER_ID = '6f41357b-5815-4fd0-bac4-aaf8b0eeee23';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function service(): SupabaseService {
  const client = createSupabaseClient({ url: ORIGIN, anonKey: 'anon-key', realtimeTransport: WebSocket });
  return createSupabaseService(client, { siteUrl: SITE_URL, now: () => NOW });
}

async function refusal(promise: Promise<unknown>): Promise<BackendError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof BackendError)) throw error;
  return error;
}

const PROFILE: Profile = profileRow(
  { id: USER_ID, email: 'a@example.com' },
  {
    wallet_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    updated_at: '2026-11-21T00:00:00+00:00',
    created_at: '2026-11-20T00:00:00+00:00',
    username: 'a',
    full_name: 'A',
    account_tier: 'pro',
  },
);

// The avatar rules live in src/domain/profile.ts, where the profile machine checks a file before
// it asks this service to upload it; the bucket enforces the same rules (tests/contract/storage.test.ts).
describe('avatar checks and names', () => {
  it.each(AVATAR_TYPES)('accepts %s up to 2 MB', (type) => {
    expect(avatarProblem({ type, size: AVATAR_MAX_BYTES })).toBeNull();
  });

  it('offers the file picker exactly the accepted types', () => {
    expect(profileCopy.avatarTypes).toEqual(['image/png', 'image/jpeg', 'image/gif']);
  });

  it.each(['image/svg+xml', 'text/plain', 'image/webp', ''])('refuses %j as invalid-type', (type) => {
    expect(avatarProblem({ type, size: 10 })).toBe('invalid-type');
  });

  it('refuses one byte over 2 MB as too-large', () => {
    expect(AVATAR_MAX_BYTES).toBe(2 * 1024 * 1024);
    expect(avatarProblem({ type: 'image/png', size: AVATAR_MAX_BYTES + 1 })).toBe('too-large');
  });

  it.each([
    ['me.png', 'image/png', 'png'],
    ['Photo.JPEG', 'image/jpeg', 'jpeg'],
    ['photo.jpg', 'image/jpeg', 'jpg'],
    ['anim.gif', 'image/gif', 'gif'],
    ['avatar', 'image/gif', 'gif'],
    ['x.exe', 'image/png', 'png'],
    ['a.png', 'image/jpeg', 'jpg'],
    ['../../etc.png', 'image/png', 'png'],
  ])('names %s (%s) <user id>-<timestamp>.%s', (name, type, extension) => {
    expect(avatarObjectName(USER_ID, { name, type }, NOW)).toBe(`${USER_ID}-${NOW}.${extension}`);
  });
});

describe('profile fields sent', () => {
  it('keeps only the client-owned fields of a fetched profile: never its wallet, which is proven', () => {
    const sent = clientProfileFields(PROFILE);
    expect(Object.keys(sent).sort()).toEqual([...CLIENT_PROFILE_FIELDS].sort());
    expect(sent).toMatchObject({ id: USER_ID, username: 'a' });
    expect(sent).not.toHaveProperty('wallet_address');
    expect(sent).not.toHaveProperty('wallet_verified_at');
  });

  it('leaves out fields that are absent, so the row keeps them', () => {
    expect(clientProfileFields({ id: USER_ID, username: undefined, full_name: null })).toEqual({
      id: USER_ID,
      full_name: null,
    });
  });
});

describe('auth users', () => {
  const base = { id: USER_ID, aud: 'authenticated', app_metadata: {}, created_at: '' } as const;

  it('keeps the spec’s metadata fields with string or null values only', () => {
    const user: User = {
      ...base,
      email: 'a@example.com',
      email_confirmed_at: '2026-11-21T00:00:00Z',
      user_metadata: { username: 'a', wallet_address: null, full_name: 7, avatar_url: {}, role: 'admin' },
    };
    expect(toAuthUser(user)).toEqual({
      id: USER_ID,
      email: 'a@example.com',
      emailConfirmedAt: '2026-11-21T00:00:00Z',
      web3Address: null,
      metadata: { username: 'a', wallet_address: null },
    });
  });

  it('reads the address of a Sign in with Ethereum identity: its claims, else its provider id', () => {
    const identity = (provider: string, id: string, data: Record<string, unknown>) => ({
      id,
      identity_id: 'i-1',
      user_id: USER_ID,
      provider,
      identity_data: data,
    });
    const web3 = (...identities: ReturnType<typeof identity>[]) =>
      toAuthUser({ ...base, email: '', user_metadata: {}, identities }).web3Address;
    const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    expect(
      web3(
        identity('web3', `web3:ethereum:${ADDRESS}`, {
          custom_claims: { address: ADDRESS, chain: 'ethereum' },
        }),
      ),
    ).toBe(ADDRESS);
    // Checksummed, as the wallet panel shows it, though supabase-js signs it in lower case.
    expect(web3(identity('web3', `web3:ethereum:${ADDRESS.toLowerCase()}`, {}))).toBe(ADDRESS);
    expect(web3(identity('web3', 'i-2', { sub: `web3:ethereum:${ADDRESS}` }))).toBe(ADDRESS);
    // Another provider, another chain, a claim that is no address: no web3 address.
    expect(web3(identity('email', USER_ID, { email: 'a@example.com' }))).toBeNull();
    expect(web3(identity('web3', 'web3:solana:9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', {}))).toBeNull();
    expect(web3(identity('web3', 'web3:ethereum:0x1234', { custom_claims: { address: 'nope' } }))).toBeNull();
    expect(web3()).toBeNull();
    // Supabase Auth answers an empty email for a wallet-only user.
    expect(toAuthUser({ ...base, email: '', user_metadata: {} }).email).toBeNull();
  });

  it('gives nulls for a user without email or confirmation', () => {
    expect(toAuthUser({ ...base, user_metadata: {} })).toEqual({
      id: USER_ID,
      email: null,
      emailConfirmedAt: null,
      web3Address: null,
      metadata: {},
    });
  });
});

describe('what goes on the wire', () => {
  it('signs up with the site origin as redirect and reports a sign-up awaiting confirmation', async () => {
    let redirect: string | null = null;
    server.use(
      http.post(`${ORIGIN}/auth/v1/signup`, ({ request }) => {
        redirect = new URL(request.url).searchParams.get('redirect_to');
        // GoTrue with confirmations on answers the user alone, no session.
        return HttpResponse.json({
          id: USER_ID,
          aud: 'authenticated',
          email: 'a@example.com',
          email_confirmed_at: null,
          user_metadata: {},
          app_metadata: {},
          created_at: '2026-11-21T00:00:00Z',
        });
      }),
    );
    const result = await service().signUp({ email: 'a@example.com', password: 'pw-123456' });
    expect(redirect).toBe(SITE_URL);
    expect(result).toEqual({
      hasSession: false,
      user: { id: USER_ID, email: 'a@example.com', emailConfirmedAt: null, web3Address: null, metadata: {} },
    });
  });

  it('upserts on conflict id, asks for the row back, and sends no server-owned field', async () => {
    let sent: Record<string, unknown> = {};
    let url = new URL(ORIGIN);
    let prefer = '';
    server.use(
      http.post(`${ORIGIN}/rest/v1/profiles`, async ({ request }) => {
        url = new URL(request.url);
        prefer = request.headers.get('prefer') ?? '';
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(PROFILE);
      }),
    );
    expect(await service().upsertProfile({ ...PROFILE, role: 'admin' })).toEqual(PROFILE);
    expect(url.searchParams.get('on_conflict')).toBe('id');
    expect(prefer).toContain('resolution=merge-duplicates');
    expect(prefer).toContain('return=representation');
    expect(Object.keys(sent).sort()).toEqual([...CLIENT_PROFILE_FIELDS].sort());
  });

  it('answers null for PGRST116 and passes on any other PostgREST error', async () => {
    server.use(
      http.get(`${ORIGIN}/rest/v1/profiles`, ({ request }) =>
        new URL(request.url).searchParams.get('id') === `eq.${USER_ID}`
          ? HttpResponse.json(
              {
                code: 'PGRST116',
                message: 'Cannot coerce the result to a single JSON object',
                details: null,
              },
              { status: 406 },
            )
          : HttpResponse.json(
              { code: '42501', message: 'permission denied for table profiles' },
              { status: 403 },
            ),
      ),
    );
    expect(await service().fetchProfile(USER_ID)).toBeNull();
    const error = await refusal(service().fetchProfile('someone-else'));
    expect(error).toMatchObject({
      code: '42501',
      status: 403,
      message: 'permission denied for table profiles',
    });
  });

  it('lists the 20 newest notifications and transactions of the user', async () => {
    const queries: URLSearchParams[] = [];
    const list = ({ request }: { request: Request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json([]);
    };
    server.use(
      http.get(`${ORIGIN}/rest/v1/user_notifications`, list),
      http.get(`${ORIGIN}/rest/v1/transactions`, list),
    );
    await service().listNotifications(USER_ID);
    await service().listTransactions(USER_ID);
    for (const query of queries) {
      expect(Object.fromEntries(query)).toEqual({
        select: '*',
        user_id: `eq.${USER_ID}`,
        order: 'created_at.desc',
        limit: '20',
      });
    }
    expect(queries).toHaveLength(2);
  });

  it('marks a set read with read_at now, and sends nothing for an empty set', async () => {
    let query = '';
    let sent: unknown = null;
    server.use(
      http.patch(`${ORIGIN}/rest/v1/user_notifications`, async ({ request }) => {
        query = new URL(request.url).searchParams.get('id') ?? '';
        sent = await request.json();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await service().markNotificationsRead([]);
    expect(sent).toBeNull();
    await service().markNotificationsRead(['a', 'b']);
    expect(query).toBe('in.(a,b)');
    expect(sent).toEqual({ is_read: true, read_at: new Date(NOW).toISOString() });
  });

  it('clears by user id', async () => {
    let query = '';
    server.use(
      http.delete(`${ORIGIN}/rest/v1/user_notifications`, ({ request }) => {
        query = new URL(request.url).searchParams.get('user_id') ?? '';
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await service().clearNotifications(USER_ID);
    expect(query).toBe(`eq.${USER_ID}`);
  });

  it('uploads the avatar under its name with upsert and cache control 3600, and passes on the bucket’s refusal', async () => {
    let upsert: string | null = null;
    let cacheControl: FormDataEntryValue | null = null;
    let path = '';
    server.use(
      http.post(`${ORIGIN}/storage/v1/object/avatars/:name`, async ({ request, params }) => {
        upsert = request.headers.get('x-upsert');
        cacheControl = (await request.formData()).get('cacheControl');
        path = String(params['name']);
        return HttpResponse.json({ Id: 'object-id', Key: `avatars/${path}` });
      }),
    );
    const data = new Blob([new Uint8Array(8)], { type: 'image/png' });
    const name = await service().uploadAvatar(USER_ID, { name: 'me.png', type: 'image/png', size: 8, data });
    expect(name).toBe(`${USER_ID}-${NOW}.png`);
    expect(path).toBe(name);
    expect(upsert).toBe('true');
    expect(cacheControl).toBe('3600');

    // The file is not checked here (the profile machine does that): the bucket's refusal comes back as it said it.
    path = '';
    server.use(
      http.post(`${ORIGIN}/storage/v1/object/avatars/:name`, ({ params }) => {
        path = String(params['name']);
        const message = 'mime type image/svg+xml is not supported';
        return HttpResponse.json(
          { statusCode: '415', code: 'invalid_mime_type', error: 'invalid_mime_type', message },
          { status: 415 },
        );
      }),
    );
    const svg = new Blob(['<svg/>'], { type: 'image/svg+xml' });
    const error = await refusal(
      service().uploadAvatar(USER_ID, { name: 'a.svg', type: 'image/svg+xml', size: 6, data: svg }),
    );
    expect(error).toMatchObject({
      status: 415,
      code: 'invalid_mime_type',
      message: 'mime type image/svg+xml is not supported',
    });
    expect(path).toBe(`${USER_ID}-${NOW}.bin`);
  });

  it('builds the public avatar URL without a request', () => {
    expect(service().avatarPublicUrl('x-1.png')).toBe(`${ORIGIN}/storage/v1/object/public/avatars/x-1.png`);
  });

  it('invokes record-transaction with the hash and reads whether it recorded', async () => {
    let sent: unknown = null;
    server.use(
      http.post(`${ORIGIN}/functions/v1/record-transaction`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ recorded: false, transaction: { tx_hash: '0xab' } });
      }),
    );
    expect(await service().recordTransaction('0xab')).toEqual({ recorded: false });
    expect(sent).toEqual({ txHash: '0xab' });
  });
});

describe('wallet proofs on the wire', () => {
  const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const VERIFIED = { ...PROFILE, wallet_address: ADDRESS, wallet_verified_at: '2026-11-21T00:00:01+00:00' };

  it('clears the wallet with an upsert of wallet_address null, and nothing else', async () => {
    let sent: unknown = null;
    let url = new URL(ORIGIN);
    server.use(
      http.post(`${ORIGIN}/rest/v1/profiles`, async ({ request }) => {
        url = new URL(request.url);
        sent = await request.json();
        return HttpResponse.json({ ...PROFILE, wallet_address: null, wallet_verified_at: null });
      }),
    );
    expect(await service().clearWallet(USER_ID)).toMatchObject({
      wallet_address: null,
      wallet_verified_at: null,
    });
    expect(sent).toEqual({ id: USER_ID, wallet_address: null });
    expect(url.searchParams.get('on_conflict')).toBe('id');
  });

  it('asks link-wallet for a nonce for the address, then sends it the message and the signature', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${ORIGIN}/functions/v1/link-wallet`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        return 'address' in body
          ? HttpResponse.json({ nonce: 'Abc123def456ghi789', expiresAt: '2026-11-21T00:10:00.000Z' })
          : HttpResponse.json({ profile: VERIFIED });
      }),
    );
    expect(await service().requestWalletNonce(ADDRESS)).toEqual({
      nonce: 'Abc123def456ghi789',
      expiresAt: '2026-11-21T00:10:00.000Z',
    });
    const proof = { message: 'signed', signature: `0x${'ab'.repeat(65)}` };
    expect(await service().linkWallet(proof)).toEqual(VERIFIED);
    expect(bodies).toEqual([{ address: ADDRESS }, proof]);
  });

  it.each([
    ['proof_expired', 403, 'The nonce has expired; start linking again'],
    ['proof_replayed', 403, 'This signed message has already been used; start linking again'],
    ['wallet_taken', 409, 'This wallet is already linked to another account.'],
    ['malformed', 400, 'The body must be JSON'],
  ])("keeps link-wallet's %s refusal: its code, status and message", async (code, status, message) => {
    server.use(
      http.post(`${ORIGIN}/functions/v1/link-wallet`, () =>
        HttpResponse.json({ error: 'Refused', code, message }, { status }),
      ),
    );
    const refused = await refusal(service().linkWallet({ message: 'm', signature: '0x00' }));
    expect(refused).toMatchObject({ code, status, message });
    expect(await refusal(service().requestWalletNonce(ADDRESS))).toMatchObject({ code, status });
  });

  it('names link-wallet when it fails without JSON, and refuses answers it cannot use', async () => {
    server.use(
      http.post(`${ORIGIN}/functions/v1/link-wallet`, () => new HttpResponse('<html>', { status: 502 })),
    );
    expect((await refusal(service().requestWalletNonce(ADDRESS))).message).toMatch(
      /link-wallet failed with HTTP 502/,
    );
    server.use(
      http.post(`${ORIGIN}/functions/v1/link-wallet`, () =>
        HttpResponse.json({
          nonce: 'has spaces!',
          expiresAt: 'tomorrow',
          profile: { wallet_address: ADDRESS },
        }),
      ),
    );
    expect((await refusal(service().requestWalletNonce(ADDRESS))).message).toMatch(/without a usable nonce/);
    expect((await refusal(service().linkWallet({ message: 'm', signature: '0x00' }))).message).toMatch(
      /without the linked profile/,
    );
  });
});

describe('Sign in with Ethereum on the wire', () => {
  const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  const STATEMENT = 'Sign in to the DDEX Token Portal with this wallet.';

  const session = (user: Record<string, unknown>) => ({
    access_token: 'access',
    token_type: 'bearer',
    expires_in: 3600,
    refresh_token: 'refresh',
    user,
  });

  it('sends the message and signature the wallet made, unchanged, and answers the web3 user', async () => {
    let grant: Record<string, unknown> = {};
    server.use(
      http.post(`${ORIGIN}/auth/v1/token`, async ({ request }) => {
        expect(new URL(request.url).searchParams.get('grant_type')).toBe('web3');
        grant = (await request.json()) as Record<string, unknown>;
        const providerId = `web3:ethereum:${account.address}`;
        return HttpResponse.json(
          session({
            id: USER_ID,
            aud: 'authenticated',
            email: '',
            app_metadata: { provider: 'web3' },
            user_metadata: { sub: providerId },
            identities: [
              {
                id: providerId,
                identity_id: 'i-1',
                user_id: USER_ID,
                provider: 'web3',
                identity_data: { sub: providerId, custom_claims: { address: account.address } },
              },
            ],
            created_at: '2026-11-21T00:00:00Z',
          }),
        );
      }),
    );
    const message = siweMessage({
      url: SITE_URL,
      chainId: 31337,
      address: account.address,
      nonce: 'Abc123def456ghi789',
      now: new Date(NOW),
      statement: STATEMENT,
    });
    const signature = await account.signMessage({ message });
    const user = await service().signInWithWallet({ message, signature });
    expect(user).toEqual({
      id: USER_ID,
      email: null,
      emailConfirmedAt: null,
      web3Address: account.address,
      metadata: {},
    });
    expect(grant).toEqual({ chain: 'ethereum', message, signature });
    expect(await recoverMessageAddress({ message, signature: grant['signature'] as Hex })).toBe(
      account.address,
    );
  });

  it("passes on the backend's refusal with its words", async () => {
    server.use(
      http.post(`${ORIGIN}/auth/v1/token`, () =>
        HttpResponse.json(
          { error: 'invalid_grant', error_description: 'Signed Ethereum message is expired' },
          { status: 400 },
        ),
      ),
    );
    const refused = await refusal(service().signInWithWallet({ message: 'm', signature: '0x00' }));
    expect(refused).toMatchObject({ status: 400, message: 'Signed Ethereum message is expired' });
  });
});

describe('faults on the wire', () => {
  it('passes on the function’s message and status', async () => {
    server.use(
      http.post(`${ORIGIN}/functions/v1/record-transaction`, () =>
        HttpResponse.json({ error: 'No wallet linked', message: 'Link a wallet first' }, { status: 409 }),
      ),
    );
    expect(await refusal(service().recordTransaction('0xab'))).toMatchObject({
      message: 'Link a wallet first',
      status: 409,
      code: null,
    });
  });

  it('names the status when the function answers a 5xx without JSON', async () => {
    server.use(
      http.post(
        `${ORIGIN}/functions/v1/record-transaction`,
        () => new HttpResponse('<html>', { status: 502 }),
      ),
    );
    const error = await refusal(service().recordTransaction('0xab'));
    expect(error).toMatchObject({ status: 502 });
    expect(error.message).toMatch(/record-transaction failed with HTTP 502/);
  });

  it('refuses a function answer that does not say whether it recorded', async () => {
    server.use(http.post(`${ORIGIN}/functions/v1/record-transaction`, () => HttpResponse.json({ ok: true })));
    const error = await refusal(service().recordTransaction('0xab'));
    expect(error.message).toMatch(/without saying whether it recorded/);
  });

  it.each([
    [
      'a table write',
      (s: SupabaseService) => s.clearNotifications(USER_ID),
      'delete',
      '/rest/v1/user_notifications',
    ],
    [
      'a sign-in',
      (s: SupabaseService) => s.signIn({ email: 'a@example.com', password: 'x' }),
      'post',
      '/auth/v1/token',
    ],
    [
      'a function',
      (s: SupabaseService) => s.recordTransaction('0xab'),
      'post',
      '/functions/v1/record-transaction',
    ],
    [
      'an upload',
      (s: SupabaseService) =>
        s.uploadAvatar(USER_ID, { name: 'a.png', type: 'image/png', size: 1, data: new Blob(['x']) }),
      'post',
      '/storage/v1/object/avatars/:name',
    ],
  ] as const)('reports %s that got no answer as network_error', async (_what, call, method, path) => {
    server.use(http[method](`${ORIGIN}${path}`, () => HttpResponse.error()));
    const error = await refusal(call(service()));
    expect(error).toMatchObject({ code: NETWORK_ERROR, status: null });
    expect(error.message).not.toBe('');
  });

  it('passes on a 5xx of the storage server with its message', async () => {
    server.use(
      http.post(`${ORIGIN}/storage/v1/object/avatars/:name`, () =>
        HttpResponse.json({ statusCode: '500', error: 'Internal', message: 'disk full' }, { status: 500 }),
      ),
    );
    const data = new Blob(['x'], { type: 'image/png' });
    const error = await refusal(
      service().uploadAvatar(USER_ID, { name: 'a.png', type: 'image/png', size: 1, data }),
    );
    expect(error).toMatchObject({ status: 500, message: 'disk full' });
  });
});

describe("an emailed link's session (src/app/email-link.ts)", () => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const accessToken = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: USER_ID, exp: Math.floor(Date.now() / 1000) + 3600 })}.c2lnbmF0dXJl`;
  const userJson = {
    id: USER_ID,
    aud: 'authenticated',
    email: 'a@example.com',
    app_metadata: { provider: 'email' },
    user_metadata: {},
    created_at: '2026-11-21T00:00:00Z',
  };

  function linkService(type: string) {
    const client = createSupabaseClient({ url: ORIGIN, anonKey: 'anon-key', realtimeTransport: WebSocket });
    return createSupabaseService(client, {
      siteUrl: SITE_URL,
      now: () => NOW,
      emailLink: { type, accessToken, refreshToken: 'refresh' },
    });
  }

  it('is the session read, and a recovery link is told to this page once, as PASSWORD_RECOVERY', async () => {
    const bearers: (string | null)[] = [];
    server.use(
      http.get(`${ORIGIN}/auth/v1/user`, ({ request }) => {
        bearers.push(request.headers.get('authorization'));
        return HttpResponse.json(userJson);
      }),
    );
    const linked = linkService('recovery');
    const heard: string[] = [];
    const stop = linked.onAuthChange((change) => heard.push(`${change.event} ${change.user?.id ?? ''}`));
    const user = await linked.getSession();
    expect(user?.id).toBe(USER_ID);
    expect(bearers).toEqual([`Bearer ${accessToken}`]);
    await linked.getSession();
    expect(heard.filter((line) => line.startsWith('PASSWORD_RECOVERY'))).toEqual([
      `PASSWORD_RECOVERY ${USER_ID}`,
    ]);
    stop();
  });

  it('that the backend refuses fails the first read only; the next reads the stored session', async () => {
    server.use(
      http.get(`${ORIGIN}/auth/v1/user`, () =>
        HttpResponse.json({ code: 403, error_code: 'bad_jwt', msg: 'invalid JWT' }, { status: 403 }),
      ),
    );
    const linked = linkService('recovery');
    expect((await refusal(linked.getSession())).code).toBe('bad_jwt');
    expect(await linked.getSession()).toBeNull();
  });

  it('of a sign-up confirmation signs in, without PASSWORD_RECOVERY', async () => {
    server.use(http.get(`${ORIGIN}/auth/v1/user`, () => HttpResponse.json(userJson)));
    const linked = linkService('signup');
    const heard: string[] = [];
    const stop = linked.onAuthChange((change) => heard.push(change.event));
    expect((await linked.getSession())?.id).toBe(USER_ID);
    expect(heard).toContain('SIGNED_IN');
    expect(heard).not.toContain('PASSWORD_RECOVERY');
    stop();
  });
});
