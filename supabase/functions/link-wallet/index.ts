// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy link-wallet` (JWT verification stays on: the
// caller is a signed-in user of the portal, and the handler resolves who from
// the same token). Set RPC_URL, CHAIN_ID and SITE_URL (the portal's origin, or
// a comma-separated list of them) with `supabase secrets set`; SUPABASE_URL and
// SUPABASE_SERVICE_ROLE_KEY are provided by the platform.
import { createClient } from '@supabase/supabase-js';
import { withCors } from '../_shared/cors.ts';
import type { Database } from '../_shared/database.types.ts';
import { required } from '../_shared/env.ts';
import { createLinkWalletHandler } from './handler.ts';

const supabase = createClient<Database>(
  required('link-wallet', 'SUPABASE_URL'),
  required('link-wallet', 'SUPABASE_SERVICE_ROLE_KEY'),
  {
    // A server function acts as the service role on each request; there is no session to keep.
    auth: { persistSession: false, autoRefreshToken: false },
  },
);

const handle = createLinkWalletHandler({
  supabase,
  rpcUrl: required('link-wallet', 'RPC_URL'),
  chainId: Number(required('link-wallet', 'CHAIN_ID')),
  siteUrl: required('link-wallet', 'SITE_URL'),
});

Deno.serve(withCors(['POST'], handle));
