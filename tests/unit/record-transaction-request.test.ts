import { describe, expect, it } from 'vitest';
import { parseRecordRequest } from '../../supabase/functions/record-transaction/handler.ts';
import { createRpcClient, RpcError } from '../../supabase/functions/_shared/rpc.ts';

// The parts of record-transaction that need neither the stack nor a chain: the
// request body it accepts and how its JSON-RPC client reports a node's answers.

const HASH = `0x${'aB'.repeat(32)}`;

describe('parseRecordRequest', () => {
  it('accepts {txHash} with a 32-byte hash in any letter case', () => {
    expect(parseRecordRequest(JSON.stringify({ txHash: HASH }))).toEqual({ ok: true, txHash: HASH });
  });

  it('says what is wrong with a body it refuses', () => {
    expect(parseRecordRequest('{"txHash": ')).toEqual({
      ok: false,
      message: expect.stringMatching(/not valid JSON/),
    });
    expect(parseRecordRequest('')).toEqual({ ok: false, message: expect.stringMatching(/not valid JSON/) });
    expect(parseRecordRequest(JSON.stringify([HASH]))).toEqual({
      ok: false,
      message: expect.stringMatching(/JSON object/),
    });
    expect(parseRecordRequest('{}')).toEqual({ ok: false, message: 'txHash is required' });
    const format = { ok: false, message: expect.stringMatching(/^txHash must be a transaction hash/) };
    for (const txHash of [
      HASH.slice(0, -1),
      `${HASH}0`,
      HASH.slice(2),
      `0x${'g'.repeat(64)}`,
      42,
      { HASH },
    ]) {
      expect(parseRecordRequest(JSON.stringify({ txHash }))).toEqual(format);
    }
  });
});

describe('createRpcClient', () => {
  type Sent = { url: string; body: unknown };

  function node(answer: (body: { id: number; method: string }) => Response | Promise<Response>) {
    const sent: Sent[] = [];
    const call = createRpcClient('http://node.test/rpc', {
      fetch: async (input, init) => {
        const body = JSON.parse(String(init?.body)) as { id: number; method: string };
        sent.push({ url: String(input), body });
        return answer(body);
      },
    });
    return { call, sent };
  }

  const json = (value: unknown, status = 200) =>
    new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

  it('posts a JSON-RPC 2.0 request and returns its result, including a null result', async () => {
    const { call, sent } = node(({ id, method }) =>
      json({ jsonrpc: '2.0', id, result: method === 'eth_getTransactionReceipt' ? null : '0x12' }),
    );
    expect(await call('eth_call', [{ to: '0x1', data: '0x313ce567' }, 'latest'])).toBe('0x12');
    expect(await call('eth_getTransactionReceipt', [HASH])).toBeNull();
    expect(sent).toEqual([
      {
        url: 'http://node.test/rpc',
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_call',
          params: [{ to: '0x1', data: '0x313ce567' }, 'latest'],
        },
      },
      {
        url: 'http://node.test/rpc',
        body: { jsonrpc: '2.0', id: 2, method: 'eth_getTransactionReceipt', params: [HASH] },
      },
    ]);
  });

  it('turns every kind of failure into an RpcError naming the method', async () => {
    const cases: [string, () => Response | Promise<Response>, RegExp][] = [
      [
        'error reply',
        () => json({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad params' } }),
        /bad params/,
      ],
      ['HTTP 503', () => new Response('busy', { status: 503 }), /HTTP 503/],
      ['not JSON', () => new Response('<html>'), /not JSON/],
      ['no result', () => json({ jsonrpc: '2.0', id: 1 }), /no result/],
      ['not an object', () => json([1]), /not a JSON-RPC response/],
      ['unreachable', () => Promise.reject(new TypeError('fetch failed')), /could not be reached/],
    ];
    for (const [, answer, message] of cases) {
      const { call } = node(answer);
      const failure = call('eth_getTransactionReceipt', [HASH]);
      await expect(failure).rejects.toBeInstanceOf(RpcError);
      await expect(failure).rejects.toThrow(message);
      await expect(failure).rejects.toThrow(/^eth_getTransactionReceipt: /);
    }
  });

  it('gives up on a node that never answers', async () => {
    const call = createRpcClient('http://node.test/rpc', {
      timeoutMs: 50,
      fetch: (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    });
    await expect(call('eth_getTransactionReceipt', [HASH])).rejects.toThrow(/could not be reached/);
  });
});
