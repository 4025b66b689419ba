import { createServer as createHttpServer, type Server } from 'node:http';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tokenCopy } from '../../src/copy/index.ts';
import { describeError } from '../../src/machines/error-words.ts';
import { createBalanceReader, type RpcCall } from '../../src/services/token/balance-reader.ts';
import { createTokenService } from '../../src/services/token/index.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { tokenRejection } from '../support/token-rejection.ts';
import { closedPort } from '../support/closed-port.ts';

// The balance reader (plain JSON-RPC, no viem) against the stack's real chain, side by side with
// the full token service it stands in for at start: the same answers for the same holders, and the
// same problems for the same faults. Only reads: the deployer sends nothing in tests, so its
// balance cannot change between the two reads.
const chain = inject('chain');
const holder = testAccount('deployer');
const config = { rpcUrl: chain.rpcUrl, chainId: chain.chainId, tokenAddress: chain.tokenAddress };
const service = createTokenService(config);

const rejection = tokenRejection;

/** The problem both read for `holder` with `setup`, and the words a user sees for it. */
async function bothFail(setup: typeof config, who: string = holder.address) {
  const [full, reader] = await Promise.all([
    rejection(createTokenService(setup).readBalance(who)),
    rejection(createBalanceReader(setup).readBalance(who)),
  ]);
  expect(reader.problem).toEqual(full.problem);
  expect(reader.reason).toBe(full.reason);
  expect(describeError(reader)).toBe(describeError(full));
  return reader;
}

describe('balance reader against the chain', () => {
  it('reads what the full service reads, for a holder, in any letter case, and for none', async () => {
    const reader = createBalanceReader(config);
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const holders = [holder.address, holder.address.toLowerCase(), stranger, chain.tokenAddress];
    for (const address of holders) {
      const [full, read] = await Promise.all([service.readBalance(address), reader.readBalance(address)]);
      expect(read).toEqual(full);
    }
    const own = await reader.readBalance(holder.address);
    expect(own.raw).toBeGreaterThan(0n);
    expect(own.decimals).toBe(18);
    expect(await reader.readBalance(stranger)).toEqual({ raw: 0n, formatted: '0', decimals: 18 });
  });

  it('asks the node once, in one batch, and then only for the balance', async () => {
    const bodies: unknown[] = [];
    const reader = createBalanceReader({
      ...config,
      fetch: (url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return fetch(url, init);
      },
    });
    const first = await reader.readBalance(holder.address);
    expect(await reader.readBalance(holder.address)).toEqual(first);
    expect(bodies).toHaveLength(2);
    expect((bodies[0] as RpcCall[]).map((call) => call.method)).toEqual([
      'eth_call',
      'eth_call',
      'eth_chainId',
    ]);
    expect((bodies[1] as RpcCall).method).toBe('eth_call');
  });

  it('refuses a node on another chain than the portal’s, as the full service does', async () => {
    const error = await bothFail({ ...config, chainId: 11155111 });
    expect(error.problem).toEqual({ code: 'wrong-chain', actual: chain.chainId, expected: 11155111 });
    expect(describeError(error)).toBe(tokenCopy.wrongChain(chain.chainId, 11155111));
  });

  it('refuses a holder that is not an address, as the full service does', async () => {
    const error = await bothFail(config, '0x1234');
    expect(describeError(error)).toBe(tokenCopy.invalidAddress);
  });

  it('reports an address without a contract as no token, as the full service does', async () => {
    const error = await bothFail({
      ...config,
      tokenAddress: privateKeyToAccount(generatePrivateKey()).address,
    });
    expect(describeError(error)).toBe(tokenCopy.noTokenContract);
  });

  it('reports a node that is down as unreachable, as the full service does', async () => {
    const error = await bothFail({ ...config, rpcUrl: `http://127.0.0.1:${await closedPort()}` });
    expect(error.problem).toEqual({ code: 'rpc-unavailable', status: null });
    expect(describeError(error)).toBe(tokenCopy.rpcUnavailable);
  });
});

/**
 * A node that answers badly, on 127.0.0.1: a proxy's error page, a gateway error, or JSON-RPC
 * answers the node got wrong. `answer` gives the HTTP status and body for what was sent.
 */
type Answer = (calls: RpcCall[]) => { status?: number; body: string };
let answer: Answer = () => ({ body: '' });
let faulty: Server;
let faultyUrl = '';

beforeAll(async () => {
  faulty = createHttpServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const sent = JSON.parse(text) as RpcCall | RpcCall[];
      const { status = 200, body } = answer(Array.isArray(sent) ? sent : [sent]);
      const json = body.startsWith('{') || body.startsWith('[');
      response.writeHead(status, { 'Content-Type': json ? 'application/json' : 'text/html' }).end(body);
    });
  });
  await new Promise<void>((resolve) => faulty.listen(0, '127.0.0.1', resolve));
  const address = faulty.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  faultyUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => faulty.close(() => resolve()));
});

const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}`;
/** Right answers but for the balance, which is `balance` (an answer's fields but its id). */
const answeringBalance =
  (balance: object): Answer =>
  (calls) => {
    const replies = calls.map((call) => {
      // viem sends eth_chainId without params.
      const data = (call.params as unknown[] | undefined)?.[0] as { data?: string } | undefined;
      const fields =
        call.method === 'eth_chainId'
          ? { result: `0x${chain.chainId.toString(16)}` }
          : data?.data?.startsWith('0x313ce567')
            ? { result: word(18n) }
            : balance;
      return { jsonrpc: '2.0', id: call.id, ...fields };
    });
    return { body: JSON.stringify(replies.length === 1 ? replies[0] : replies) };
  };

describe('balance reader against a node that answers badly', () => {
  const faultyConfig = () => ({ ...config, rpcUrl: faultyUrl });

  it('reports an answer that is not JSON as an unreachable node, as the full service does', async () => {
    answer = () => ({ body: '<html>Gateway maintenance</html>' });
    const error = await bothFail(faultyConfig());
    expect(error.problem).toEqual({ code: 'rpc-unavailable', status: null });
  });

  it('reports an HTTP error with its status, as the full service does', async () => {
    answer = () => ({ status: 502, body: 'Bad Gateway' });
    const error = await bothFail(faultyConfig());
    expect(error.problem).toEqual({ code: 'rpc-unavailable', status: 502 });
    expect(describeError(error)).toBe(tokenCopy.rpcUnavailableStatus(502));
  });

  it('refuses a balance that is not a number, as the full service does', async () => {
    answer = answeringBalance({ result: 'hello' });
    const error = await bothFail(faultyConfig());
    expect(describeError(error)).toBe(tokenCopy.unknown);
  });

  // The full service reads a missing result as no data at all ('no-token-contract', viem's reading);
  // the reader calls it the malformed answer it is.
  it('gives a clear error, never a balance, for a missing result or a missing answer', async () => {
    const missingAnswer: Answer = (calls) => answeringBalance({ result: word(5n) })(calls.slice(0, 1));
    for (const fault of [
      answeringBalance({}),
      answeringBalance({ result: word(5n).slice(0, 20) }),
      missingAnswer,
    ]) {
      answer = fault;
      // A new reader each time: its first read is the batch of three.
      const error = await rejection(createBalanceReader(faultyConfig()).readBalance(holder.address));
      expect(error.problem).toEqual({ code: 'unknown' });
      expect(describeError(error)).toBe(tokenCopy.unknown);
    }
  });
});
