import type { SupabaseClient } from '@supabase/supabase-js';
import { bearerToken, isOneOfKeys } from '../_shared/caller.ts';
import type { Database } from '../_shared/database.types.ts';
import { refuse, reply } from '../_shared/json.ts';
import { errorLine, logError } from '../_shared/log.ts';
import type { Mailer } from '../_shared/smtp.ts';
import { makeUnsubscribeToken } from '../_shared/unsubscribe-token.ts';
import { alertMail, type AlertMailSettings } from './mail.ts';

// Sends the email alerts (migration 20261206000001): a trigger on user_notifications queues one
// row in email_outbox per notification its owner wants mailed; this drains the outbox. It claims
// the due rows (each leased to this drain alone, claim_email_alerts), sends each over SMTP and
// finishes its claim: sent, or failed and retried later, each time later (retryDelayMs). A row
// marked sent is never claimed again, and two drains at once never hold one row.
//
//   POST /email-alerts (Authorization: Bearer <service role key>) → 200 {sent, failed}
//
// Exactly once as far as the database can make it: if this process stops after the mail server
// accepted a mail and before finish_email_alert marks it sent, the row's lease runs out and a later
// drain sends it again, with the same Message-ID (mail.ts), so a receiver can fold the two.
//
// The callers are the project's own: a Database Webhook on email_outbox and a scheduled retry on
// a hosted project, the gateway on the local stack (docs/deploy.md#email-alerts). The service
// role key is no user's JWT, so the platform's JWT check is off for it (supabase/config.toml) and
// the key is checked here. The body (a webhook sends the queued row) is not read.

export type EmailAlertsDeps = AlertMailSettings & {
  /** A service-role client: the outbox is no API role's. */
  supabase: SupabaseClient<Database>;
  mailer: Mailer;
  /** EMAIL_UNSUBSCRIBE_SECRET: signs each mail's unsubscribe link. */
  unsubscribeSecret: string;
  /** The keys a caller may present as its bearer token: the project's service role key. */
  callerKeys: string[];
  /** First retry delay, doubled per failed attempt up to MAX_RETRY_MS; RETRY_BASE_MS when absent. */
  retryBaseMs?: number;
  /** How long one call goes on claiming more; DRAIN_BUDGET_MS when absent. */
  budgetMs?: number;
  /** Texts never to write into last_error or the log, whatever an error says (the SMTP password). */
  secrets?: string[];
};

export type DrainAnswer = {
  /** The outbox ids sent by this call. */
  sent: string[];
  /** The outbox ids left for a retry. */
  failed: string[];
};

/** Well within a hosted function's wall-clock limit (150 s); what is left waits for the next call. */
export const DRAIN_BUDGET_MS = 20_000;
/** 30 s, 1 min, 2 min, … */
export const RETRY_BASE_MS = 30_000;
/** …at most an hour between attempts, for as long as the mail server stays away. */
export const MAX_RETRY_MS = 60 * 60 * 1000;
const BATCH = 10;
/**
 * Far longer than one send can take (the SMTP timeouts in _shared/smtp.ts), so a lease runs out
 * only for a drain that stopped: then the row is claimed again.
 */
const LEASE_SECONDS = 120;

/** How long after its `attempts`-th failure (counted from 0) a mail is tried again. */
export function retryDelayMs(attempts: number, baseMs = RETRY_BASE_MS): number {
  return Math.min(MAX_RETRY_MS, baseMs * 2 ** Math.min(Math.max(0, attempts), 30));
}

/** What a failed send keeps in last_error and the log: one line, no URL's path, no secret. */
export function failureText(error: unknown, secrets: readonly string[] = []): string {
  let text = errorLine(error);
  for (const secret of secrets) if (secret) text = text.split(secret).join('[redacted]');
  return text;
}

export function createEmailAlertsHandler(deps: EmailAlertsDeps): (request: Request) => Promise<Response> {
  const callerKeys = deps.callerKeys.filter((key) => key !== '');
  if (callerKeys.length === 0) throw new Error('email-alerts needs the service role key');
  if (!deps.unsubscribeSecret) throw new Error('email-alerts needs EMAIL_UNSUBSCRIBE_SECRET');
  if (!/^https?:\/\//.test(deps.siteUrl)) throw new Error('email-alerts needs SITE_URL');
  if (!/^https?:\/\//.test(deps.supabaseUrl)) throw new Error('email-alerts needs SUPABASE_URL');
  if (!deps.from.address) throw new Error('email-alerts needs the sender (SMTP_ADMIN_EMAIL)');
  const { supabase, mailer } = deps;
  const budgetMs = deps.budgetMs ?? DRAIN_BUDGET_MS;
  const retryBaseMs = deps.retryBaseMs ?? RETRY_BASE_MS;
  const secrets = [...(deps.secrets ?? []), deps.unsubscribeSecret];

  async function drain(): Promise<DrainAnswer> {
    const started = Date.now();
    const sent: string[] = [];
    const failed: string[] = [];
    while (Date.now() - started < budgetMs) {
      const claims = await supabase.rpc('claim_email_alerts', {
        p_limit: BATCH,
        p_lease_seconds: LEASE_SECONDS,
      });
      if (claims.error) throw new Error(`claiming the outbox failed: ${claims.error.message}`);
      if (claims.data.length === 0) break;
      for (const row of claims.data) {
        let problem: string | null = null;
        try {
          const token = await makeUnsubscribeToken(deps.unsubscribeSecret, row.user_id, row.kind);
          await mailer.send(alertMail(row, token, deps));
        } catch (error) {
          problem = failureText(error, secrets);
          console.error(`[email-alerts] sending ${row.id} failed (attempt ${row.attempts + 1}): ${problem}`);
        }
        const finished = await supabase.rpc('finish_email_alert', {
          p_id: row.id,
          p_claim: row.claim,
          p_error: problem,
          p_retry_after_ms: problem === null ? 0 : retryDelayMs(row.attempts, retryBaseMs),
        });
        if (finished.error) throw new Error(`finishing ${row.id} failed: ${finished.error.message}`);
        (problem === null ? sent : failed).push(row.id);
      }
    }
    return { sent, failed };
  }

  return async (request) => {
    if (!(await isOneOfKeys(bearerToken(request.headers.get('authorization')), callerKeys))) {
      return refuse(401, 'unauthorized', 'Only the project itself may send the email alerts');
    }
    if (request.method !== 'POST') return refuse(405, 'method_not_allowed', 'POST /email-alerts');
    try {
      return reply(200, await drain());
    } catch (error) {
      // A claim left unfinished is taken again once its lease runs out.
      logError('email-alerts', 'draining failed', error);
      return refuse(500, 'internal', 'The drain failed; what it claimed is retried later');
    }
  };
}
