import { createClient, type SupabaseClient, type WebSocketLikeConstructor } from '@supabase/supabase-js';
import type { Database } from '../../domain/database.types.ts';

export type SupabaseClientConfig = {
  url: string;
  anonKey: string;
  /**
   * The WebSocket constructor for realtime. Browsers leave it out; Node 20
   * needs the `ws` package, which supabase-js's types do not quite match.
   */
  realtimeTransport?: unknown;
};

/**
 * The portal's one supabase-js client: the anonymous key, the session as bearer token
 * (docs/product.md#roles).
 */
export function createSupabaseClient(config: SupabaseClientConfig): SupabaseClient<Database> {
  return createClient<Database>(config.url, config.anonKey, {
    // The machines decide when to read again (the profile's and the feed's back-off, a user's
    // refresh); postgrest-js's own retries would only hold a failure back for 7 s before anyone
    // hears of it.
    db: { retry: false },
    // An emailed link's session is taken out of the address by the boot (src/app/email-link.ts),
    // which replaces the history entry; supabase-js would clear it with `location.hash = ''`, a new
    // entry that leaves the tokens in the one before, and would tell every tab of a recovery.
    auth: { detectSessionInUrl: false },
    ...(config.realtimeTransport === undefined
      ? {}
      : { realtime: { transport: config.realtimeTransport as WebSocketLikeConstructor } }),
  });
}
