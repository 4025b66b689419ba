// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy process-payments --no-verify-jwt`: the caller is
// Tatum, which sends no Supabase JWT; the handler checks x-payload-hash instead.
// Set TATUM_WEBHOOK_SECRET, TATUM_CHAIN (Tatum's name of the network, e.g. ethereum-sepolia),
// DDEX_TOKEN_ADDRESS and RPC_URL (the receipts are the truth of every DDEX row) with `supabase
// secrets set`, UNISWAP_V2_ROUTER so that a swap on the DDEX/WETH market is one `swap` row, and
// FAUCET_ADDRESS (the faucet function's wallet) so that a claim is a `faucet` row; SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are provided by the platform.
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../_shared/database.types.ts';
import { optional, required } from '../_shared/env.ts';
import { createProcessPaymentsHandler } from './handler.ts';

const supabase = createClient<Database>(
  required('process-payments', 'SUPABASE_URL'),
  required('process-payments', 'SUPABASE_SERVICE_ROLE_KEY'),
  {
    // A server function acts as the service role on each request; there is no session to keep.
    auth: { persistSession: false, autoRefreshToken: false },
  },
);

const tokenAddress = optional('DDEX_TOKEN_ADDRESS');
const uniswapRouter = optional('UNISWAP_V2_ROUTER');

Deno.serve(
  createProcessPaymentsHandler({
    webhookSecret: required('process-payments', 'TATUM_WEBHOOK_SECRET'),
    supabase,
    tokenAddress,
    // Required: another network's deliveries are answered 200 and recorded nowhere, so a default
    // that does not match the deployment would lose every transfer without a word.
    chain: required('process-payments', 'TATUM_CHAIN'),
    uniswapRouter,
    // DDEX rows are read from the receipts; record-transaction requires it in any case.
    rpcUrl: tokenAddress || uniswapRouter ? required('process-payments', 'RPC_URL') : null,
    faucetAddress: optional('FAUCET_ADDRESS'),
  }),
);
