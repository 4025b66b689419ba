import { tomlSections } from './config-toml.ts';

// Sign-ups and sign-ins per address, as hosted Auth limits them: its `sign_in_sign_ups` rate
// (config.toml `[auth.rate_limit]`, 30 per 5 minutes per IP by default) is a token bucket that
// holds the limit's worth of requests and refills at the limit's rate, and past it Auth answers
// 429 `over_request_rate_limit`. Hosted Auth counts Web3 sign-ins at a rate of their own with the
// same default; here they share the one bucket. The gateway checks before lite sees the request,
// so a refused sign-up creates nobody.

export type AuthRateLimit = { requests: number; windowSeconds: number };

/** Hosted Auth's default for sign-ups and sign-ins: 30 per 5 minutes per address. */
export const DEFAULT_AUTH_RATE_LIMIT: AuthRateLimit = { requests: 30, windowSeconds: 300 };

/** The project's rate from supabase/config.toml (`[auth.rate_limit] sign_in_sign_ups`, per 5 minutes). */
export function authRateLimitOf(toml: string): AuthRateLimit {
  const value = tomlSections(toml).get('auth.rate_limit')?.get('sign_in_sign_ups') ?? '';
  const requests = /^\d+$/.test(value) ? Number(value) : 0;
  return requests > 0 ? { ...DEFAULT_AUTH_RATE_LIMIT, requests } : DEFAULT_AUTH_RATE_LIMIT;
}

const SIGN_IN_GRANTS = new Set(['password', 'web3']);
/** Past this many addresses, those whose bucket has refilled are forgotten. */
const TRACKED_ADDRESSES = 10_000;

type Bucket = { tokens: number; at: number };

/** Whether Auth counts the request as a sign-up or a sign-in. */
function isSignUpOrSignIn(request: Request): boolean {
  if (request.method !== 'POST') return false;
  const url = new URL(request.url);
  if (url.pathname === '/auth/v1/signup') return true;
  return url.pathname === '/auth/v1/token' && SIGN_IN_GRANTS.has(url.searchParams.get('grant_type') ?? '');
}

/** The 429 for a request past the limit, or null to let it through (and count it). */
export function createAuthRateLimiter(
  limit: AuthRateLimit,
  now: () => number = Date.now,
): (request: Request, address: string | null) => Response | null {
  const buckets = new Map<string, Bucket>();
  const refillPerMs = limit.requests / (limit.windowSeconds * 1000);
  const level = (bucket: Bucket, at: number) =>
    Math.min(limit.requests, bucket.tokens + (at - bucket.at) * refillPerMs);

  const forgetFull = (at: number) => {
    for (const [address, bucket] of buckets) {
      if (level(bucket, at) >= limit.requests) buckets.delete(address);
    }
  };

  return (request, address) => {
    if (!isSignUpOrSignIn(request)) return null;
    const at = now();
    const key = address ?? '';
    const bucket = buckets.get(key) ?? { tokens: limit.requests, at };
    const tokens = level(bucket, at);
    if (tokens < 1) {
      buckets.set(key, { tokens, at });
      const retryAfter = Math.ceil((1 - tokens) / refillPerMs / 1000);
      return new Response(
        JSON.stringify({
          code: 429,
          error_code: 'over_request_rate_limit',
          msg: 'Request rate limit reached',
        }),
        { status: 429, headers: { 'content-type': 'application/json', 'retry-after': String(retryAfter) } },
      );
    }
    if (!buckets.has(key) && buckets.size >= TRACKED_ADDRESSES) forgetFull(at);
    buckets.set(key, { tokens: tokens - 1, at });
    return null;
  };
}
