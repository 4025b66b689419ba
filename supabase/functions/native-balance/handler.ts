import type { SupabaseClient } from '@supabase/supabase-js';
import { callerId, isOneOfKeys } from '../_shared/caller.ts';
import type { Database } from '../_shared/database.types.ts';
import { readAddressBody, refuse, reply } from '../_shared/json.ts';
import { logError } from '../_shared/log.ts';
import { TatumError, type TatumApi } from '../_shared/tatum.ts';

// The native (ETH) balance of an address through Tatum, whose key stays here. Anyone holding the
// project's anon key may ask (a visitor's balances show before any sign-in), so the function
// guards the key's quota itself: the `apikey` must be one of the project's, the address must be
// one, and each client gets `limit` requests per window, counted in the database
// (take_rate_limit) so the count holds across instances. Over it: 429 with Retry-After. Past the
// per-client count, every request also takes from one project-wide `ceiling`, so clients that
// truly are many (or that pass for many) cannot spend more of the key's quota than that.
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
  /** All clients together; defaultCeiling(limit) when absent. */
  ceiling?: RateLimit;
};

const MAX_BODY = 1024;
export const DEFAULT_RATE_LIMIT: RateLimit = { requests: 30, windowSeconds: 60 };
const CEILING_CLIENTS = 20;
const CEILING_BUCKET = 'native-balance:all';

/** Room for twenty clients at the per-client limit: 600/60 with the default 30/60. */
export function defaultCeiling(limit: RateLimit): RateLimit {
  return { requests: limit.requests * CEILING_CLIENTS, windowSeconds: limit.windowSeconds };
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
  const ceiling = deps.ceiling ?? defaultCeiling(limit);

  /**
   * Whom the limit counts: the address the platform's edge saw, else the signed-in user of a
   * bearer token, else everyone without either together. The edge appends the peer it saw to
   * x-forwarded-for and keeps what the client sent in front of it, so only the LAST entry is the
   * edge's word; any earlier one is the client's to choose.
   */
  async function client(request: Request): Promise<string> {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return `ip:${forwarded}`;
    const userId = await callerId(supabase, request);
    return userId ? `user:${userId}` : 'anonymous';
  }

  /** Seconds to wait before `bucket` has room again; 0 when this request fits. */
  async function take(bucket: string, rate: RateLimit): Promise<number> {
    const wait = await supabase.rpc('take_rate_limit', {
      p_bucket: bucket,
      p_limit: rate.requests,
      p_window_seconds: rate.windowSeconds,
    });
    if (wait.error) throw new Error(`rate limit failed: ${wait.error.message}`);
    return wait.data;
  }

  /** 429: this client asked too often (`rate_limited`), or all of them together did (`busy`). */
  function limited(code: 'rate_limited' | 'busy', seconds: number, message: string): Response {
    return reply(
      429,
      { error: code, code, message, retryAfter: seconds },
      { 'retry-after': String(seconds) },
    );
  }

  const handle = async (request: Request): Promise<Response> => {
    if (!(await isOneOfKeys(request.headers.get('apikey'), apiKeys))) {
      return refuse(401, 'invalid_api_key', 'The request needs the project’s anon key as apikey');
    }
    const body = await readAddressBody(request, MAX_BODY);
    if ('refusal' in body) return body.refusal;
    const { address } = body;
    const own = await take(`native-balance:${await client(request)}`, limit);
    if (own > 0) return limited('rate_limited', own, `Too many balance requests; try again in ${own} s`);
    // Only requests within their client's limit count here, so one client held back by its own
    // limit does not hold back the others.
    const all = await take(CEILING_BUCKET, ceiling);
    if (all > 0) return limited('busy', all, `The balance service is busy; try again in ${all} s`);
    try {
      return reply(200, await tatum.nativeBalance(address));
    } catch (error) {
      if (!(error instanceof TatumError)) throw error;
      // No `detail`: the caller is anyone with the anon key, and what Tatum or the node said is
      // for the function's log.
      logError('native-balance', error.code ? `provider failed (${error.code})` : 'provider failed', error);
      return refuse(502, 'provider_unavailable', 'The balance could not be read; try again shortly');
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
      logError('native-balance', 'failed', error);
      return refuse(500, 'internal', 'The balance could not be read; try again later');
    }
  };
}
