import { parseAddressEvent, skipOf, type AddressEvent } from './address-event.ts';
import { MAX_JSON_BODY, readBodyLimited } from './body.ts';
import { reply } from './json.ts';
import { verifySignature } from './signature.ts';

// The front door of the functions Tatum calls (process-payments, market-bots): a POST of at most
// 64 KB, signed with x-payload-hash under the webhook secret, whose body is an address event of the
// function's one chain. The signature is checked on the bytes as sent, before anything is decoded.

export type SignedEvent =
  /** An address event to act on. */
  | { kind: 'event'; event: AddressEvent }
  /**
   * Signed and well formed, but not for this function (another chain, the mempool, a kind such as an
   * NFT transfer the portal does not record, a type Tatum may add later): answer 2xx.
   */
  | { kind: 'skipped'; reason: string }
  /** Refused: answer with this. */
  | { kind: 'refused'; response: Response };

const refused = (response: Response): SignedEvent => ({ kind: 'refused', response });

export async function readSignedEvent(
  request: Request,
  options: { name: string; secret: string; chain: string },
): Promise<SignedEvent> {
  if (request.method !== 'POST') {
    return refused(reply(405, { error: 'Method not allowed', message: `${options.name} accepts POST only` }));
  }
  // Read at most 64 KB, whatever the body declares or streams: an address event is a few hundred bytes.
  const read = await readBodyLimited(request, MAX_JSON_BODY);
  if ('tooLarge' in read) {
    return refused(
      reply(413, {
        error: 'Payload too large',
        message: `An address event is at most ${MAX_JSON_BODY / 1024} KB`,
      }),
    );
  }
  const raw = read.bytes;
  if (!(await verifySignature(options.secret, raw, request.headers.get('x-payload-hash')))) {
    return refused(
      reply(401, {
        error: 'Invalid signature',
        message: 'x-payload-hash is missing or is not the HMAC-SHA512 of the body under the webhook secret',
      }),
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return refused(reply(400, { error: 'Malformed body', message: 'The request body is not valid JSON' }));
  }
  // A skipped event is still answered 2xx by the caller, or Tatum would deliver it again and again.
  const skip = skipOf(body, options.chain);
  if (skip !== null) return { kind: 'skipped', reason: skip.message };
  const parsed = parseAddressEvent(body);
  if (parsed.kind === 'invalid') {
    return refused(
      reply(400, {
        error: 'Malformed body',
        message: 'The address event is not valid',
        problems: parsed.problems,
      }),
    );
  }
  if (parsed.kind === 'ignored') return { kind: 'skipped', reason: parsed.reason };
  return { kind: 'event', event: parsed.event };
}
