import { parseAddressEvent } from './address-event.ts';

// process-payments receives Tatum address-event webhooks. It is a plain
// Web-API handler so the same module runs on Supabase Edge Functions (Deno,
// see index.ts) and on the local stack (Node).

const JSON_HEADERS = { 'content-type': 'application/json' };

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}

export function createProcessPaymentsHandler(): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') {
      return reply(405, { error: 'Method not allowed', message: 'process-payments accepts POST only' });
    }
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return reply(400, { error: 'Malformed body', message: 'The request body is not valid JSON' });
    }
    const parsed = parseAddressEvent(body);
    if (!parsed.ok) {
      return reply(400, {
        error: 'Malformed body',
        message: 'The address event is not valid',
        problems: parsed.problems,
      });
    }
    return reply(200, { received: true, txId: parsed.event.txId });
  };
}
