import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from '../../supabase/functions/_shared/signature.ts';

// x-payload-hash: base64 HMAC-SHA512 of the raw body under the webhook secret.
// The expected values come from node:crypto, independently of the Web Crypto code under test.

const SECRET = 'tatum-webhook-secret';
const BODY = JSON.stringify({
  address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  amount: '12.5',
  note: 'Zürich ✓',
});
const expected = (secret: string, body: string | Buffer) =>
  createHmac('sha512', secret).update(body).digest('base64');

describe('webhook signature', () => {
  it('signs like HMAC-SHA512 in base64 over the UTF-8 body bytes', async () => {
    const signature = await signPayload(SECRET, BODY);
    expect(signature).toBe(expected(SECRET, BODY));
    expect(Buffer.from(signature, 'base64')).toHaveLength(64);
    // The same bytes given as a Buffer sign the same.
    expect(await signPayload(SECRET, Buffer.from(BODY, 'utf8'))).toBe(signature);
  });

  it('matches a known vector (RFC 4231 test case 2)', async () => {
    const signature = await signPayload('Jefe', 'what do ya want for nothing?');
    expect(Buffer.from(signature, 'base64').toString('hex')).toBe(
      '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737',
    );
  });

  it('verifies the signature of the exact body', async () => {
    expect(await verifySignature(SECRET, BODY, expected(SECRET, BODY))).toBe(true);
    expect(await verifySignature(SECRET, new TextEncoder().encode(BODY), expected(SECRET, BODY))).toBe(true);
  });

  it('refuses a signature made with another secret', async () => {
    expect(await verifySignature(SECRET, BODY, expected('another-secret', BODY))).toBe(false);
  });

  it('refuses a body altered after signing, even by whitespace', async () => {
    const signature = expected(SECRET, BODY);
    expect(await verifySignature(SECRET, BODY.replace('12.5', '125'), signature)).toBe(false);
    expect(await verifySignature(SECRET, `${BODY}\n`, signature)).toBe(false);
  });

  it('refuses a missing, empty, truncated or non-base64 header', async () => {
    const signature = expected(SECRET, BODY);
    expect(await verifySignature(SECRET, BODY, null)).toBe(false);
    expect(await verifySignature(SECRET, BODY, undefined)).toBe(false);
    expect(await verifySignature(SECRET, BODY, '')).toBe(false);
    expect(await verifySignature(SECRET, BODY, signature.slice(0, 40))).toBe(false);
    expect(await verifySignature(SECRET, BODY, '%%% not base64 %%%')).toBe(false);
    // A hex digest of the right MAC is not what Tatum sends.
    const hex = createHmac('sha512', SECRET).update(BODY).digest('hex');
    expect(await verifySignature(SECRET, BODY, hex)).toBe(false);
  });

  it('refuses to sign or verify with an empty secret', async () => {
    await expect(signPayload('', BODY)).rejects.toThrow(/secret is empty/);
    await expect(verifySignature('', BODY, expected('x', BODY))).rejects.toThrow(/secret is empty/);
  });
});
