import { createClient } from '@supabase/supabase-js';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';
import { serviceClient, signedInUser } from '../support/stack/users.ts';
import { linkWithProof } from '../support/stack/wallets.ts';

// Sign in with Ethereum through the unmodified supabase-js, against the local
// stack's web3 grant (stack/gateway/web3-grant.ts), as a hosted project with the
// Ethereum Web3 provider enabled answers it.

const stack = inject('gateway');
const chain = inject('chain');
const SITE = 'http://127.0.0.1:5173';

function client() {
  return createClient<Database>(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

/** An EIP-1193 wallet holding one key, on the stack's chain, as supabase-js asks wallets. */
function walletOf(account: PrivateKeyAccount) {
  return {
    request: async ({ method, params }: { method: string; params?: unknown }) => {
      if (method === 'eth_requestAccounts') return [account.address];
      if (method === 'eth_chainId') return `0x${chain.chainId.toString(16)}`;
      if (method === 'personal_sign') {
        const [data] = params as [`0x${string}`, string];
        return account.signMessage({ message: { raw: data } });
      }
      throw new Error(`unexpected ${method}`);
    },
  };
}

/** A message in supabase-js's form, with its fields under the test's control. */
function siwe(
  account: PrivateKeyAccount,
  fields: { domain?: string; uri?: string; issuedAt?: Date; chainId?: number; expirationTime?: Date } = {},
) {
  const uri = fields.uri ?? `${SITE}/`;
  return [
    `${fields.domain ?? new URL(uri).host} wants you to sign in with your Ethereum account:`,
    account.address.toLowerCase(),
    '',
    'Sign in to DDEX',
    '',
    `URI: ${uri}`,
    'Version: 1',
    `Chain ID: ${fields.chainId ?? chain.chainId}`,
    `Issued At: ${(fields.issuedAt ?? new Date()).toISOString()}`,
    ...(fields.expirationTime ? [`Expiration Time: ${fields.expirationTime.toISOString()}`] : []),
  ].join('\n');
}

async function signIn(message: string, signature: `0x${string}`) {
  return client().auth.signInWithWeb3({ chain: 'ethereum', message, signature });
}

const keyOf = (index: number) => chain.accounts[index]?.privateKey as `0x${string}`;
const alice = privateKeyToAccount(keyOf(7));
const mallory = privateKeyToAccount(keyOf(8));

describe('Sign in with Ethereum', () => {
  it('signs in with a wallet’s signature: a session, a web3 identity, no email; again, the same user', async () => {
    const supabase = client();
    const first = await supabase.auth.signInWithWeb3({
      chain: 'ethereum',
      wallet: walletOf(alice) as never,
      statement: 'Sign in to DDEX',
      options: { url: `${SITE}/` },
    });
    expect(first.error).toBeNull();
    const { session, user } = first.data;
    expect(session?.access_token).toEqual(expect.any(String));
    expect(user?.email ?? null).toBeFalsy();
    expect(user?.app_metadata).toMatchObject({ provider: 'web3', providers: ['web3'] });
    expect(user?.identities?.[0]).toMatchObject({
      provider: 'web3',
      identity_data: { sub: `web3:ethereum:${alice.address.toLowerCase()}` },
    });
    // The session is lite's own: it reads the user, refreshes and signs out as any other.
    expect((await supabase.auth.getUser()).data.user?.id).toBe(user?.id);
    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(session?.refresh_token);
    expect((await supabase.auth.signOut()).error).toBeNull();

    const again = await client().auth.signInWithWeb3({
      chain: 'ethereum',
      wallet: walletOf(alice) as never,
      statement: 'Sign in to DDEX',
      options: { url: `${SITE}/` },
    });
    expect(again.error).toBeNull();
    expect(again.data.user?.id).toBe(user?.id);
  });

  it('refuses a message whose signature is another address’s', async () => {
    const message = siwe(alice);
    const { data, error } = await signIn(message, await mallory.signMessage({ message }));
    expect(data.session).toBeNull();
    expect(error?.status).toBe(400);
    expect(error?.message).toBe('Signature does not match address in message');
  });

  it.each([
    ['a domain other than the URI’s', { domain: 'evil.example' }, /Domain that does not match/],
    ['a site this server does not serve', { uri: 'https://evil.example/' }, /not allowed on this server/],
    [
      'an issued-at over 10 minutes old',
      { issuedAt: new Date(Date.now() - 11 * 60_000) },
      /issued too long ago/,
    ],
    [
      'an expiry that has passed',
      { issuedAt: new Date(Date.now() - 60_000), expirationTime: new Date(Date.now() - 1000) },
      /expired/,
    ],
    ['another chain', { chainId: 1 }, /for chain 1/],
  ])('refuses %s', async (_label, fields, reason) => {
    const message = siwe(alice, fields);
    const { data, error } = await signIn(message, await alice.signMessage({ message }));
    expect(data.session).toBeNull();
    expect(error?.status).toBe(400);
    expect(error?.message).toMatch(reason);
  });

  it('signs in once with a signed message: a replay is refused', async () => {
    const message = siwe(alice, { issuedAt: new Date(Date.now() - 1000) });
    const signature = await alice.signMessage({ message });
    const first = await signIn(message, signature);
    expect(first.error).toBeNull();
    const replay = await signIn(message, signature);
    expect(replay.data.session).toBeNull();
    expect(replay.error?.message).toMatch(/already been used/);
  });

  it('refuses a malformed message or signature with a clear reason', async () => {
    const tooShort = await signIn('hello', `0x${'ab'.repeat(65)}`);
    expect(tooShort.error?.message).toBe('message is too short');
    const badSignature = await signIn(siwe(alice), '0x1234');
    expect(badSignature.error?.message).toMatch(/signature must be 65 bytes/);
  });
});

describe('Sign in with Ethereum links the wallet', () => {
  const service = serviceClient(stack);
  // Fresh keys: no other test file holds their addresses, and an address has one owner.
  const freshWallet = () => privateKeyToAccount(generatePrivateKey());
  const signInWith = (account: PrivateKeyAccount, supabase = client()) =>
    supabase.auth.signInWithWeb3({
      chain: 'ethereum',
      wallet: walletOf(account) as never,
      statement: 'Sign in to DDEX',
      options: { url: `${SITE}/` },
    });

  it('gives the signed-in user a profile holding the address, verified; each later sign-in links it again', async () => {
    const wallet = freshWallet();
    const supabase = client();
    const before = Date.now();
    const { data, error } = await signInWith(wallet, supabase);
    expect(error).toBeNull();
    const userId = data.user?.id ?? '';

    // The user reads it through their own session: the address as signed, and when it was proven.
    const own = await supabase.from('profiles').select('*').eq('id', userId).single();
    expect(own.error).toBeNull();
    expect(own.data?.wallet_address?.toLowerCase()).toBe(wallet.address.toLowerCase());
    expect(Date.parse(own.data?.wallet_verified_at ?? '')).toBeGreaterThanOrEqual(before - 1000);

    // Unlinked by the owner, the wallet comes back with the next sign-in, which proves it anew.
    const unlinked = await supabase.from('profiles').upsert({ id: userId, wallet_address: null });
    expect(unlinked.error).toBeNull();
    const again = await signInWith(wallet);
    expect(again.data.user?.id).toBe(userId);
    const relinked = await service.from('profiles').select('*').eq('id', userId).single();
    expect(relinked.data?.wallet_address?.toLowerCase()).toBe(wallet.address.toLowerCase());
    expect(relinked.data?.wallet_verified_at).not.toBeNull();
  });

  it('signs in with a wallet another user has proven, but links it to no one else', async () => {
    const wallet = freshWallet();
    const alice = await signedInUser(stack, 'web3-holder');
    expect((await linkWithProof(chain, alice.client, wallet)).status).toBe(200);

    const { data, error } = await signInWith(wallet);
    expect(error).toBeNull();
    expect(data.session?.access_token).toEqual(expect.any(String));
    const newcomer = data.user?.id ?? '';
    expect(newcomer).not.toBe(alice.id);

    const holders = await service.from('profiles').select('id').ilike('wallet_address', wallet.address);
    expect(holders.data).toEqual([{ id: alice.id }]);
    const theirs = await service.from('profiles').select('*').eq('id', newcomer).maybeSingle();
    expect(theirs.data?.wallet_address ?? null).toBeNull();
  });
});
