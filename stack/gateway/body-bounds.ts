import { readBodyLimited, type LimitedBody } from '../../supabase/functions/_shared/body.ts';
import { json } from './http.ts';

// The bodies the gateway hands on (to lite: auth, REST, its other routes; to the functions), read
// here first and counted as they arrive: past the route's limit (a declared Content-Length at once,
// a chunked body as it streams in) the answer is 413 and nothing more is kept. lite and the
// Sign in with Ethereum grant read a whole body before looking at it, and one process serves the
// database, auth, realtime and the functions: a few bodies of hundreds of megabytes in parallel
// would end all of it. Storage and the Tatum emulator answer in their own error shapes, with this
// reader or their own (storage.ts, tatum/).

/** Auth's requests are a few fields of JSON: an email, a password, a signed message of up to 20 KB. */
export const AUTH_BODY_LIMIT = 64 * 1024;
/** A REST write of a few rows; the portal's largest is a profile with an avatar URL. */
export const REST_BODY_LIMIT = 1024 * 1024;

export type BodyBound = { limit: number; route: string };

/** The bound for a path that lite serves. */
export function bodyBoundFor(path: string): BodyBound {
  if (path.startsWith('/rest/v1/')) return { limit: REST_BODY_LIMIT, route: 'REST' };
  return { limit: AUTH_BODY_LIMIT, route: 'auth' };
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

/**
 * How much of a refused body is still read, and thrown away, so that a client which sent a little
 * too much finishes sending and reads the 413 on a connection it can use again. A body that goes on
 * past this is cut off: its connection ends with the answer.
 */
export const REFUSED_BODY_DRAIN = 1024 * 1024;

/**
 * The body in memory, or `tooLarge` when it passes `maxBytes`. What follows the limit is read on
 * and dropped up to REFUSED_BODY_DRAIN, never kept; a declared length past both is refused unread.
 */
export function readBoundedBody(request: Request, maxBytes: number): Promise<LimitedBody> {
  return readBodyLimited(request, maxBytes, { drainBytes: REFUSED_BODY_DRAIN });
}

/** The request with its body read into memory, or the 413 that refuses it. */
export async function boundedRequest(request: Request, bound: BodyBound): Promise<Request | Response> {
  if (request.body === null) return request;
  let body: LimitedBody;
  try {
    body = await readBoundedBody(request, bound.limit);
  } catch {
    // The client stopped sending (or the server's request timeout ended it): nobody reads this.
    return json(400, { code: 'body_incomplete', message: 'The request body ended before it was complete' });
  }
  if ('tooLarge' in body) {
    return json(413, {
      code: 'too_large',
      message: `The request body is larger than ${sizeText(bound.limit)}, the limit for ${bound.route}`,
    });
  }
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    // readBoundedBody allocates them itself: an ArrayBuffer, never a shared one.
    body: body.bytes as Uint8Array<ArrayBuffer>,
    signal: request.signal,
  });
}
