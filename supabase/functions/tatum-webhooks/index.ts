// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy tatum-webhooks` (JWT verification stays on: the caller is a
// signed-in user of the portal, and the handler resolves who from the same token). Set
// TATUM_API_KEY and RPC_URL with `supabase secrets set`; SUPABASE_URL and
// SUPABASE_SERVICE_ROLE_KEY are provided by the platform.
import { createClient } from '@supabase/supabase-js';
import { withCors } from '../_shared/cors.ts';
import type { Database } from '../_shared/database.types.ts';
import { optional, required } from '../_shared/env.ts';
import { createTatumApi } from '../_shared/tatum.ts';
import { createTatumWebhooksHandler } from './handler.ts';

const supabaseUrl = required('tatum-webhooks', 'SUPABASE_URL');
const supabase = createClient<Database>(
  supabaseUrl,
  required('tatum-webhooks', 'SUPABASE_SERVICE_ROLE_KEY'),
  {
    // A server function acts as the service role on each request; there is no session to keep.
    auth: { persistSession: false, autoRefreshToken: false },
  },
);

const handle = createTatumWebhooksHandler({
  supabase,
  // TATUM_API_URL only points the SDK at the local stack's emulator; CHAIN_ID 1 is mainnet, any
  // other chain is Sepolia to Tatum.
  tatum: createTatumApi({
    apiKey: required('tatum-webhooks', 'TATUM_API_KEY'),
    apiUrl: optional('TATUM_API_URL'),
    rpcUrl: required('tatum-webhooks', 'RPC_URL'),
    mainnet: optional('CHAIN_ID') === '1',
  }),
  // Where Tatum posts each event: this project's process-payments, as the portal chose before.
  callbackUrl: `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/process-payments`,
});

Deno.serve(withCors(['GET', 'POST', 'DELETE'], handle));
