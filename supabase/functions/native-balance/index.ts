// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy native-balance --no-verify-jwt`: visitors call it with the project's
// anon (publishable) key, which is no JWT; the handler checks that key itself. Set TATUM_API_KEY
// and RPC_URL (and optionally BALANCE_RATE_LIMIT, `<requests>/<seconds>` per client, default 30/60,
// BALANCE_RATE_CEILING, the same for all clients together, default twenty times the former, and
// PUBLISHABLE_KEY when the project's publishable key is not SUPABASE_ANON_KEY) with
// `supabase secrets set`; SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY are
// provided by the platform.
import { createClient } from '@supabase/supabase-js';
import { withCors } from '../_shared/cors.ts';
import type { Database } from '../_shared/database.types.ts';
import { optional, required } from '../_shared/env.ts';
import { createTatumApi } from '../_shared/tatum.ts';
import { createNativeBalanceHandler, DEFAULT_RATE_LIMIT, defaultCeiling, parseRateLimit } from './handler.ts';

const supabase = createClient<Database>(
  required('native-balance', 'SUPABASE_URL'),
  required('native-balance', 'SUPABASE_SERVICE_ROLE_KEY'),
  { auth: { persistSession: false, autoRefreshToken: false } },
);

const limitSetting = optional('BALANCE_RATE_LIMIT');
const limit = limitSetting === null ? DEFAULT_RATE_LIMIT : parseRateLimit(limitSetting);
if (limit === null) throw new Error('native-balance: BALANCE_RATE_LIMIT must be <requests>/<seconds>');
const ceilingSetting = optional('BALANCE_RATE_CEILING');
const ceiling = ceilingSetting === null ? defaultCeiling(limit) : parseRateLimit(ceilingSetting);
if (ceiling === null) {
  throw new Error('native-balance: BALANCE_RATE_CEILING must be <requests>/<seconds>');
}

const handle = createNativeBalanceHandler({
  supabase,
  // TATUM_API_URL only points the SDK at the local stack's emulator; CHAIN_ID 1 is mainnet, any
  // other chain is Sepolia to Tatum.
  tatum: createTatumApi({
    apiKey: required('native-balance', 'TATUM_API_KEY'),
    apiUrl: optional('TATUM_API_URL'),
    rpcUrl: required('native-balance', 'RPC_URL'),
    mainnet: optional('CHAIN_ID') === '1',
  }),
  apiKeys: [required('native-balance', 'SUPABASE_ANON_KEY'), optional('PUBLISHABLE_KEY') ?? ''],
  limit,
  ceiling,
});

Deno.serve(withCors(['POST'], handle));
