import type { SupabaseClient } from '@supabase/supabase-js';
import { readTextLimited } from '../_shared/body.ts';
import type { Database } from '../_shared/database.types.ts';
import { refuse, reply } from '../_shared/json.ts';
import { logError } from '../_shared/log.ts';
import { unsubscribeLink } from '../_shared/portal.ts';
import { readUnsubscribeToken } from '../_shared/unsubscribe-token.ts';

// Turns one kind of email alert off for the user an email's unsubscribe link names, without a
// sign-in: the link's token is proof enough (_shared/unsubscribe-token.ts), as only the project,
// holding EMAIL_UNSUBSCRIBE_SECRET, makes one.
//
//   POST /email-unsubscribe {"token": "<token>"}                          (the portal's page)
//   POST /email-unsubscribe?token=<token>, body List-Unsubscribe=One-Click  (RFC 8058 one click)
//   → 200 {"kind": "transfers" | "bots"}, again on every repeat
//   → 400 {"error": "invalid_token", …} for a token the project did not make; nothing changes
//
//   GET /email-unsubscribe?token=<token>   (a mail client without one click opens the address)
//   → 303 to <SITE_URL>/?unsubscribe=<token>, the portal's page, which asks before it turns
//     anything off; a GET itself changes nothing (a link checker or a preview may fetch it)
//   → 400 invalid_token, as above, for a token the project did not make: no text of the request
//     is sent back, in a Location or elsewhere
//
// The platform's JWT check is off (supabase/config.toml): the caller is whoever holds the mail.
// The token is never logged, nor is anything else of the request.

export type EmailUnsubscribeDeps = {
  /** A service-role client: it writes another user's preferences, through unsubscribe_email_alerts. */
  supabase: SupabaseClient<Database>;
  /** EMAIL_UNSUBSCRIBE_SECRET. */
  secret: string;
  /** SITE_URL: where a GET of a mail's unsubscribe address is sent on to (the first origin). */
  siteUrl: string;
};

/** A token and a one-click form are a few hundred bytes. */
const MAX_BODY = 4 * 1024;

/** The token a request carries: the query's (one click), or the JSON body's (the portal). */
async function tokenOf(request: Request): Promise<{ token: unknown } | { refusal: Response }> {
  const text = await readTextLimited(request, MAX_BODY);
  if (text === null) return { refusal: refuse(413, 'too_large', 'The request body is too large') };
  const fromQuery = new URL(request.url).searchParams.get('token');
  // A mail client's one-click POST carries the form RFC 8058 names; the token is the URL's.
  if (fromQuery !== null) return { token: fromQuery };
  try {
    return { token: (JSON.parse(text) as { token?: unknown } | null)?.token };
  } catch {
    return { token: null };
  }
}

const invalidToken = () =>
  refuse(400, 'invalid_token', 'This unsubscribe link is not valid; turn emails off in your profile');

export function createEmailUnsubscribeHandler(
  deps: EmailUnsubscribeDeps,
): (request: Request) => Promise<Response> {
  if (!deps.secret) throw new Error('email-unsubscribe needs EMAIL_UNSUBSCRIBE_SECRET');
  if (!/^https?:\/\//.test(deps.siteUrl)) throw new Error('email-unsubscribe needs SITE_URL');
  const { supabase, secret } = deps;
  return async (request) => {
    if (request.method === 'GET') {
      const token = new URL(request.url).searchParams.get('token');
      if ((await readUnsubscribeToken(secret, token)) === null) return invalidToken();
      return new Response(null, {
        status: 303,
        headers: { location: unsubscribeLink(deps.siteUrl, token ?? '') },
      });
    }
    if (request.method !== 'POST') return refuse(405, 'method_not_allowed', 'GET or POST /email-unsubscribe');
    const read = await tokenOf(request);
    if ('refusal' in read) return read.refusal;
    const link = await readUnsubscribeToken(secret, read.token);
    if (link === null) return invalidToken();
    const done = await supabase.rpc('unsubscribe_email_alerts', {
      p_user_id: link.userId,
      p_kind: link.kind,
    });
    if (done.error) {
      logError('email-unsubscribe', 'turning email off failed', new Error(done.error.message));
      return refuse(500, 'internal', 'Email could not be turned off; try again later');
    }
    // A user deleted since the mail has nothing left to turn off: the same answer.
    return reply(200, { kind: link.kind });
  };
}
