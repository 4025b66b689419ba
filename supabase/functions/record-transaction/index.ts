// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy record-transaction` (JWT verification stays on:
// the caller is a signed-in user of the portal, and the handler resolves who
// from the same token). Set RPC_URL and DDEX_TOKEN_ADDRESS with
// `supabase secrets set`, and UNISWAP_V2_ROUTER (the app's VITE_UNISWAP_V2_ROUTER)
// to record swaps on the DDEX/WETH pair, and FAUCET_ADDRESS (the faucet function's wallet) so
// that a claim is a `faucet` row; SUPABASE_URL and
// SUPABASE_SERVICE_ROLE_KEY are provided by the platform.
import { createClient } from '@supabase/supabase-js';
import { withCors } from '../_shared/cors.ts';
import type { Database } from '../_shared/database.types.ts';
import { optional, required } from '../_shared/env.ts';
import { createRecordTransactionHandler } from './handler.ts';

const supabase = createClient<Database>(
  required('record-transaction', 'SUPABASE_URL'),
  required('record-transaction', 'SUPABASE_SERVICE_ROLE_KEY'),
  {
    // A server function acts as the service role on each request; there is no session to keep.
    auth: { persistSession: false, autoRefreshToken: false },
  },
);

const handle = createRecordTransactionHandler({
  supabase,
  rpcUrl: required('record-transaction', 'RPC_URL'),
  tokenAddress: required('record-transaction', 'DDEX_TOKEN_ADDRESS'),
  uniswapRouter: optional('UNISWAP_V2_ROUTER'),
  faucetAddress: optional('FAUCET_ADDRESS'),
});

Deno.serve(withCors(['POST'], handle));
