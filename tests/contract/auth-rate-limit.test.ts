import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../stack/gateway/index.ts';
import { startOwnGateway } from '../support/stack/own-stack.ts';

// Sign-ups and sign-ins are limited per address, as hosted Auth limits them (its
// `sign_in_sign_ups` rate, 30 per 5 minutes per IP by default): past the limit the answer is 429
// with hosted Auth's error, and the refused sign-up creates nobody. The file's own gateway allows
// 3 per 5 minutes; the clients connect from other loopback addresses (127.0.0.2, …) to be several
// addresses while staying on this machine.

const LIMIT = 3;
const PASSWORD = 'Testnet-only-pass-1';

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startOwnGateway('auth-rate-limit', { authRateLimit: `${LIMIT}/300` });
});

afterAll(async () => {
  await gateway?.close();
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: unknown };

/** A POST to the gateway's Auth from `from`, as supabase-js sends it. */
function postAuth(path: string, body: object, from: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${gateway.url}/auth/v1/${path}`,
      {
        method: 'POST',
        localAddress: from,
        headers: { apikey: gateway.anonKey, 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString() || 'null') as unknown,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const signUp = (email: string, from: string) => postAuth('signup', { email, password: PASSWORD }, from);
const signIn = (email: string, from: string) =>
  postAuth('token?grant_type=password', { email, password: PASSWORD }, from);

async function userCount(email: string): Promise<number> {
  const { rows } = await gateway.pg.query<{ n: number }>(
    'select count(*)::int as n from auth.users where email = $1',
    [email],
  );
  return rows[0]?.n ?? 0;
}

describe('sign-ups and sign-ins per address', () => {
  it(`answers the sign-up past ${LIMIT} from one address with 429 and hosted Auth's error, creating nobody`, async () => {
    const from = '127.0.0.2';
    for (const i of [1, 2, 3]) {
      expect((await signUp(`limit-${i}@example.com`, from)).status).toBe(200);
    }
    const refused = await signUp('limit-4@example.com', from);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await userCount('limit-4@example.com')).toBe(0);

    // A password sign-in from that address waits too, even with the right password.
    expect((await signIn('limit-1@example.com', from)).status).toBe(429);
  });

  it('keeps other addresses signing up and in', async () => {
    const from = '127.0.0.3';
    expect((await signUp('other-address@example.com', from)).status).toBe(200);
    expect(await userCount('other-address@example.com')).toBe(1);
    const signedIn = await signIn('other-address@example.com', from);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ user: { email: 'other-address@example.com' } });
  });
});
