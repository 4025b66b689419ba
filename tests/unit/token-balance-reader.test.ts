import {
  encodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  formatUnits as viemFormatUnits,
  maxUint256,
  parseAbi,
} from 'viem';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenCopy } from '../../src/copy/index.ts';
import { describeError } from '../../src/machines/error-words.ts';
import {
  answersOf,
  balanceCalls,
  CALL,
  chainIdOf,
  createBalanceReader,
  decimalsOf,
  formatUnits,
  resultOf,
  uintOf,
  type RpcCall,
} from '../../src/services/token/balance-reader.ts';
import { createDeferredTokenService } from '../../src/services/token/deferred-service.ts';
import { TokenServiceError, type TokenService } from '../../src/services/token/types.ts';

// The DDEX balance read without viem (src/services/token/balance-reader.ts): what it sends, how it
// reads the node's answers, and that it formats as viem does. viem serves as the independent oracle
// for the encodings; the node itself is tests/contract/token-balance-reader.test.ts's.

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

/** A reader for the local chain's id whose requests go to `fetch` (the address is never contacted). */
const readerOver = (fetch: typeof globalThis.fetch) =>
  createBalanceReader({ rpcUrl: 'http://127.0.0.1:1', chainId: 31337, tokenAddress: TOKEN, fetch });
const HOLDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}`;
const errorString = (reason: string) =>
  encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: [reason] });

/** What a call rejects with; fails the test when it resolves or throws anything else. */
async function problemOf(promise: Promise<unknown>) {
  const outcome = await promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof TokenServiceError)) throw outcome;
  return outcome.problem;
}
const thrownProblem = (run: () => unknown) => problemOf(Promise.resolve().then(run));

describe('formatUnits', () => {
  // A fixed pseudo-random sequence: many magnitudes, the same every run.
  let seed = 0x2545f491n;
  const next = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n);
  const randomValues = Array.from({ length: 200 }, (_, i) => {
    const digits = (i % 80) + 1;
    return (next() * next() * next() * next() * next()) % 10n ** BigInt(digits);
  });
  const values = [
    0n,
    1n,
    9n,
    10n,
    100n,
    999_999n,
    1_000_000n,
    1_000_001n,
    10n ** 17n,
    10n ** 18n - 1n,
    10n ** 18n,
    10n ** 18n + 1n,
    12_345n * 10n ** 15n,
    10n ** 24n,
    1_000_000n * 10n ** 18n,
    maxUint256,
    -1n,
    -(10n ** 18n) - 5n,
    ...randomValues,
  ];

  it.each([0, 1, 6, 8, 18, 30, 77, 255])('gives viem’s text for every value with %i decimals', (decimals) => {
    for (const value of values) expect(formatUnits(value, decimals)).toBe(viemFormatUnits(value, decimals));
  });

  it('writes the smallest unit, whole tokens and no trailing zeros', () => {
    expect(formatUnits(0n, 18)).toBe('0');
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001');
    expect(formatUnits(10n ** 18n, 18)).toBe('1');
    expect(formatUnits(1_500_000n, 6)).toBe('1.5');
    expect(formatUnits(42n, 0)).toBe('42');
  });
});

describe('balance reader requests', () => {
  it('asks for the balance, decimals and chain id in one batch, as viem encodes the calls', () => {
    const call = (id: number, data: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'eth_call',
      params: [{ to: TOKEN.toLowerCase(), data }, 'latest'],
    });
    expect(balanceCalls(TOKEN, HOLDER, { chainId: true, decimals: true })).toEqual([
      call(CALL.balance, encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [HOLDER] })),
      call(CALL.decimals, encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' })),
      { jsonrpc: '2.0', id: CALL.chainId, method: 'eth_chainId', params: [] },
    ]);
  });

  it('asks only for the balance once the chain and decimals are known, whatever the letter case', () => {
    const calls = balanceCalls(TOKEN, HOLDER.toUpperCase().replace('0X', '0x'), {
      chainId: false,
      decimals: false,
    });
    expect(calls.map((call) => call.id)).toEqual([CALL.balance]);
    expect(calls[0]?.params[0]).toEqual({
      to: TOKEN.toLowerCase(),
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [HOLDER] }),
    });
  });
});

describe('balance reader answers', () => {
  const ids = [CALL.chainId, CALL.decimals, CALL.balance];

  it('matches a batch’s answers to its calls by id, in any order', () => {
    const answers = answersOf(
      200,
      JSON.stringify([
        { jsonrpc: '2.0', id: CALL.balance, result: word(5n) },
        { jsonrpc: '2.0', id: CALL.chainId, result: '0x7a69' },
        { jsonrpc: '2.0', id: CALL.decimals, result: word(18n) },
      ]),
      ids,
    );
    expect(chainIdOf(resultOf(answers.get(CALL.chainId), 'eth_chainId'))).toBe(31337);
    expect(decimalsOf(resultOf(answers.get(CALL.decimals), 'eth_call'))).toBe(18);
    expect(uintOf(resultOf(answers.get(CALL.balance), 'eth_call'), 'balanceOf()')).toBe(5n);
  });

  it('takes a single call’s answer as it comes', () => {
    const answers = answersOf(200, JSON.stringify({ jsonrpc: '2.0', id: 7, result: word(1n) }), [
      CALL.balance,
    ]);
    expect(resultOf(answers.get(CALL.balance), 'eth_call')).toBe(word(1n));
  });

  it('reports an answer that is not JSON as an unreachable node, with the HTTP status of an error', async () => {
    expect(await thrownProblem(() => answersOf(200, '<html>gateway</html>', ids))).toEqual({
      code: 'rpc-unavailable',
      status: null,
    });
    expect(await thrownProblem(() => answersOf(502, 'Bad Gateway', ids))).toEqual({
      code: 'rpc-unavailable',
      status: 502,
    });
    expect(await thrownProblem(() => answersOf(404, JSON.stringify({ message: 'no route' }), ids))).toEqual({
      code: 'rpc-unavailable',
      status: 404,
    });
  });

  it('gives every call the JSON-RPC error a node sends for the whole batch', () => {
    const limit = { code: -32005, message: 'limit exceeded' };
    const refused = { code: -32600, message: 'batch refused' };
    const overLimit = answersOf(429, JSON.stringify({ jsonrpc: '2.0', id: null, error: limit }), ids);
    expect(ids.map((id) => overLimit.get(id)?.error)).toEqual([limit, limit, limit]);
    const batch = answersOf(200, JSON.stringify([{ jsonrpc: '2.0', id: null, error: refused }]), ids);
    expect(ids.map((id) => batch.get(id)?.error)).toEqual([refused, refused, refused]);
  });

  it('refuses an answer that lacks one of the calls', async () => {
    const partial = JSON.stringify([{ jsonrpc: '2.0', id: CALL.chainId, result: '0x7a69' }]);
    expect(await thrownProblem(() => answersOf(200, partial, ids))).toEqual({ code: 'unknown' });
    expect(await thrownProblem(() => answersOf(200, '', ids))).toEqual({ code: 'unknown' });
  });

  it('reports a contract call’s revert as refused, with the contract’s reason', async () => {
    const reverted = {
      id: 3,
      error: { code: 3, message: 'execution reverted: Paused', data: errorString('Paused') },
    };
    expect(await thrownProblem(() => resultOf(reverted, 'eth_call'))).toEqual({
      code: 'refused',
      revertReason: 'Paused',
    });
    // Hardhat's shape: -32603 with the revert data nested.
    const hardhat = {
      id: 3,
      error: { code: -32603, message: 'VM Exception', data: { data: errorString('Nope') } },
    };
    expect(await thrownProblem(() => resultOf(hardhat, 'eth_call'))).toEqual({
      code: 'refused',
      revertReason: 'Nope',
    });
    const bare = { id: 3, error: { code: -32603, message: 'execution reverted' } };
    expect(await thrownProblem(() => resultOf(bare, 'eth_call'))).toEqual({
      code: 'refused',
      revertReason: 'execution reverted',
    });
  });

  it('reports any other JSON-RPC error, and one for the chain id, as unknown', async () => {
    const missing = { id: 3, error: { code: -32601, message: 'the method eth_call does not exist' } };
    expect(await thrownProblem(() => resultOf(missing, 'eth_call'))).toEqual({ code: 'unknown' });
    const internal = { id: 1, error: { code: -32603, message: 'internal error' } };
    expect(await thrownProblem(() => resultOf(internal, 'eth_chainId'))).toEqual({ code: 'unknown' });
  });

  it('reads no data as no token contract, and a malformed result as an error, never a number', async () => {
    expect(await thrownProblem(() => uintOf('0x', 'balanceOf()'))).toEqual({ code: 'no-token-contract' });
    for (const result of ['0x01', `0x${'zz'.repeat(32)}`, 'hello', `${word(1n)}00`, word(1n).slice(2)]) {
      expect(await thrownProblem(() => uintOf(result, 'balanceOf()'))).toEqual({ code: 'unknown' });
    }
    expect(await thrownProblem(() => resultOf({ id: 3 }, 'eth_call'))).toEqual({ code: 'unknown' });
    expect(await thrownProblem(() => resultOf({ id: 3, result: 5 }, 'eth_call'))).toEqual({
      code: 'unknown',
    });
    expect(await thrownProblem(() => resultOf(undefined, 'eth_call'))).toEqual({ code: 'unknown' });
    expect(await thrownProblem(() => chainIdOf('31337'))).toEqual({ code: 'unknown' });
    expect(await thrownProblem(() => decimalsOf(word(256n)))).toEqual({ code: 'unknown' });
    // Only the first word counts, as with viem.
    expect(uintOf(`${word(7n)}${word(9n).slice(2)}`, 'balanceOf()')).toBe(7n);
  });
});

/**
 * A node that answers with `answer` for each JSON-RPC call it gets, and records what it was sent:
 * the network, not any of the portal's services.
 */
function fakeNode(answer: (call: RpcCall) => object) {
  const bodies: unknown[] = [];
  const fetch = vi.fn((_url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as RpcCall | RpcCall[];
    bodies.push(body);
    const reply = (call: RpcCall) => ({ jsonrpc: '2.0', id: call.id, ...answer(call) });
    return Promise.resolve(
      new Response(JSON.stringify(Array.isArray(body) ? body.map(reply) : reply(body)), {
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, bodies };
}

const healthy = (chainId: string) => (call: RpcCall) => {
  if (call.method === 'eth_chainId') return { result: chainId };
  const { data } = call.params[0] as { data: string };
  return { result: data.startsWith('0x313ce567') ? word(6n) : word(2_500_000n) };
};

describe('balance reader', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the chain and decimals once, in the first read’s batch, then only for balances', async () => {
    const node = fakeNode(healthy('0x7a69'));
    const reader = readerOver(node.fetch);
    expect(await reader.readBalance(HOLDER)).toEqual({ raw: 2_500_000n, formatted: '2.5', decimals: 6 });
    expect(await reader.readBalance(` ${HOLDER.toLowerCase()} `)).toEqual({
      raw: 2_500_000n,
      formatted: '2.5',
      decimals: 6,
    });
    expect(node.bodies).toHaveLength(2);
    expect(node.bodies[0]).toEqual(balanceCalls(TOKEN, HOLDER, { chainId: true, decimals: true }));
    expect(node.bodies[1]).toEqual(balanceCalls(TOKEN, HOLDER, { chainId: false, decimals: false })[0]);
  });

  it('refuses a node on another chain, and asks again on the next read', async () => {
    const node = fakeNode(healthy('0x1'));
    const reader = readerOver(node.fetch);
    const problem = await problemOf(reader.readBalance(HOLDER));
    expect(problem).toEqual({ code: 'wrong-chain', actual: 1, expected: 31337 });
    await problemOf(reader.readBalance(HOLDER));
    expect((node.bodies[1] as RpcCall[]).map((call) => call.method)).toContain('eth_chainId');
  });

  it('refuses a holder that is not an address without asking the node', async () => {
    const node = fakeNode(healthy('0x7a69'));
    const reader = readerOver(node.fetch);
    for (const holder of ['0x1234', '', 'not an address', `${HOLDER}00`]) {
      const error = await reader.readBalance(holder).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ reason: 'invalid-address', problem: { code: 'invalid-address' } });
      expect(describeError(error)).toBe(tokenCopy.invalidAddress);
    }
    expect(node.fetch).not.toHaveBeenCalled();
  });

  it('tries a node that does not answer twice more, then reports it unreachable', async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError('fetch failed')));
    const reader = readerOver(fetch);
    const error = await reader.readBalance(HOLDER).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ problem: { code: 'rpc-unavailable', status: null } });
    expect(describeError(error)).toBe(tokenCopy.rpcUnavailable);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('gives a silent node 10 s an attempt, three attempts, then reports it unreachable', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const reader = readerOver(fetch);
    const outcome = problemOf(reader.readBalance(HOLDER));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    // Then viem's back-off: 150 ms, and 300 ms before the third.
    await vi.advanceTimersByTimeAsync(1 + 150);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10_000 + 300);
    expect(fetch).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await outcome).toEqual({ code: 'rpc-unavailable', status: null });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('tries again after an HTTP error viem would try again, not after one it would not', async () => {
    const answering = (status: number) =>
      vi.fn(() =>
        Promise.resolve(new Response('busy', { status, headers: { 'Content-Type': 'text/plain' } })),
      );
    const busy = answering(503);
    const reader = readerOver(busy);
    expect(await problemOf(reader.readBalance(HOLDER))).toEqual({ code: 'rpc-unavailable', status: 503 });
    expect(busy).toHaveBeenCalledTimes(3);
    const missing = answering(404);
    const other = readerOver(missing);
    expect(await problemOf(other.readBalance(HOLDER))).toEqual({ code: 'rpc-unavailable', status: 404 });
    expect(missing).toHaveBeenCalledTimes(1);
  });

  it('sends credentials in the URL as Basic authorization, as fetch refuses them in the URL', async () => {
    const node = fakeNode(healthy('0x7a69'));
    const reader = createBalanceReader({
      rpcUrl: 'http://user:p%40ss@127.0.0.1:1/rpc',
      chainId: 31337,
      tokenAddress: TOKEN,
      fetch: node.fetch,
    });
    await reader.readBalance(HOLDER);
    const [url, init] = vi.mocked(node.fetch).mock.calls[0] ?? [];
    expect(url).toBe('http://127.0.0.1:1/rpc');
    expect(init?.headers).toMatchObject({ Authorization: `Basic ${btoa('user:p@ss')}` });
  });
});

describe('deferred token service with the balance reader', () => {
  it('reads balances through the reader without loading the full service', async () => {
    const node = fakeNode(healthy('0x7a69'));
    const load = vi.fn<() => Promise<TokenService>>(() =>
      Promise.reject(new Error('the full service was loaded')),
    );
    const service = createDeferredTokenService(load, () => Promise.resolve(readerOver(node.fetch)));
    expect(await service.readBalance(HOLDER)).toEqual({ raw: 2_500_000n, formatted: '2.5', decimals: 6 });
    expect(load).not.toHaveBeenCalled();
    // Anything else loads the full service.
    expect(await problemOf(service.prepareWalletTransfer({ from: HOLDER, to: HOLDER, amount: '1' }))).toEqual(
      {
        code: 'rpc-unavailable',
        status: null,
      },
    );
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('reports a reader that cannot load as the node being unreachable, and tries again next time', async () => {
    const node = fakeNode(healthy('0x7a69'));
    const loadReader = vi
      .fn<() => Promise<Pick<TokenService, 'readBalance'>>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(readerOver(node.fetch));
    const service = createDeferredTokenService(() => Promise.reject(new Error('not needed')), loadReader);
    const error = await service.readBalance(HOLDER).catch((thrown: unknown) => thrown);
    expect(describeError(error)).toBe(tokenCopy.rpcUnavailable);
    expect((await service.readBalance(HOLDER)).formatted).toBe('2.5');
  });
});
