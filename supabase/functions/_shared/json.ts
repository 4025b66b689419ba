import { ADDRESS } from './address.ts';
import { readTextLimited } from './body.ts';

// The functions' JSON answers, and the one body two of them take.

const JSON_HEADERS = { 'content-type': 'application/json' };

export function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** A refusal: `{ error, code, message }`, the code for the portal to word, the message for people. */
export function refuse(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): Response {
  return reply(status, { error: code, code, message, ...extra });
}

/**
 * `{ "address": "0x…" }` read from the body, or the refusal to answer with: past `maxBytes` (at
 * most MAX_JSON_BODY), 413 as soon as the count passes it, without reading the rest.
 */
export async function readAddressBody(
  request: Request,
  maxBytes: number,
): Promise<{ address: string } | { refusal: Response }> {
  const text = await readTextLimited(request, maxBytes);
  if (text === null) {
    return { refusal: refuse(413, 'too_large', 'The request body is too large') };
  }
  let address: unknown;
  try {
    address = (JSON.parse(text) as { address?: unknown } | null)?.address;
  } catch {
    return {
      refusal: refuse(400, 'malformed', 'The request body is not valid JSON; send {"address": "0x…"}'),
    };
  }
  if (typeof address !== 'string' || !ADDRESS.test(address)) {
    return { refusal: refuse(400, 'malformed', 'address must be 0x followed by 40 hex digits') };
  }
  return { address };
}
