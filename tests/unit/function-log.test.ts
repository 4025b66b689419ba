import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorLine, logError } from '../../supabase/functions/_shared/log.ts';
import { RpcError } from '../../supabase/functions/_shared/rpc.ts';

// What a function's log keeps of a failure. Hosted RPC URLs carry the provider's key in their
// path, their query or their userinfo, and the runtimes quote the URL in fetch errors (Deno in
// the message of the TypeError's cause, Node in the message itself for a URL with credentials).

const KEY = 'Pr0v1derKey7f3a9c';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('errorLine', () => {
  it.each([
    [`https://sepolia.infura.io/v3/${KEY}`, 'https://sepolia.infura.io'],
    [`https://eth-sepolia.g.alchemy.com/v2/${KEY}`, 'https://eth-sepolia.g.alchemy.com'],
    [`https://rpc.example.org/?apikey=${KEY}#top`, 'https://rpc.example.org'],
    [`http://rpc:${KEY}@127.0.0.1:8545/`, 'http://127.0.0.1:8545'],
    [`wss://${KEY}@node.example.org:8546/ws/${KEY}?key=${KEY}`, 'wss://node.example.org:8546'],
  ])('cuts %s to its scheme and host', (url, origin) => {
    const line = errorLine(new TypeError(`error sending request for url (${url}): connection refused`));
    expect(line).toBe(`TypeError: error sending request for url (${origin}): connection refused`);
  });

  it('cuts every URL of a message, as Node quotes one with credentials', () => {
    const url = `http://user:${KEY}@127.0.0.1:9/v3/${KEY}?apikey=${KEY}`;
    const line = errorLine(
      new TypeError(`Request cannot be constructed from a URL that includes credentials: ${url}, ${url}`),
    );
    expect(line).toBe(
      'TypeError: Request cannot be constructed from a URL that includes credentials: ' +
        'http://127.0.0.1:9, http://127.0.0.1:9',
    );
  });

  it('hides the whole of a URL it cannot read, not only its host', () => {
    const line = errorLine(new Error(`no answer from https://${KEY}@[not-a-host]/v3/${KEY}.`));
    expect(line).toBe('Error: no answer from https://….');
  });

  it('keeps the error’s name and message, never its cause', () => {
    const refused = new Error(`error sending request for url (http://127.0.0.1:9/v3/${KEY})`);
    const fetchFailed = new TypeError('fetch failed', { cause: refused });
    const error = new RpcError('eth_call: the node could not be reached', { cause: fetchFailed });
    expect(errorLine(error)).toBe('RpcError: eth_call: the node could not be reached');
  });

  it('is one line: no stack, and of a long message its first line only', () => {
    // viem's messages: a short first line, then details that quote the URL and the request body.
    const error = new Error(
      `HTTP request failed.\n\nURL: https://eth-sepolia.g.alchemy.com/v2/${KEY}\nRequest body: {}`,
    );
    error.name = 'HttpRequestError';
    expect(errorLine(error)).toBe('HttpRequestError: HTTP request failed.');
  });

  it('is short however long the message', () => {
    const line = errorLine(new Error('x'.repeat(5000)));
    expect(line.length).toBeLessThanOrEqual(300);
    expect(line.startsWith('Error: xxx')).toBe(true);
  });

  it('says what a non-Error value was without quoting an object', () => {
    expect(errorLine(`node down at https://sepolia.infura.io/v3/${KEY}`)).toBe(
      'thrown string: node down at https://sepolia.infura.io',
    );
    expect(errorLine({ url: `https://sepolia.infura.io/v3/${KEY}` })).toBe('thrown object');
    expect(errorLine(null)).toBe('thrown null');
    expect(errorLine(undefined)).toBe('thrown undefined');
    expect(errorLine(42)).toBe('thrown number: 42');
  });
});

describe('logError', () => {
  it('writes one line naming the function and what failed', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const cause = new TypeError(`fetch failed for https://sepolia.infura.io/v3/${KEY}`);
    logError('record-transaction', 'failed', new RpcError('eth_getTransactionReceipt: down', { cause }));
    expect(logged.mock.calls).toEqual([
      ['[record-transaction] failed: RpcError: eth_getTransactionReceipt: down'],
    ]);
  });
});
