import { readBodyLimited } from '../../supabase/functions/_shared/body.ts';

// hCaptcha's siteverify, as the local stack serves it at /hcaptcha/siteverify: the faucet's human
// check asks it exactly as it asks https://api.hcaptcha.com/siteverify on a hosted deployment
// (docs.hcaptcha.com, "Verify the User Response Server Side"): a form-encoded POST of `secret`,
// `response` and, optionally, `sitekey` and `remoteip`, answered with JSON `success` and, when it
// is false, `error-codes`. Locally there is no widget to solve, so it accepts what hCaptcha
// documents for integration testing: the test site key, its secret, and the test response token
// its widget yields. Any other secret, token or site key is refused with hCaptcha's codes.

export const HCAPTCHA_TEST_KEYS = {
  siteKey: '10000000-ffff-ffff-ffff-000000000001',
  secret: '0x0000000000000000000000000000000000000000',
  response: '10000000-aaaa-bbbb-cccc-000000000001',
} as const;

/** A form of four short fields; anything larger is no siteverify request. */
const MAX_BODY_BYTES = 8 * 1024;

const answer = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const refused = (code: string) => answer(200, { success: false, 'error-codes': [code] });

/** The first of hCaptcha's error codes the request earns, or null when it passes. */
function problemOf(form: URLSearchParams): string | null {
  const secret = form.get('secret') ?? '';
  const response = form.get('response') ?? '';
  const siteKey = form.get('sitekey');
  if (secret === '') return 'missing-input-secret';
  if (secret !== HCAPTCHA_TEST_KEYS.secret) return 'invalid-input-secret';
  if (response === '') return 'missing-input-response';
  if (response !== HCAPTCHA_TEST_KEYS.response) return 'invalid-input-response';
  if (siteKey !== null && siteKey !== HCAPTCHA_TEST_KEYS.siteKey) return 'sitekey-secret-mismatch';
  return null;
}

export async function hcaptchaSiteverify(
  request: Request,
  now: () => Date = () => new Date(),
): Promise<Response> {
  if (request.method !== 'POST') return answer(405, { success: false, 'error-codes': ['bad-request'] });
  const type = request.headers.get('content-type') ?? '';
  const body = await readBodyLimited(request, MAX_BODY_BYTES);
  if ('tooLarge' in body || !type.startsWith('application/x-www-form-urlencoded'))
    return refused('bad-request');
  const problem = problemOf(new URLSearchParams(new TextDecoder().decode(body.bytes)));
  if (problem) return refused(problem);
  return answer(200, {
    success: true,
    challenge_ts: now().toISOString(),
    // What hCaptcha names as the site the token was solved on; the test token's is no real host.
    hostname: 'dummy-key-pass',
    credit: false,
  });
}
