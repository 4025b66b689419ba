import { createHash, timingSafeEqual } from 'node:crypto';

// Small helpers shared by the endpoints we serve in front of lite.

const ALLOWED_HEADERS = [
  'authorization',
  'apikey',
  'content-type',
  'x-client-info',
  'x-upsert',
  'cache-control',
  'x-supabase-api-version',
  'x-payload-hash',
  // What @tatumio/tatum sends to the emulator.
  'x-api-key',
  'x-ttm-sdk-version',
  'x-ttm-sdk-product',
  'x-ttm-sdk-debug',
].join(', ');

export function corsHeaders(): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
  };
}

/**
 * A REST preflight as PostgREST (and lite, for a table) answers it: the headers the browser asks
 * for are allowed, whatever they are, and the range and preference headers are readable.
 */
export function restPreflight(request: Request): Response {
  return new Response(null, {
    status: 200,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD',
      'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? '',
      'access-control-expose-headers': 'Content-Range, Content-Location, Preference-Applied',
      'access-control-max-age': '86400',
    },
  });
}

export async function withCors(
  request: Request,
  handle: (request: Request) => Promise<Response>,
): Promise<Response> {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders() });
  const response = await handle(request);
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(corsHeaders())) headers.set(name, value);
  return new Response(response.body, { status: response.status, headers });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/**
 * Whether a presented API key is one of `keys`, in time that says nothing about the keys: both
 * sides are hashed first, so timingSafeEqual compares equal lengths and neither a key's length nor
 * how much of it matched shows, and every key is compared, so neither does which one matched.
 * An empty key is never one of them.
 */
export function isOneOfKeys(presented: string | null | undefined, keys: readonly string[]): boolean {
  const digest = sha256(presented ?? '');
  let found = false;
  for (const key of keys) {
    const same = timingSafeEqual(digest, sha256(key));
    found = (same && key !== '') || found;
  }
  return found;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
