import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from './database.types.ts';

// Who a request is: the user whose session token it carries, as GoTrue says with the service-role
// client, or a holder of one of the project's keys. Neither is ever logged or answered back.

/** The token in `Authorization: Bearer <token>`, or null. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** The signed-in caller's user id, or null when the request carries no user's valid session. */
export async function callerId(supabase: SupabaseClient<Database>, request: Request): Promise<string | null> {
  const jwt = bearerToken(request.headers.get('authorization'));
  if (jwt === null) return null;
  const auth = await supabase.auth.getUser(jwt);
  if (auth.error) {
    // A 4xx is GoTrue refusing the token (expired, forged, a key rather than a user's token);
    // anything else means GoTrue itself failed, which is not the caller's fault.
    const status = auth.error.status ?? 0;
    if (status < 400 || status >= 500) throw new Error(`resolving the caller failed: ${auth.error.message}`);
  }
  return auth.data.user?.id ?? null;
}

const encoder = new TextEncoder();

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/**
 * Whether a presented key is one of `keys`, in time that says nothing about the keys: both sides
 * are hashed first, so the loop compares equal lengths and neither a key's length nor how much of
 * it matched shows, every byte is compared, and so is every key, so neither does which one
 * matched. Web Crypto only, so it runs under Deno (deployed) and Node (the local stack) alike. An
 * empty key is never one of them.
 */
export async function isOneOfKeys(presented: string | null, keys: readonly string[]): Promise<boolean> {
  const digest = await sha256(presented ?? '');
  let found = false;
  for (const key of keys) {
    const expected = await sha256(key);
    let difference = 0;
    for (let i = 0; i < digest.length; i++) difference |= (digest[i] ?? 0) ^ (expected[i] ?? 0);
    found = (difference === 0 && key !== '') || found;
  }
  return found;
}
