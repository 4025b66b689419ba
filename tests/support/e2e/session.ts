import type { Session } from '@supabase/supabase-js';
import { anonClient, PASSWORD, uniqueEmail, type StackInfo, type TestUser } from '../stack/users.ts';

// A user signed in before the portal opens: made through the gateway's auth API from Node, and
// handed to the page as the session supabase-js would have stored after signing them in there.
// A test whose subject is not the sign-up itself opens the portal signed in this way, and spends
// neither the Sign Up dialog nor a second password check on it.

/** A user of the local stack with the session their sign-up answered (confirmations off). */
export type SeededUser = TestUser & { session: Session };

/**
 * Signs a fresh user up through the gateway's auth API. The id and the session come from the
 * sign-up's own answer; `client` is signed in as the user, as another app of theirs would be.
 */
export async function signUpByApi(gateway: StackInfo, label: string): Promise<SeededUser> {
  const client = anonClient(gateway);
  const email = uniqueEmail(label);
  const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
  if (error || !data.user || !data.session)
    throw new Error(`sign-up failed: ${error?.message ?? 'no session (are confirmations on?)'}`);
  return {
    client,
    id: data.user.id,
    email,
    password: PASSWORD,
    accessToken: data.session.access_token,
    session: data.session,
  };
}

/**
 * The localStorage key supabase-js keeps a project's session under: `createClient` names it
 * `sb-<first label of the project URL's host name>-auth-token` (supabase-js's SupabaseClient
 * constructor; auth-js's own default, 'supabase.auth.token', is never used) unless the client sets
 * `auth.storageKey`, which the portal's (src/services/supabase/client.ts) does not. For a gateway
 * on 127.0.0.1 that is `sb-127-auth-token`.
 */
export function sessionStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split('.')[0] ?? ''}-auth-token`;
}

/**
 * What auth-js writes under that key after a sign-in: the session as its API answered it (tokens,
 * `expires_at`, the user), as JSON. auth-js reads it back at start and takes the user as signed
 * in when it has an access token, a refresh token and `expires_at`.
 */
export function storedSession(session: Session): string {
  return JSON.stringify(session);
}

/** The init script's argument: where to store the session, on which origin only. */
export type SessionSeed = { origin: string; key: string; value: string };

/**
 * Runs in each new document before its scripts (`addInitScript`): stores the session on the
 * app's origin, where the portal's supabase-js finds it. Other documents (about:blank, a frame of
 * another origin) are left alone.
 */
export function seedSession(seed: SessionSeed): void {
  if (location.origin !== seed.origin) return;
  localStorage.setItem(seed.key, seed.value);
}
