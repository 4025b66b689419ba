// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy process-payments --no-verify-jwt`: the caller is
// Tatum, which sends no Supabase JWT; the handler checks x-payload-hash instead.
// Set TATUM_WEBHOOK_SECRET (and DDEX_TOKEN_ADDRESS) with `supabase secrets set`;
// SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are provided by the platform.
import { createClient } from 'npm:@supabase/supabase-js@2';
import type { Database } from '../../../src/domain/database.types.ts';
import { createProcessPaymentsHandler } from './handler.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(handler: (request: Request) => Promise<Response>): void;
};

function required(name: string): string {
  const value = Deno.env.get(name);
  // Refuse to serve at all rather than accept deliveries that cannot be verified or recorded.
  if (!value) throw new Error(`process-payments: ${name} is not set`);
  return value;
}

const supabase = createClient<Database>(required('SUPABASE_URL'), required('SUPABASE_SERVICE_ROLE_KEY'), {
  // A server function acts as the service role on each request; there is no session to keep.
  auth: { persistSession: false, autoRefreshToken: false },
});

Deno.serve(
  createProcessPaymentsHandler({
    webhookSecret: required('TATUM_WEBHOOK_SECRET'),
    supabase,
    tokenAddress: Deno.env.get('DDEX_TOKEN_ADDRESS') ?? null,
  }),
);
