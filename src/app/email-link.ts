import type { EmailLinkSession } from '../domain/auth.ts';

// What an emailed auth link (a password reset, a sign-up confirmation) leaves in the portal's
// address: GoTrue's /verify sends the browser on with the session in the fragment
// (`#access_token=…&refresh_token=…&type=recovery`), or with why there is none
// (`#error=access_denied&error_code=otp_expired&…`: the link was used or had expired). The boot
// (src/main.tsx) reads it before anything else does, takes it out of the address with
// history.replaceState (so no history entry, bookmark or Referer keeps it) and hands a session to
// the backend service, never to a machine.

export type EmailLink =
  | { kind: 'session'; session: EmailLinkSession }
  /** `code` is GoTrue's `error_code` (otp_expired for a used or expired link), when it gave one. */
  | { kind: 'failed'; code: string | null };

/** The link found in `href`'s fragment and the address without it, or null when there is none. */
export function readEmailLink(href: string): { link: EmailLink; rest: string } | null {
  const url = new URL(href);
  const fields = new URLSearchParams(url.hash.slice(1));
  const accessToken = fields.get('access_token');
  const refreshToken = fields.get('refresh_token');
  let link: EmailLink | null = null;
  if (fields.has('error') || fields.has('error_code') || fields.has('error_description')) {
    link = { kind: 'failed', code: fields.get('error_code') };
  } else if (accessToken && refreshToken) {
    link = { kind: 'session', session: { type: fields.get('type'), accessToken, refreshToken } };
  }
  if (!link) return null;
  url.hash = '';
  return { link, rest: url.toString() };
}
