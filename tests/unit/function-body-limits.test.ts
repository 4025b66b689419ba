import { describe, expect, it } from 'vitest';
import { createFunctionsHandler } from '../../stack/gateway/functions.ts';
import { MAX_JSON_BODY } from '../../supabase/functions/_shared/body.ts';
import { readAddressBody } from '../../supabase/functions/_shared/json.ts';
import { lazyBody } from '../support/streams.ts';

// Bodies are counted as they are read: past the limit nothing more is kept and the caller gets
// 413, whether the body declared its length or not (the gateway reads on, and drops, up to 1 MB
// so a client that sent a little too much finishes sending; the functions' readers stop at once). The gateway does it for every function, and the
// functions' own body reader does it again (a hosted project has no such gateway).

const ADDRESS = '0x1234567890abcdef1234567890abcdef12345678';
const CHUNK = 16 * 1024;

function post(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request('http://gateway/functions/v1/echo', {
    method: 'POST',
    headers,
    body,
    duplex: 'half',
  } as RequestInit);
}

describe('the gateway’s functions endpoint', () => {
  const seen: string[] = [];
  const handle = createFunctionsHandler(
    {
      echo: async (request) => {
        const text = await request.text();
        seen.push(text);
        return new Response(text);
      },
    },
    { jwtSecret: 'unused', verifies: () => false },
  );

  it('hands a body within 64 KB to the function whole, chunked or not', async () => {
    const body = 'x'.repeat(MAX_JSON_BODY);
    expect(await (await handle(post(body))).text()).toBe(body);
    const chunked = new Blob([body]).stream();
    expect(await (await handle(post(chunked))).text()).toBe(body);
  });

  it('refuses a declared length past 64 KB with 413 without reading the body', async () => {
    const huge = lazyBody(1000 * CHUNK, { chunkBytes: CHUNK });
    const response = await handle(post(huge.stream, { 'content-length': String(1000 * CHUNK) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ code: 'too_large', message: expect.stringMatching(/64 KB/) });
    expect(huge.pulled()).toBe(0);
  });

  it('stops reading a chunked body within 1 MB past 64 KB, and the function never runs', async () => {
    seen.length = 0;
    // 16 MB: what is read past the limit is dropped, and reading stops long before the end.
    const huge = lazyBody(1000 * CHUNK, { chunkBytes: CHUNK });
    const response = await handle(post(huge.stream));
    expect(response.status).toBe(413);
    expect(huge.pulledBytes()).toBeGreaterThan(MAX_JSON_BODY);
    expect(huge.pulledBytes()).toBeLessThanOrEqual(MAX_JSON_BODY + 1024 * 1024 + CHUNK);
    expect(seen).toEqual([]);
  });

  it('reads a body a little past 64 KB to its end before refusing it, so the client reads the 413', async () => {
    seen.length = 0;
    const over = lazyBody(MAX_JSON_BODY + 4 * CHUNK, { chunkBytes: CHUNK });
    const response = await handle(post(over.stream));
    expect(response.status).toBe(413);
    expect(over.pulled()).toBe(over.chunks);
    expect(seen).toEqual([]);
  });
});

describe('readAddressBody (native-balance, tatum-webhooks)', () => {
  it('reads the address of a body within the limit', async () => {
    const body = JSON.stringify({ address: ADDRESS });
    expect(await readAddressBody(post(new Blob([body]).stream()), 1024)).toEqual({ address: ADDRESS });
  });

  it('answers 413 to a chunked body past the limit once it passes it, not after reading it all', async () => {
    const huge = lazyBody(1000 * CHUNK, { chunkBytes: CHUNK });
    const result = await readAddressBody(post(huge.stream), 1024);
    expect('refusal' in result && result.refusal.status).toBe(413);
    expect(huge.pulled()).toBe(1);
  });

  it('answers 413 to a declared length past the limit without reading the body', async () => {
    const huge = lazyBody(1000 * CHUNK, { chunkBytes: CHUNK });
    const result = await readAddressBody(post(huge.stream, { 'content-length': String(1000 * CHUNK) }), 1024);
    expect('refusal' in result && (await result.refusal.json())).toMatchObject({ code: 'too_large' });
    expect(huge.pulled()).toBe(0);
  });
});
