import type { SupabaseClient } from '@supabase/supabase-js';
import { callerId } from '../_shared/caller.ts';
import type { Database } from '../_shared/database.types.ts';
import { TatumError, type TatumApi } from '../_shared/tatum.ts';

// The native (ETH) balance of an address through Tatum, whose key stays here. Anyone holding the
// project's anon key may ask (a visitor's balances show before any sign-in), so the function
// guards the key's quota itself: the `apikey` must be one of the project's, the address must be
// one, and each client gets `limit` requests per window, counted in the database
// (take_rate_limit) so the count holds across instances. Over it: 429 with Retry-After.
//
//   POST /native-balance {"address": "0x…"} → 200 {balance, asset}
//
// JWT verification is off (supabase/config.toml): the project's publishable key is no JWT, and
// the platform's check would refuse it.

export type RateLimit = { requests: number; windowSeconds: number };

export type NativeBalanceDeps = {
  /** A service-role client: it counts requests and resolves a bearer token's user. */
  supabase: SupabaseClient<Database>;
  tatum: TatumApi;
  /** The keys a caller may present as `apikey`: the project's anon (publishable) key(s). */
  apiKeys: string[];
  limit: RateLimit;
};

const JSON_HEADERS = { 'content-type': 'application/json' };
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const MAX_BODY = 1024;
export const DEFAULT_RATE_LIMIT: RateLimit = { requests: 30, windowSeconds: 60 };

function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

function refuse(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return reply(status, { error: code, code, message, ...extra });
}

/** `<requests>/<seconds>`, e.g. '30/60'; null for anything else. */
export function parseRateLimit(text: string | null): RateLimit | null {
  const match = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(text ?? '');
  if (!match) return null;
  const requests = Number(match[1]);
  const windowSeconds = Number(match[2]);
  return requests > 0 && windowSeconds > 0 ? { requests, windowSeconds } : null;
}

export function createNativeBalanceHandler(deps: NativeBalanceDeps): (request: Request) => Promise<Response> {
  const apiKeys = deps.apiKeys.filter((key) => key !== '');
  if (apiKeys.length === 0) throw new Error('native-balance needs the project anon key');
  const { supabase, tatum, limit } = deps;

  /**
   * Whom the limit counts: the address the platform's edge saw (the first of x-forwarded-for,
   * which the platform writes), else the signed-in user of a bearer token, else everyone without
   * either together.
   */
  async function client(request: Request): Promise<string> {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return `ip:${forwarded}`;
    const userId = await callerId(supabase, request);
    return userId ? `user:${userId}` : 'anonymous';
  }

  const handle = async (request: Request): Promise<Response> => {
    if (!apiKeys.includes(request.headers.get('apikey') ?? '')) {
      return refuse(401, 'invalid_api_key', 'The request needs the project’s anon key as apikey');
    }
    const text = await request.text();
    if (text.length > MAX_BODY) return refuse(413, 'too_large', 'The request body is too large');
    let address: unknown;
    try {
      address = (JSON.parse(text) as { address?: unknown } | null)?.address;
    } catch {
      return refuse(400, 'malformed', 'The request body is not valid JSON; send {"address": "0x…"}');
    }
    if (typeof address !== 'string' || !ADDRESS.test(address)) {
      return refuse(400, 'malformed', 'address must be 0x followed by 40 hex digits');
    }
    const wait = await supabase.rpc('take_rate_limit', {
      p_bucket: `native-balance:${await client(request)}`,
      p_limit: limit.requests,
      p_window_seconds: limit.windowSeconds,
    });
    if (wait.error) throw new Error(`rate limit failed: ${wait.error.message}`);
    if (wait.data > 0) {
      const message = `Too many balance requests; try again in ${wait.data} s`;
      return reply(
        429,
        { error: 'rate_limited', code: 'rate_limited', message, retryAfter: wait.data },
        { 'retry-after': String(wait.data) },
      );
    }
    try {
      return reply(200, await tatum.nativeBalance(address));
    } catch (error) {
      if (!(error instanceof TatumError)) throw error;
      return refuse(502, 'provider_unavailable', 'The balance could not be read; try again shortly', {
        detail: error.detail,
      });
    }
  };

  return async (request) => {
    if (request.method !== 'POST') {
      return reply(
        405,
        {
          error: 'method_not_allowed',
          code: 'method_not_allowed',
          message: 'native-balance accepts POST only',
        },
        { allow: 'POST' },
      );
    }
    try {
      return await handle(request);
    } catch (error) {
      console.error('[native-balance] failed:', error);
      return refuse(500, 'internal', 'The balance could not be read; try again later');
    }
  };
}
