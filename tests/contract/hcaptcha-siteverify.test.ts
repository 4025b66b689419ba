import { describe, expect, inject, it } from 'vitest';
import { HCAPTCHA_TEST_KEYS } from '../../stack/gateway/hcaptcha-siteverify.ts';

// The stack's stand-in for hCaptcha's siteverify (POST https://api.hcaptcha.com/siteverify,
// docs.hcaptcha.com): a form-encoded `secret`, `response` and optional `sitekey` and `remoteip`,
// answered `{"success": true, "challenge_ts", "hostname", "credit"}` or `{"success": false,
// "error-codes": […]}`. Locally it accepts what hCaptcha documents for integration tests: the
// test site key's secret and the test response token. Nothing else passes, so the faucet's human
// check is a real check of the request it sends.

const stack = inject('gateway');
const { secret, siteKey, response } = HCAPTCHA_TEST_KEYS;

async function siteverify(fields: Record<string, string>, init: RequestInit = {}) {
  const answer = await fetch(`${stack.url}/hcaptcha/siteverify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    ...init,
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

describe('hCaptcha siteverify, locally', () => {
  it("passes the documented test response with the test secret, in hCaptcha's answer shape", async () => {
    const { status, body } = await siteverify({ secret, response, sitekey: siteKey, remoteip: '127.0.0.1' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, credit: false });
    expect(Date.parse(String(body['challenge_ts']))).not.toBeNaN();
    expect(typeof body['hostname']).toBe('string');
    // The same test token passes again: hCaptcha's test keys always pass.
    expect((await siteverify({ secret, response })).body).toMatchObject({ success: true });
  });

  it("refuses what hCaptcha refuses, with hCaptcha's error codes", async () => {
    const refused = async (fields: Record<string, string>) => {
      const { status, body } = await siteverify(fields);
      expect(status).toBe(200);
      expect(body['success']).toBe(false);
      return body['error-codes'];
    };
    expect(await refused({ response })).toEqual(['missing-input-secret']);
    expect(await refused({ secret })).toEqual(['missing-input-response']);
    expect(await refused({ secret: '0x1111111111111111111111111111111111111111', response })).toEqual([
      'invalid-input-secret',
    ]);
    expect(await refused({ secret, response: 'P1_made-up-token' })).toEqual(['invalid-input-response']);
    expect(await refused({ secret, response, sitekey: '20000000-ffff-ffff-ffff-000000000002' })).toEqual([
      'sitekey-secret-mismatch',
    ]);
  });

  it('answers only POST, and refuses a body that is not a form', async () => {
    expect((await fetch(`${stack.url}/hcaptcha/siteverify`)).status).toBe(405);
    const json = await siteverify({}, { headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.body).toEqual({ success: false, 'error-codes': ['bad-request'] });
  });
});
