// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy watch-wallets --no-verify-jwt`: its callers are the project's own
// Database Webhook and scheduled retry, which send the service role key, no user's JWT; the
// handler checks that key itself. Set TATUM_API_KEY and RPC_URL with `supabase secrets set`;
// SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are provided by the platform.
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../_shared/database.types.ts';
import { optional, required } from '../_shared/env.ts';
import { createTatumApi } from '../_shared/tatum.ts';
import { createWatchWalletsHandler, walletEventsUrl } from './handler.ts';

const supabaseUrl = required('watch-wallets', 'SUPABASE_URL');
const serviceRoleKey = required('watch-wallets', 'SUPABASE_SERVICE_ROLE_KEY');
const supabase = createClient<Database>(supabaseUrl, serviceRoleKey, {
  // A server function acts as the service role on each request; there is no session to keep.
  auth: { persistSession: false, autoRefreshToken: false },
});

Deno.serve(
  createWatchWalletsHandler({
    supabase,
    // TATUM_API_URL only points the SDK at the local stack's emulator; CHAIN_ID 1 is mainnet, any
    // other chain is Sepolia to Tatum.
    tatum: createTatumApi({
      apiKey: required('watch-wallets', 'TATUM_API_KEY'),
      apiUrl: optional('TATUM_API_URL'),
      rpcUrl: required('watch-wallets', 'RPC_URL'),
      mainnet: optional('CHAIN_ID') === '1',
    }),
    callbackUrl: walletEventsUrl(supabaseUrl),
    callerKeys: [serviceRoleKey],
  }),
);
