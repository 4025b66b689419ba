import { MAX_JSON_BODY } from '../../supabase/functions/_shared/body.ts';
import { boundedRequest } from './body-bounds.ts';
import { ClaimsError, createSessionVerifier } from './claims.ts';
import { json } from './http.ts';

// Serves /functions/v1/<name> from the handlers of the functions that are
// deployed as Supabase Edge Functions: in this process, or a Deno process per
// function (stack/functions/deno.ts). Before a function runs, the gateway reads
// the body, counting its bytes: past 64 KB (a declared Content-Length at once, a
// chunked body as it streams in) it answers 413 and keeps nothing more, so no body
// is ever buffered whole (body-bounds.ts). Then it checks the caller's JWT the way the hosted
// platform does for a function deployed with `verify_jwt` (supabase/config.toml):
// a missing Bearer token, or one that is no session token of the project's Auth
// (claims.ts), is a 401 and the function never sees the request.

export type FunctionHandler = (request: Request) => Promise<Response>;

export type JwtCheck = {
  /**
   * The project's JWT secret: user sessions are HS256 tokens signed with it. The project's API
   * keys are of the new kind (sb_publishable_…, sb_secret_…), which are no JWTs: as on the hosted
   * platform, they do not pass this check.
   */
  jwtSecret: string;
  /** Whether this function is deployed with JWT verification. */
  verifies(name: string): boolean;
};

export function createFunctionsHandler(
  functions: Record<string, FunctionHandler>,
  jwt: JwtCheck,
): (request: Request) => Promise<Response> {
  const verify = createSessionVerifier(jwt.jwtSecret);

  const refusal = async (request: Request): Promise<string | null> => {
    const header = request.headers.get('authorization');
    const token = header ? (/^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] ?? null) : null;
    if (!token) return 'Missing authorization header';
    try {
      await verify(token);
      return null;
    } catch (error) {
      return error instanceof ClaimsError ? error.message : 'Invalid JWT';
    }
  };

  return async (request) => {
    const name = new URL(request.url).pathname.replace(/^\/functions\/v1\//, '').split('/')[0] ?? '';
    const handler = Object.hasOwn(functions, name) ? functions[name] : undefined;
    if (!handler) return json(404, { error: 'Function not found', message: `No function named "${name}"` });
    // The body before the token: a refusal sent before the body was read would leave the server
    // (@hono/node-server) draining up to 64 MB of it.
    const received = await boundedRequest(request, { limit: MAX_JSON_BODY, route: 'a function' });
    if (received instanceof Response) return received;
    if (jwt.verifies(name)) {
      const why = await refusal(received);
      if (why) return json(401, { code: 401, message: why });
    }
    return handler(received);
  };
}
