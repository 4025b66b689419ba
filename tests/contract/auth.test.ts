import type { AuthChangeEvent } from '@supabase/supabase-js';
import { describe, expect, inject, it } from 'vitest';
import { anonClient, PASSWORD, signedInUser, uniqueEmail } from '../support/stack/users.ts';

// The auth calls (docs/product.md#calls) against the local stack with email confirmations off
// (the default): sign-up yields a session straight away.
const stack = inject('gateway');

describe('auth with confirmations off', () => {
  it('signs up with a redirect and returns a session for the new user', async () => {
    const client = anonClient(stack);
    const email = uniqueEmail('signup');
    const { data, error } = await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: 'http://127.0.0.1:5173' },
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.session?.access_token).toEqual(expect.any(String));
    expect(data.session?.refresh_token).toEqual(expect.any(String));
    expect(data.session?.token_type).toBe('bearer');
  });

  it('signs in with the password, reads the session and signs out', async () => {
    const { email } = await signedInUser(stack, 'login');
    const client = anonClient(stack);
    const signIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.email).toBe(email);

    const { data: sessionData } = await client.auth.getSession();
    expect(sessionData.session?.user.email).toBe(email);
    expect(sessionData.session?.expires_at).toBeGreaterThan(Date.now() / 1000);

    expect((await client.auth.signOut()).error).toBeNull();
    expect((await client.auth.getSession()).data.session).toBeNull();
    // The signed-out refresh token no longer works.
    const refresh = await client.auth.refreshSession({
      refresh_token: signIn.data.session?.refresh_token ?? '',
    });
    expect(refresh.error).not.toBeNull();
  });

  it('refuses a wrong password with invalid_credentials', async () => {
    const { email } = await signedInUser(stack, 'wrongpass');
    const { data, error } = await anonClient(stack).auth.signInWithPassword({
      email,
      password: 'not-it-1234',
    });
    expect(data.session).toBeNull();
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('invalid_credentials');
    expect(error?.message).toMatch(/invalid/i);
  });

  it('refuses a second sign-up with the same email and a weak password, with server messages', async () => {
    const { email } = await signedInUser(stack, 'dupe');
    const dupe = await anonClient(stack).auth.signUp({ email, password: PASSWORD });
    expect(dupe.error?.code).toBe('user_already_exists');
    expect(dupe.error?.message).toEqual(expect.any(String));

    const weak = await anonClient(stack).auth.signUp({ email: uniqueEmail('weak'), password: '1' });
    expect(weak.error?.code).toBe('weak_password');
    expect(weak.data.session).toBeNull();
  });

  it('updates the user metadata the portal keeps (wallet, username, avatar, full name)', async () => {
    const { client, id } = await signedInUser(stack, 'meta');
    expect((await client.from('profiles').upsert({ id })).error).toBeNull();
    const metadata = {
      wallet_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      username: 'meta-user',
      avatar_url: 'http://127.0.0.1/avatar.png',
      full_name: 'Meta User',
    };
    const { data, error } = await client.auth.updateUser({ data: metadata });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject(metadata);
    const fetched = await client.auth.getUser();
    expect(fetched.data.user?.user_metadata).toMatchObject(metadata);
    // The metadata is the user's own say: its wallet links nothing. Only a proof does
    // (tests/contract/link-wallet.test.ts).
    const profile = await client
      .from('profiles')
      .select('wallet_address, wallet_verified_at')
      .eq('id', id)
      .single();
    expect(profile.data).toEqual({ wallet_address: null, wallet_verified_at: null });
  });

  it('emits the session events the portal listens to', async () => {
    const { email } = await signedInUser(stack, 'events');
    const client = anonClient(stack);
    const events: AuthChangeEvent[] = [];
    const { data: subscription } = client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    await client.auth.initialize();
    await client.auth.signInWithPassword({ email, password: PASSWORD });
    await client.auth.refreshSession();
    await client.auth.updateUser({ data: { username: 'evented' } });
    await client.auth.signOut();
    subscription.subscription.unsubscribe();
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_IN', 'TOKEN_REFRESHED', 'USER_UPDATED', 'SIGNED_OUT']);
  });

  it('answers a browser’s preflight for the headers supabase-js sends to auth', async () => {
    const response = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'apikey,authorization,content-type,x-client-info,x-supabase-api-version',
      },
    });
    expect(response.ok).toBe(true);
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').split(/,\s*/);
    for (const header of [
      'apikey',
      'authorization',
      'content-type',
      'x-client-info',
      'x-supabase-api-version',
    ]) {
      expect(allowed).toContain(header);
    }
  });
});
