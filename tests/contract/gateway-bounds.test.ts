import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AUTH_BODY_LIMIT, REST_BODY_LIMIT } from '../../stack/gateway/body-bounds.ts';
import type { Gateway } from '../../stack/gateway/index.ts';
import { startOwnGateway } from '../support/stack/own-stack.ts';
import { signedInUser } from '../support/stack/users.ts';
import { lazyBody } from '../support/streams.ts';

// What the one gateway process, which serves the database, auth, realtime and the functions,
// accepts from anybody holding the public key: bodies it counts as they arrive and refuses past a
// limit without reading on, a refusal after which the client's next request still works, no
// internals of lite's, and no connection held open by a client that stops sending.

const stack = inject('gateway');
const HUGE_BYTES = 400 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

/** POSTs a body that declares no length, as a streaming client sends it. */
function postChunked(path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

async function expectTooLarge(response: Response, limitText: RegExp): Promise<void> {
  expect(response.status).toBe(413);
  expect(await response.json()).toEqual({ code: 'too_large', message: expect.stringMatching(limitText) });
}

describe('request bodies to auth and REST', () => {
  it('refuses a 400 MB chunked sign-up with 413, having read little of it', async () => {
    const huge = lazyBody(HUGE_BYTES, {
      chunkBytes: CHUNK_BYTES,
      head: new TextEncoder().encode('{"email":"'),
    });
    await expectTooLarge(await postChunked('/auth/v1/signup', huge.stream), /64 KB/);
    // What was pulled fit in the sockets' buffers by the time the answer came: not the 400 MB.
    expect(huge.pulledBytes()).toBeLessThan(HUGE_BYTES / 20);
  });

  it('refuses a sign-up whose declared length is past 64 KB, and signs up one of usual size', async () => {
    const padded = JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(AUTH_BODY_LIMIT) });
    const refused = await fetch(`${stack.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: padded,
    });
    await expectTooLarge(refused, /64 KB/);
    await expect(signedInUser(stack, 'bounds')).resolves.toMatchObject({ email: expect.any(String) });
  });

  it('refuses a REST body past 1 MB with 413, and saves one just under it', async () => {
    const user = await signedInUser(stack, 'bounds-rest');
    const save = (bytes: number) =>
      fetch(`${stack.url}/rest/v1/profiles?on_conflict=id`, {
        method: 'POST',
        headers: {
          apikey: stack.anonKey,
          authorization: `Bearer ${user.accessToken}`,
          'content-type': 'application/json',
          prefer: 'resolution=merge-duplicates',
        },
        // The profile's avatar_url has no length limit of its own: the body's size is all that differs.
        body: JSON.stringify({ id: user.id, email: user.email, avatar_url: `data:,${'a'.repeat(bytes)}` }),
      });
    await expectTooLarge(await save(REST_BODY_LIMIT), /1 MB/);
    expect((await save(REST_BODY_LIMIT - 4096)).status).toBe(201);
    const huge = lazyBody(HUGE_BYTES, { chunkBytes: CHUNK_BYTES });
    await expectTooLarge(
      await postChunked('/rest/v1/profiles', huge.stream, { authorization: `Bearer ${user.accessToken}` }),
      /1 MB/,
    );
    // What was pulled fit in the sockets' buffers by the time the answer came: not the 400 MB.
    expect(huge.pulledBytes()).toBeLessThan(HUGE_BYTES / 20);
  });
});

/** One request on `agent` (one kept-alive socket), answered with its status and body. */
function onAgent(
  agent: Agent,
  options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; body: string }> {
  const { port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: options.method,
        path: options.path,
        headers: options.headers,
      },
      (response: IncomingMessage) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    sent.on('error', reject);
    if (options.body) {
      // Chunked: written in pieces, with no Content-Length, as a streaming upload goes.
      for (let at = 0; at < options.body.length; at += 16 * 1024)
        sent.write(options.body.subarray(at, at + 16 * 1024));
    }
    sent.end();
  });
}

describe('after a refused body', () => {
  it("answers the same client's next request on its kept-alive connection", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await onAgent(agent, {
        method: 'POST',
        path: '/functions/v1/process-payments',
        headers: { 'content-type': 'application/json' },
        body: Buffer.alloc(200 * 1024, 0x20),
      });
      expect(refused.status).toBe(413);
      const next = await onAgent(agent, {
        method: 'GET',
        path: '/auth/v1/health',
        headers: { apikey: stack.anonKey },
      });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe("lite's own system routes", () => {
  it.each(['/_system/config', '/_system/info', '/_system/introspect'])(
    'answers %s 404, with the public key or none',
    async (path) => {
      const bare = await fetch(`${stack.url}${path}`);
      const withKey = await fetch(`${stack.url}${path}`, { headers: { apikey: stack.anonKey } });
      expect([bare.status, withKey.status]).toEqual([404, 404]);
      expect(await bare.text()).not.toMatch(/jwt|schema|dataDir|pg/i);
    },
  );
});

describe('a client that stops sending', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startOwnGateway('bounds', { headersTimeoutMs: 400, requestTimeoutMs: 800 });
  });
  afterAll(() => gateway.close());

  /** Writes `text` on a raw connection and resolves with what the gateway sent before it closed it. */
  function sendAndWait(text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(gateway.port, '127.0.0.1', () => socket.write(text));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  it('closes a connection whose headers never end, with 408', async () => {
    const answer = await sendAndWait(
      `GET /auth/v1/health HTTP/1.1\r\nhost: 127.0.0.1\r\napikey: ${gateway.anonKey}\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a request whose body stops halfway, with 408', async () => {
    const answer = await sendAndWait(
      `POST /auth/v1/signup HTTP/1.1\r\nhost: 127.0.0.1\r\napikey: ${gateway.anonKey}\r\n` +
        'content-type: application/json\r\ncontent-length: 1000\r\n\r\n{"email":',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
