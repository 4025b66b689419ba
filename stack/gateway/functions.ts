import { json } from './http.ts';

// Serves /functions/v1/<name> from the same Web-API handlers that are
// deployed as Supabase Edge Functions.

export type FunctionHandler = (request: Request) => Promise<Response>;

export function createFunctionsHandler(
  functions: Record<string, FunctionHandler>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const name = new URL(request.url).pathname.replace(/^\/functions\/v1\//, '').split('/')[0] ?? '';
    const handler = Object.hasOwn(functions, name) ? functions[name] : undefined;
    if (!handler) return json(404, { error: 'Function not found', message: `No function named "${name}"` });
    return handler(request);
  };
}
