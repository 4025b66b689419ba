import { describe, expect, it } from 'vitest';
import { authRateLimitOf, createAuthRateLimiter } from '../../stack/gateway/auth-rate-limit.ts';

// The sign-up and sign-in limit's bucket, on a clock the test moves: hosted Auth's token bucket,
// as full as the limit at first, refilled at the limit's rate.

const post = (path: string) => new Request(`http://127.0.0.1${path}`, { method: 'POST' });
const SIGN_UP = '/auth/v1/signup';

function limiter(requests: number, windowSeconds: number) {
  let now = 1_000_000;
  const check = createAuthRateLimiter({ requests, windowSeconds }, () => now);
  return {
    status: (path: string, address = '127.0.0.2') => check(post(path), address)?.status ?? 200,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('the sign-up and sign-in bucket of one address', () => {
  it('lets a burst of the limit through, then refills one request per share of the window', () => {
    const auth = limiter(3, 30);
    expect([1, 2, 3, 4].map(() => auth.status(SIGN_UP))).toEqual([200, 200, 200, 429]);
    auth.advance(9_999);
    expect(auth.status(SIGN_UP)).toBe(429);
    auth.advance(1);
    expect(auth.status(SIGN_UP)).toBe(200);
    expect(auth.status(SIGN_UP)).toBe(429);
  });

  it('counts password and Web3 sign-ins with sign-ups, and nothing else', () => {
    const auth = limiter(2, 60);
    expect(auth.status('/auth/v1/token?grant_type=password')).toBe(200);
    expect(auth.status('/auth/v1/token?grant_type=web3')).toBe(200);
    expect(auth.status(SIGN_UP)).toBe(429);
    // A token refresh, a sign-out and a health check are not sign-ins.
    expect(auth.status('/auth/v1/token?grant_type=refresh_token')).toBe(200);
    expect(auth.status('/auth/v1/logout')).toBe(200);
    expect(auth.status('/auth/v1/health')).toBe(200);
  });

  it('keeps one bucket per address', () => {
    const auth = limiter(1, 60);
    expect(auth.status(SIGN_UP, '127.0.0.2')).toBe(200);
    expect(auth.status(SIGN_UP, '127.0.0.2')).toBe(429);
    expect(auth.status(SIGN_UP, '127.0.0.3')).toBe(200);
  });

  it('says how long to wait, as a whole number of seconds', async () => {
    let now = 0;
    const check = createAuthRateLimiter({ requests: 1, windowSeconds: 60 }, () => now);
    expect(check(post(SIGN_UP), '127.0.0.2')).toBeNull();
    now = 15_500;
    const refused = check(post(SIGN_UP), '127.0.0.2');
    expect(refused?.headers.get('retry-after')).toBe('45');
    expect(await refused?.json()).toEqual({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    });
  });
});

describe("the project's rate", () => {
  it("is config.toml's sign_in_sign_ups per 5 minutes, and hosted Auth's 30 without one", () => {
    const toml = (value: string) => `[auth]\nenabled = true\n\n[auth.rate_limit]\n${value}\n\n[analytics]\n`;
    expect(authRateLimitOf(toml('sign_in_sign_ups = 12 # per IP'))).toEqual({
      requests: 12,
      windowSeconds: 300,
    });
    expect(authRateLimitOf(toml('email_sent = 2'))).toEqual({ requests: 30, windowSeconds: 300 });
    expect(authRateLimitOf('[analytics]\nsign_in_sign_ups = 5\n')).toEqual({
      requests: 30,
      windowSeconds: 300,
    });
  });
});
