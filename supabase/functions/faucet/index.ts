// Supabase Edge Functions entry point (Deno). Deploy with `supabase functions deploy faucet` (JWT
// verification stays on: the caller is a signed-in user, whose proven wallet is paid). Set with
// `supabase secrets set`: RPC_URL, CHAIN_ID, DDEX_TOKEN_ADDRESS, FAUCET_PRIVATE_KEY (a wallet the
// deployer funds with DDEX and ETH for gas), HCAPTCHA_SECRET and HCAPTCHA_SITEKEY, and optionally
// FAUCET_AMOUNT (DDEX per claim, default 100), FAUCET_ETH_AMOUNT (ETH per claim, default 0) and
// HCAPTCHA_VERIFY_URL (hCaptcha's siteverify by default). docs/deploy.md#the-faucet has the steps.
import { createClient } from '@supabase/supabase-js';
import type { Address, Hex } from 'viem';
import { ADDRESS } from '../_shared/address.ts';
import { withCors } from '../_shared/cors.ts';
import type { Database } from '../_shared/database.types.ts';
import { optional, required } from '../_shared/env.ts';
import { createFaucetHandler } from './handler.ts';
import { HCAPTCHA_VERIFY_URL } from './human-check.ts';

const supabase = createClient<Database>(
  required('faucet', 'SUPABASE_URL'),
  required('faucet', 'SUPABASE_SERVICE_ROLE_KEY'),
  { auth: { persistSession: false, autoRefreshToken: false } },
);

const token = required('faucet', 'DDEX_TOKEN_ADDRESS');
if (!ADDRESS.test(token)) throw new Error('faucet: DDEX_TOKEN_ADDRESS must be an address');
const key = required('faucet', 'FAUCET_PRIVATE_KEY');
if (!/^0x[0-9a-fA-F]{64}$/.test(key))
  throw new Error('faucet: FAUCET_PRIVATE_KEY must be 0x and 64 hex digits');

const handle = createFaucetHandler({
  supabase,
  rpcUrl: required('faucet', 'RPC_URL'),
  chainId: Number(required('faucet', 'CHAIN_ID')),
  tokenAddress: token as Address,
  faucetKey: key as Hex,
  amount: optional('FAUCET_AMOUNT') ?? '100',
  ethAmount: optional('FAUCET_ETH_AMOUNT') ?? '0',
  human: {
    secret: required('faucet', 'HCAPTCHA_SECRET'),
    siteKey: optional('HCAPTCHA_SITEKEY'),
    verifyUrl: optional('HCAPTCHA_VERIFY_URL') ?? HCAPTCHA_VERIFY_URL,
  },
});

Deno.serve(withCors(['POST'], handle));
