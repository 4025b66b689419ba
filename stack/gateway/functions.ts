import { errors, jwtVerify } from 'jose';
import { json } from './http.ts';

// Serves /functions/v1/<name> from the handlers of the functions that are
// deployed as Supabase Edge Functions: in this process, or a Deno process per
// function (deno-functions.ts). Before a function runs, the gateway checks the
// caller's JWT the way the hosted platform does for a function deployed with
// `verify_jwt` (supabase/config.toml): a missing or invalid Bearer token is a
// 401 and the function never sees the request.

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
  const key = new TextEncoder().encode(jwt.jwtSecret);

  const refusal = async (request: Request): Promise<string | null> => {
    const header = request.headers.get('authorization');
    const token = header ? (/^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] ?? null) : null;
    if (!token) return 'Missing authorization header';
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      const role = payload['role'];
      return role === 'anon' || role === 'authenticated' || role === 'service_role' ? null : 'Invalid JWT';
    } catch (error) {
      return error instanceof errors.JWTExpired ? 'JWT expired' : 'Invalid JWT';
    }
  };

  return async (request) => {
    const name = new URL(request.url).pathname.replace(/^\/functions\/v1\//, '').split('/')[0] ?? '';
    const handler = Object.hasOwn(functions, name) ? functions[name] : undefined;
    if (!handler) return json(404, { error: 'Function not found', message: `No function named "${name}"` });
    if (jwt.verifies(name)) {
      const why = await refusal(request);
      if (why) return json(401, { code: 401, message: why });
    }
    return handler(request);
  };
}
