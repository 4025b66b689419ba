// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy market-bots --no-verify-jwt`: the caller is Tatum, which sends no
// Supabase JWT; the handler checks x-payload-hash instead. Subscribe the DDEX/WETH pair's address
// to this function's URL (an ADDRESS_EVENT subscription, docs/deploy.md). Set
// TATUM_WEBHOOK_SECRET, TATUM_CHAIN, RPC_URL, UNISWAP_V2_ROUTER and DDEX_TOKEN_ADDRESS with
// `supabase secrets set`; SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are provided by the platform.
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../_shared/database.types.ts';
import { required } from '../_shared/env.ts';
import { createMarketBotsHandler } from './handler.ts';

const supabase = createClient<Database>(
  required('market-bots', 'SUPABASE_URL'),
  required('market-bots', 'SUPABASE_SERVICE_ROLE_KEY'),
  {
    // A server function acts as the service role on each request; there is no session to keep.
    auth: { persistSession: false, autoRefreshToken: false },
  },
);

Deno.serve(
  createMarketBotsHandler({
    webhookSecret: required('market-bots', 'TATUM_WEBHOOK_SECRET'),
    supabase,
    // Required: another network's deliveries are answered 200 and evaluated nowhere.
    chain: required('market-bots', 'TATUM_CHAIN'),
    rpcUrl: required('market-bots', 'RPC_URL'),
    uniswapRouter: required('market-bots', 'UNISWAP_V2_ROUTER'),
    tokenAddress: required('market-bots', 'DDEX_TOKEN_ADDRESS'),
  }),
);
