import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTatumApi, TatumError, type TatumConfig } from '../../supabase/functions/_shared/tatum.ts';

// What the Tatum functions pass on (tatum-webhooks answers a provider's refusal with its detail)
// and log (native-balance) is TatumError's detail: it must never quote the Tatum key, nor the RPC
// URL or the parts of it a node provider's refusal may quote alone (its query values, its
// credentials). Driven through createTatumApi with the unmodified SDK against two local servers
// that refuse every request and quote what a careless provider would.

const TATUM_KEY = 't-0123456789abcdef-tatum-key';
const QUERY_KEY = 'query-key-fedcba9876543210';
const USERNAME = 'node-user-4242';
const PASSWORD = 'node-pass-8484-secret';
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** Every request a server received, and the text each refusal quoted. */
type Refuser = { server: Server; url: string; received: IncomingMessage[] };

async function refuser(quote: (request: IncomingMessage, self: string) => string): Promise<Refuser> {
  const received: IncomingMessage[] = [];
  let url = '';
  const server = createServer((request, response) => {
    received.push(request);
    request.resume();
    response.writeHead(403, { 'content-type': 'text/plain' });
    response.end(quote(request, url));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url, received };
}

/** What the call failed with: a TatumError, whose detail and message are all a caller sees. */
async function failureOf(call: Promise<unknown>): Promise<TatumError> {
  const failed: unknown = await call.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
  if (!(failed instanceof TatumError)) throw failed;
  return failed;
}

const seen = (error: TatumError) => `${error.detail ?? ''} | ${error.message}`;

let tatum: Refuser;
let node: Refuser;

beforeAll(async () => {
  // Tatum's REST API, refusing with the key it was sent, as an error page might.
  tatum = await refuser((request) => `API key ${String(request.headers['x-api-key'])} is not allowed here`);
  // A node provider, refusing with its own URL, each of its query's values and the credentials
  // it was sent.
  node = await refuser((request, self) => {
    const asked = new URL(request.url ?? '/', self);
    const values = [...asked.searchParams.values()].join(', ');
    const [user, password] = Buffer.from(
      (request.headers.authorization ?? '').replace(/^Basic /, ''),
      'base64',
    )
      .toString()
      .split(':');
    const caller = user ? `; user ${user} (password ${password ?? ''}) may not call` : '';
    return `no access for ${self}${request.url ?? ''}: key ${values} is suspended${caller}`;
  });
});

afterAll(async () => {
  for (const { server } of [tatum, node]) {
    await new Promise<void>((closed) => server.close(() => closed()));
  }
});

const config = (rpcUrl: string): TatumConfig => ({
  apiKey: TATUM_KEY,
  apiUrl: `${tatum.url}/v4/`,
  rpcUrl,
  mainnet: false,
});

describe('the Tatum functions’ failure details', () => {
  it('replace the Tatum key a refusal quotes with [redacted]', async () => {
    const api = createTatumApi(config(`${node.url}/rpc`));
    const failed = await failureOf(api.subscribe(ADDRESS, 'https://project.example/functions/v1/hook'));
    expect(tatum.received.at(-1)?.headers['x-api-key']).toBe(TATUM_KEY);
    expect(failed.detail).toContain('API key [redacted] is not allowed here');
    expect(seen(failed)).not.toContain(TATUM_KEY);
  });

  it('replace the RPC URL, whole, and each of its query values with [redacted]', async () => {
    const api = createTatumApi(config(`${node.url}/rpc?apikey=${QUERY_KEY}&network=sepolia`));
    const failed = await failureOf(api.nativeBalance(ADDRESS));
    // The node was asked with the key in its query, and quoted it alone as well as in the URL.
    expect(node.received.at(-1)?.url).toContain(QUERY_KEY);
    expect(failed.detail).toMatch(/^no access for \[redacted\]: key \[redacted\], sepolia is suspended/);
    expect(seen(failed)).not.toContain(QUERY_KEY);
    expect(seen(failed)).not.toContain(node.url);
  });

  it('replace the credentials of the RPC URL with [redacted], quoted whole or alone', async () => {
    const rpcUrl = `http://${USERNAME}:${PASSWORD}@${node.url.replace('http://', '')}/rpc`;
    const api = createTatumApi(config(rpcUrl));
    // Node's fetch refuses a URL with credentials, and says so quoting it.
    const refused = await failureOf(api.nativeBalance(ADDRESS));
    expect(refused.detail).toMatch(/credentials: \[redacted\]$/);
    expect(seen(refused)).not.toContain(USERNAME);
    expect(seen(refused)).not.toContain(PASSWORD);

    // Deno, which runs the functions when deployed, sends them as Basic auth instead, so the node
    // can quote each alone; this fetch does as Deno's does.
    const nodeFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const basic = Buffer.from(`${url.username}:${url.password}`).toString('base64');
      url.username = '';
      url.password = '';
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Basic ${basic}`);
      return nodeFetch(url, { ...init, headers });
    };
    try {
      const quoted = await failureOf(api.nativeBalance(ADDRESS));
      expect(node.received.at(-1)?.headers.authorization).toBeDefined();
      expect(quoted.detail).toContain('user [redacted] (password [redacted]) may not call');
      expect(seen(quoted)).not.toContain(USERNAME);
      expect(seen(quoted)).not.toContain(PASSWORD);
    } finally {
      globalThis.fetch = nodeFetch;
    }
  });
});
