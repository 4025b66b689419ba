// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy process-payments --no-verify-jwt`: the caller is
// Tatum, which sends no Supabase JWT.
import { createProcessPaymentsHandler } from './handler.ts';

declare const Deno: { serve(handler: (request: Request) => Promise<Response>): void };

Deno.serve(createProcessPaymentsHandler());
