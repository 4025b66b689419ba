// The portal calls the functions from the browser, and hosted Edge Functions leave CORS to the
// function (the local gateway adds the same headers itself). Any origin may call: every function
// decides who the caller is from its token or key, never from where the page came from.

/** The CORS headers of a browser-called function that accepts these methods. */
export function corsHeaders(methods: readonly string[]): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': 'authorization, apikey, content-type, x-client-info',
    // native-balance's 429 says when to come back.
    'access-control-expose-headers': 'retry-after',
  };
}

/** `handle` behind a CORS preflight, with the CORS headers on every answer. */
export function withCors(
  methods: readonly string[],
  handle: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  const cors = corsHeaders(methods);
  return async (request) => {
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    const response = await handle(request);
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(cors)) headers.set(name, value);
    return new Response(response.body, { status: response.status, headers });
  };
}
