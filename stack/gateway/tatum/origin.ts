import { corsHeaders, json } from '../http.ts';

// The emulator listens on 127.0.0.1, which every page open in a developer's browser can reach.
// Only the app's own origin gets CORS answers; a page of any other origin is refused before
// anything happens, except for a read, whose answer the browser keeps from it without CORS
// headers. Headers alone would not do: a browser sends a "simple" cross-site POST (a form, a
// no-cors fetch) without asking first, and only the answer is hidden. Callers that send no
// Origin (the SDK in the functions, Node) are no page and pass as before.

const READS = new Set(['GET', 'HEAD']);

export type OriginGuard = (
  request: Request,
  handle: (request: Request) => Promise<Response>,
) => Promise<Response>;

export function originGuard(siteUrl: string): OriginGuard {
  const allowed = new URL(siteUrl).origin;
  const cors: Record<string, string> = {
    'access-control-allow-origin': allowed,
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': corsHeaders()['access-control-allow-headers'] ?? '',
    'access-control-max-age': '600',
  };
  // Answers differ by Origin, so no cache may hand one origin's answer to another.
  const vary = (headers: Headers) => headers.append('vary', 'Origin');

  return async (request, handle) => {
    const origin = request.headers.get('origin');
    const ours = origin === allowed;
    if (origin !== null && !ours && !READS.has(request.method)) {
      const refusal = json(403, {
        statusCode: 403,
        errorCode: 'origin.not.allowed',
        message: `Requests from ${origin} are refused: only ${allowed} may call the emulator from a browser.`,
      });
      vary(refusal.headers);
      return refusal;
    }
    const response =
      request.method === 'OPTIONS' ? new Response(null, { status: 204 }) : await handle(request);
    const headers = new Headers(response.headers);
    if (ours) for (const [name, value] of Object.entries(cors)) headers.set(name, value);
    vary(headers);
    return new Response(response.body, { status: response.status, headers });
  };
}
