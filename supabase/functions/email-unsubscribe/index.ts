// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy email-unsubscribe --no-verify-jwt`: its callers are whoever holds an
// alert email (the portal's unsubscribe page, or a mail client's one-click POST), who sends no
// JWT; the handler checks the link's signed token itself. Set EMAIL_UNSUBSCRIBE_SECRET (the same
// as email-alerts') and SITE_URL (where a GET of the link is sent on to) with `supabase secrets
// set`; SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are provided by the platform.
import { createClient } from '@supabase/supabase-js';
import { withCors } from '../_shared/cors.ts';
import type { Database } from '../_shared/database.types.ts';
import { required } from '../_shared/env.ts';
import { createEmailUnsubscribeHandler } from './handler.ts';

const supabase = createClient<Database>(
  required('email-unsubscribe', 'SUPABASE_URL'),
  required('email-unsubscribe', 'SUPABASE_SERVICE_ROLE_KEY'),
  // A server function acts as the service role on each request; there is no session to keep.
  { auth: { persistSession: false, autoRefreshToken: false } },
);

Deno.serve(
  withCors(
    ['POST'],
    createEmailUnsubscribeHandler({
      supabase,
      secret: required('email-unsubscribe', 'EMAIL_UNSUBSCRIBE_SECRET'),
      siteUrl: required('email-unsubscribe', 'SITE_URL'),
    }),
  ),
);
