import type { SupabaseClient } from '@supabase/supabase-js';
import { bearerToken, isOneOfKeys } from '../_shared/caller.ts';
import type { Database } from '../_shared/database.types.ts';
import { refuse, reply } from '../_shared/json.ts';
import { errorLine, logError } from '../_shared/log.ts';
import { RecipientRefused, type Mailer } from '../_shared/smtp.ts';
import { makeUnsubscribeToken } from '../_shared/unsubscribe-token.ts';
import { alertMail, type AlertMailSettings } from './mail.ts';

// Sends the email alerts (migration 20261206000001): a trigger on user_notifications queues one
// row in email_outbox per notification its owner wants mailed; this drains the outbox. It claims
// one due row at a time (leased to this drain alone, claim_email_alerts), sends it over SMTP and
// finishes its claim: sent; failed and retried later, each time later (retryDelayMs); or, when the
// server refused the recipient for good (a 5xx), discarded with the reason. A row marked sent or
// discarded is never claimed again, and two drains at once never hold one row.
//
//   POST /email-alerts (Authorization: Bearer <service role key>) → 200 {sent, failed, refused}
//
// Exactly once as far as the database can make it. A send has a deadline well inside its claim's
// lease (sendDeadlineMs), and a claim holds one row, so a lease runs out only for a drain that
// stopped: a slow mail server never lets another drain take a row this one is still sending. A
// send past its deadline counts as failed and is retried; if this process stops after the mail
// server accepted a mail and before finish_email_alert marks it sent, or the server accepts a mail
// after its deadline, a later drain sends it again, with the same Message-ID (mail.ts), so a
// receiver can fold the two.
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
  /**
   * How long one send may take in all before it counts as failed; SEND_DEADLINE_MS when absent.
   * At most half the claim's lease, so the claim is finished long before another drain may take it.
   */
  sendDeadlineMs?: number;
  /** Texts never to write into last_error or the log, whatever an error says (the SMTP password). */
  secrets?: string[];
};

export type DrainAnswer = {
  /** The outbox ids sent by this call. */
  sent: string[];
  /** The outbox ids left for a retry. */
  failed: string[];
  /** The outbox ids whose recipient the mail server refused for good: discarded, never retried. */
  refused: string[];
};

/** Well within a hosted function's wall-clock limit (150 s), with one send's deadline after it. */
export const DRAIN_BUDGET_MS = 20_000;
/**
 * One send in all: connecting, the greeting, the login and the mail. nodemailer's own timeouts
 * (_shared/smtp.ts) are idle ones, which a server that answers slowly, a little at a time, never
 * trips; this one ends the attempt whatever the server does.
 */
export const SEND_DEADLINE_MS = 60_000;
/** 30 s, 1 min, 2 min, … */
export const RETRY_BASE_MS = 30_000;
/** …at most an hour between attempts, for as long as the mail server stays away. */
export const MAX_RETRY_MS = 60 * 60 * 1000;
/**
 * A claim's lease: twice the longest send, so a claim is finished long before it runs out, and a
 * lease runs out only for a drain that stopped; then its row is claimed again.
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

/** Rejects with a reason naming the deadline when `sending` has not settled by then. */
async function withinDeadline(sending: Promise<void>, deadlineMs: number): Promise<void> {
  // A send given up may still settle later; its outcome is no one's then, and must not go unhandled.
  sending.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the mail server took longer than ${deadlineMs / 1000} s; given up`)),
      deadlineMs,
    );
  });
  try {
    await Promise.race([sending, late]);
  } finally {
    clearTimeout(timer);
  }
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
  const sendDeadlineMs = deps.sendDeadlineMs ?? SEND_DEADLINE_MS;
  if (!(sendDeadlineMs > 0 && sendDeadlineMs <= (LEASE_SECONDS * 1000) / 2)) {
    throw new Error(
      `email-alerts: a send's deadline must be at most half the claim's lease (${LEASE_SECONDS} s)`,
    );
  }
  const retryBaseMs = deps.retryBaseMs ?? RETRY_BASE_MS;
  const secrets = [...(deps.secrets ?? []), deps.unsubscribeSecret];

  async function drain(): Promise<DrainAnswer> {
    const started = Date.now();
    const sent: string[] = [];
    const failed: string[] = [];
    const refused: string[] = [];
    while (Date.now() - started < budgetMs) {
      // One row per claim: a row waits in the outbox, free for any drain, until it is sent.
      const claims = await supabase.rpc('claim_email_alerts', {
        p_limit: 1,
        p_lease_seconds: LEASE_SECONDS,
      });
      if (claims.error) throw new Error(`claiming the outbox failed: ${claims.error.message}`);
      const [row] = claims.data;
      if (!row) break;
      let problem: string | null = null;
      let forGood = false;
      try {
        const token = await makeUnsubscribeToken(deps.unsubscribeSecret, row.user_id, row.kind);
        await withinDeadline(mailer.send(alertMail(row, token, deps)), sendDeadlineMs);
      } catch (error) {
        problem = failureText(error, secrets);
        forGood = error instanceof RecipientRefused;
        console.error(
          `[email-alerts] sending ${row.id} failed (attempt ${row.attempts + 1}` +
            `${forGood ? ', not retried' : ''}): ${problem}`,
        );
      }
      const finished =
        problem !== null && forGood
          ? await supabase.rpc('discard_email_alert', { p_id: row.id, p_claim: row.claim, p_reason: problem })
          : await supabase.rpc('finish_email_alert', {
              p_id: row.id,
              p_claim: row.claim,
              p_error: problem,
              p_retry_after_ms: problem === null ? 0 : retryDelayMs(row.attempts, retryBaseMs),
            });
      if (finished.error) {
        // Its lease runs out and a later drain takes it: sent again if it went (the same
        // Message-ID), tried again if not. The rows after it need not wait for that.
        console.error(
          `[email-alerts] finishing ${row.id} failed; it is claimed again when its lease runs out: ` +
            failureText(new Error(finished.error.message), secrets),
        );
        continue;
      }
      if (finished.data !== true) {
        // Another drain holds it now (this claim's lease ran out), and that drain's answer tells.
        console.error(`[email-alerts] ${row.id} was claimed by another drain before this one finished it`);
        continue;
      }
      (problem === null ? sent : forGood ? refused : failed).push(row.id);
    }
    return { sent, failed, refused };
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
