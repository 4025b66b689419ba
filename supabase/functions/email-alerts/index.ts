// Supabase Edge Functions entry point (Deno). Deploy with
// `supabase functions deploy email-alerts --no-verify-jwt`: its callers are the project's own
// Database Webhook on email_outbox and scheduled retry, which send the service role key, no
// user's JWT; the handler checks that key itself. Set with `supabase secrets set`: SMTP_HOST,
// SMTP_PORT (465 on a hosted project: ports 25 and 587 are closed to Edge Functions), SMTP_USER
// and SMTP_PASS (both, or neither), SMTP_ADMIN_EMAIL and SMTP_SENDER_NAME (the sender),
// EMAIL_UNSUBSCRIBE_SECRET and SITE_URL; EMAIL_RETRY_BASE_MS optionally (the first retry's delay,
// 30 s). SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are provided by the platform.
// docs/deploy.md#email-alerts has the steps.
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../_shared/database.types.ts';
import { optional, required } from '../_shared/env.ts';
import { portalOrigin } from '../_shared/portal.ts';
import { createSmtpMailer } from '../_shared/smtp.ts';
import { createEmailAlertsHandler, RETRY_BASE_MS } from './handler.ts';

const supabaseUrl = required('email-alerts', 'SUPABASE_URL');
const serviceRoleKey = required('email-alerts', 'SUPABASE_SERVICE_ROLE_KEY');
const supabase = createClient<Database>(supabaseUrl, serviceRoleKey, {
  // A server function acts as the service role on each request; there is no session to keep.
  auth: { persistSession: false, autoRefreshToken: false },
});
const siteUrl = required('email-alerts', 'SITE_URL');
const user = optional('SMTP_USER');
const pass = optional('SMTP_PASS');
if ((user === null) !== (pass === null))
  throw new Error('email-alerts: set both SMTP_USER and SMTP_PASS, or neither');
const retryBase = Number(optional('EMAIL_RETRY_BASE_MS') ?? RETRY_BASE_MS);
if (!Number.isFinite(retryBase) || retryBase < 0)
  throw new Error('email-alerts: EMAIL_RETRY_BASE_MS must be milliseconds');

Deno.serve(
  createEmailAlertsHandler({
    supabase,
    mailer: createSmtpMailer({
      host: required('email-alerts', 'SMTP_HOST'),
      port: Number(required('email-alerts', 'SMTP_PORT')),
      user,
      pass,
      clientName: new URL(portalOrigin(siteUrl)).hostname,
    }),
    from: {
      address: required('email-alerts', 'SMTP_ADMIN_EMAIL'),
      name: optional('SMTP_SENDER_NAME') ?? 'DDEX Token Portal',
    },
    siteUrl,
    supabaseUrl,
    unsubscribeSecret: required('email-alerts', 'EMAIL_UNSUBSCRIBE_SECRET'),
    callerKeys: [serviceRoleKey],
    retryBaseMs: retryBase,
    secrets: pass ? [pass] : [],
  }),
);
