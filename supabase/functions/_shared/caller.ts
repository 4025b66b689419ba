import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from './database.types.ts';

// Who a request is: the user whose session token it carries, as GoTrue says with the service-role
// client. The token is never logged or answered back.

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
