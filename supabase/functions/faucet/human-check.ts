// hCaptcha's human check, asked as the server side of a form asks it (docs.hcaptcha.com, "Verify
// the User Response Server Side"): a form-encoded POST of the secret, the response token the
// widget gave the page, and optionally the site key and the user's address, to siteverify, which
// answers `{"success": true|false, …}`. On a hosted project that is https://api.hcaptcha.com/siteverify;
// the local stack answers the same request at /hcaptcha/siteverify with hCaptcha's test keys.

export type HumanCheck = {
  /** HCAPTCHA_SECRET. */
  secret: string;
  /** HCAPTCHA_SITEKEY: sent along so that a token solved for another site is refused. */
  siteKey: string | null;
  /** HCAPTCHA_VERIFY_URL, by default hCaptcha's own. */
  verifyUrl: string;
};

export const HCAPTCHA_VERIFY_URL = 'https://api.hcaptcha.com/siteverify';

const TIMEOUT_MS = 10_000;

export async function verifyHuman(
  check: HumanCheck,
  token: string,
  remoteIp: string | null,
  send: typeof fetch = fetch,
): Promise<'passed' | 'failed' | 'unavailable'> {
  // No token is no check: hCaptcha is not asked.
  if (token === '') return 'failed';
  const form = new URLSearchParams({ secret: check.secret, response: token });
  if (check.siteKey) form.set('sitekey', check.siteKey);
  const address = remoteIp?.split(',')[0]?.trim();
  if (address) form.set('remoteip', address);
  let answer: Response;
  try {
    answer = await send(check.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return 'unavailable';
  }
  if (!answer.ok) return 'unavailable';
  const body = (await answer.json().catch(() => null)) as { success?: unknown } | null;
  if (body === null) return 'unavailable';
  return body.success === true ? 'passed' : 'failed';
}
