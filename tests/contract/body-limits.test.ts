import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { MAX_JSON_BODY } from '../../supabase/functions/_shared/body.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { chunked, lazyBody } from '../support/streams.ts';

// The gateway counts a function's request body as it arrives and refuses it with 413 once it
// passes 64 KB: a declared Content-Length is refused before anything is read, and a chunked body
// (which declares none) is cut off as it streams, so nobody can make the stack buffer a huge one.
// Deliveries to process-payments, as Tatum sends them, under the functions' default runtime (Deno).

const stack = inject('gateway');
const FUNCTION_URL = `${stack.url}/functions/v1/process-payments`;
const CHUNK_BYTES = 16 * 1024;
const HUGE_BYTES = 50 * 1024 * 1024;

/** A valid, signed address event for an address nobody holds, padded to exactly `size` bytes. */
function paddedEvent(size: number): string {
  const event = {
    address: `0x${randomBytes(20).toString('hex')}`,
    amount: '1.5',
    asset: 'ETH',
    blockNumber: 1234,
    counterAddress: null,
    txId: `0x${randomBytes(32).toString('hex')}`,
    type: 'native',
    chain: 'ethereum-sepolia',
    subscriptionType: 'ADDRESS_EVENT',
    note: '',
  };
  const bare = JSON.stringify(event).length;
  return JSON.stringify({ ...event, note: 'x'.repeat(size - bare) });
}

async function signedHeaders(body: string): Promise<Record<string, string>> {
  return {
    'content-type': 'application/json',
    'x-payload-hash': await signPayload(stack.webhookSecret, body),
  };
}

/** POSTs the body with its Content-Length, as most clients do. */
async function deliver(body: string): Promise<Response> {
  return fetch(FUNCTION_URL, { method: 'POST', headers: await signedHeaders(body), body });
}

/** POSTs a stream without a Content-Length (chunked), as a streaming client does. */
function deliverChunked(
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(FUNCTION_URL, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
}

async function expectDelivered(response: Response): Promise<void> {
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ received: true, recorded: 0 });
}

async function expectTooLarge(response: Response): Promise<void> {
  expect(response.status).toBe(413);
  expect(await response.json()).toEqual({ code: 'too_large', message: expect.stringMatching(/64 KB/) });
}

describe('function request bodies past 64 KB', () => {
  it('runs the functions under Deno, as deployed', () => {
    expect(stack.functions.runtime).toBe('deno');
  });

  it('lets a body just under the limit reach the function, with a length or chunked', async () => {
    const body = paddedEvent(MAX_JSON_BODY - 16);
    await expectDelivered(await deliver(body));
    await expectDelivered(
      await deliverChunked(chunked(body, Math.ceil(body.length / 2)), await signedHeaders(body)),
    );
  });

  it('refuses a body whose Content-Length is past the limit with 413, before the function sees it', async () => {
    // Signed and well formed: only its size stands between it and a 200.
    await expectTooLarge(await deliver(paddedEvent(MAX_JSON_BODY + 1)));
  });

  it('stops reading a chunked body soon after the limit, refuses it with 413 and serves the next', async () => {
    const huge = lazyBody(HUGE_BYTES, { chunkBytes: CHUNK_BYTES });
    await expectTooLarge(await deliverChunked(huge.stream, { 'content-type': 'application/json' }));
    // What was pulled is what fit in the sockets' buffers by the time the answer came: nowhere
    // near the 50 MB the client had to send.
    expect(huge.pulled() * 4).toBeLessThan(huge.chunks);
    await expectDelivered(await deliver(paddedEvent(1024)));
  });
});
