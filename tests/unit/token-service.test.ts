import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type BaseError,
  ChainMismatchError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  HttpRequestError,
  InsufficientFundsError,
  decodeFunctionData,
  encodeFunctionData,
  InvalidInputRpcError,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  serializeTransaction,
  RpcRequestError,
  TimeoutError,
  TransactionExecutionError,
  type Hex,
} from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendCopy, tokenCopy } from '../../src/copy/index.ts';
import { describeError } from '../../src/machines/error-words.ts';
import {
  checkAmountText,
  createTokenService,
  normalizePrivateKey,
  parseAmount,
  parseRecipient,
  tokenAbi,
  toTokenServiceError,
} from '../../src/services/token/token-service.ts';
import {
  TokenServiceError,
  type TokenProblem,
  type TokenService,
  type TokenServiceErrorReason,
} from '../../src/services/token/types.ts';

// The token service's pure parts, its error mapping and the paths the local
// Hardhat chain cannot reach (a mined revert, a receipt that never comes),
// the latter against a scripted JSON-RPC server on 127.0.0.1.

// Hardhat's well-known account #0: a published test key.
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const reasonOf = (run: () => unknown) => (thrown(run) as TokenServiceError).reason;
const problemOf = (run: () => unknown) => (thrown(run) as TokenServiceError).problem;

describe('amounts', () => {
  it('parses decimal text exactly into the smallest unit', () => {
    expect(parseAmount('12.5', 18)).toBe(12_500_000_000_000_000_000n);
    expect(parseAmount('0.000000000000000001', 18)).toBe(1n);
    expect(parseAmount('.5', 18)).toBe(5n * 10n ** 17n);
    expect(parseAmount('7.', 18)).toBe(7n * 10n ** 18n);
    expect(parseAmount(' 0012.50 ', 6)).toBe(12_500_000n);
    expect(parseAmount('9007199254740993.000000000000000007', 18)).toBe(9007199254740993000000000000000007n);
    expect(parseAmount('1.00000000000000000000', 18)).toBe(10n ** 18n);
    expect(parseAmount('3', 0)).toBe(3n);
  });

  it('refuses what is not a positive decimal number', () => {
    for (const text of ['', ' ', '.', '0', '00.000', '-1', '+1', '1e3', '1,5', '1.2.3', '0x10', 'ten', '١']) {
      expect(
        reasonOf(() => checkAmountText(text)),
        text,
      ).toBe('invalid-amount');
    }
    expect(problemOf(() => checkAmountText('00.000'))).toEqual({ code: 'zero-amount' });
    expect(describeError(thrown(() => checkAmountText('1,5')))).toBe(tokenCopy.invalidAmount);
  });

  it('refuses more fraction digits than the token has instead of rounding', () => {
    expect(reasonOf(() => parseAmount('1.0000000000000000001', 18))).toBe('invalid-amount');
    expect(problemOf(() => parseAmount('1.5', 0))).toEqual({ code: 'too-many-decimals', decimals: 0 });
    expect(describeError(thrown(() => parseAmount('1.5', 0)))).toMatch(/whole number/);
    expect(describeError(thrown(() => parseAmount('1.1234567', 6)))).toBe(tokenCopy.tooManyDecimals(6));
  });

  it('refuses amounts beyond uint256', () => {
    expect(reasonOf(() => parseAmount(`${2n ** 256n}`, 0))).toBe('invalid-amount');
    expect(problemOf(() => parseAmount(`${2n ** 256n}`, 0))).toEqual({ code: 'amount-too-large' });
    expect(parseAmount(`${2n ** 256n - 1n}`, 0)).toBe(2n ** 256n - 1n);
  });
});

describe('private keys and addresses', () => {
  it('normalises a key to lower-case 0x hex', () => {
    expect(normalizePrivateKey(KEY)).toBe(KEY);
    expect(normalizePrivateKey(` ${KEY.slice(2).toUpperCase()}\n`)).toBe(KEY);
    expect(normalizePrivateKey(`0X${KEY.slice(2)}`)).toBe(KEY);
  });

  it('refuses keys of the wrong shape or outside the curve, without echoing them', () => {
    const order = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const bad = [
      '',
      KEY.slice(0, -1),
      `${KEY}0`,
      `${KEY.slice(0, -1)}z`,
      `0x${'0'.repeat(64)}`,
      `0x${order.toString(16)}`,
      `0x${'f'.repeat(64)}`,
    ];
    for (const key of bad) {
      const error = thrown(() => normalizePrivateKey(key)) as TokenServiceError;
      expect(error.reason, key).toBe('invalid-private-key');
      if (key.length > 2) {
        expect(error.message).not.toContain(key.slice(2, 20));
        expect(describeError(error)).not.toContain(key.slice(2, 20));
      }
    }
    expect(normalizePrivateKey(`0x${(order - 1n).toString(16)}`)).toBe(`0x${(order - 1n).toString(16)}`);
  });

  it('accepts a recipient in any letter case and returns it checksummed', () => {
    expect(parseRecipient(ADDRESS.toLowerCase())).toBe(ADDRESS);
    expect(parseRecipient(`0x${ADDRESS.slice(2).toUpperCase()}`)).toBe(ADDRESS);
    expect(parseRecipient(` ${ADDRESS} `)).toBe(ADDRESS);
  });

  it('refuses mixed case that is not the EIP-55 checksum, as the typo it likely is', () => {
    const misspelt = ADDRESS.replace('F6F4', 'f6F4');
    expect(problemOf(() => parseRecipient(misspelt))).toEqual({ code: 'invalid-recipient' });
  });

  it('refuses recipients that are not addresses, and the zero address', () => {
    for (const to of ['', '0x', ADDRESS.slice(0, -1), `${ADDRESS}0`, 'vitalik.eth', `0x${'0'.repeat(40)}`]) {
      expect(
        reasonOf(() => parseRecipient(to)),
        to,
      ).toBe('invalid-recipient');
    }
    expect(problemOf(() => parseRecipient(`0x${'0'.repeat(40)}`))).toEqual({ code: 'zero-recipient' });
    expect(describeError(thrown(() => parseRecipient('vitalik.eth')))).toBe(tokenCopy.invalidRecipient);
  });
});

describe('error mapping', () => {
  const insufficientBalance = () =>
    new ContractFunctionRevertedError({
      abi: tokenAbi,
      functionName: 'transfer',
      data: encodeErrorResult({
        abi: tokenAbi,
        errorName: 'ERC20InsufficientBalance',
        args: [ADDRESS, 25n * 10n ** 17n, 10n ** 19n],
      }),
    });
  // How viem reports a failed writeContract: the node's error two layers down.
  const wrapped = (cause: BaseError) =>
    new ContractFunctionExecutionError(new TransactionExecutionError(cause, { account: null }), {
      abi: tokenAbi,
      functionName: 'transfer',
      args: [ADDRESS, 1n],
      contractAddress: TOKEN,
    });

  const cases: [string, () => unknown, TokenServiceErrorReason, TokenProblem, string][] = [
    [
      'OpenZeppelin 5 ERC20InsufficientBalance',
      () => wrapped(insufficientBalance()),
      'insufficient-token-balance',
      { code: 'insufficient-token-balance', figures: { balance: '2.5', needed: '10' } },
      tokenCopy.insufficientTokenBalanceOf('2.5', '10'),
    ],
    [
      'ERC20InvalidReceiver',
      () =>
        new ContractFunctionRevertedError({
          abi: tokenAbi,
          functionName: 'transfer',
          data: encodeErrorResult({ abi: tokenAbi, errorName: 'ERC20InvalidReceiver', args: [TOKEN] }),
        }),
      'invalid-recipient',
      { code: 'invalid-receiver' },
      tokenCopy.invalidReceiver,
    ],
    [
      'another revert',
      () => new ContractFunctionRevertedError({ abi: tokenAbi, functionName: 'transfer', message: 'paused' }),
      'reverted',
      { code: 'refused', revertReason: 'paused' },
      `${tokenCopy.refused} paused`,
    ],
    [
      'geth’s insufficient funds',
      () => wrapped(new InsufficientFundsError()),
      'insufficient-funds-for-gas',
      { code: 'insufficient-funds-for-gas' },
      tokenCopy.insufficientFundsForGas,
    ],
    [
      'Hardhat’s insufficient funds',
      () =>
        wrapped(
          new InvalidInputRpcError(
            new RpcRequestError({
              body: { method: 'eth_sendRawTransaction' },
              url: 'http://127.0.0.1:8545',
              error: {
                code: -32000,
                message: "Sender doesn't have enough funds to send tx. The max upfront cost is: 1",
              },
            }),
          ),
        ),
      'insufficient-funds-for-gas',
      { code: 'insufficient-funds-for-gas' },
      tokenCopy.insufficientFundsForGas,
    ],
    [
      'a chain mismatch',
      () => new ChainMismatchError({ chain: { id: 1 } as never, currentChainId: 31337 }),
      'wrong-chain',
      { code: 'chain-mismatch' },
      tokenCopy.chainMismatch,
    ],
    [
      'a failed fetch',
      () => wrapped(new HttpRequestError({ url: 'http://127.0.0.1:1', details: 'fetch failed' })),
      'rpc-unavailable',
      { code: 'rpc-unavailable', status: null },
      tokenCopy.rpcUnavailable,
    ],
    [
      'an HTTP error status',
      () => new HttpRequestError({ url: 'http://127.0.0.1:1', status: 503, details: 'Service Unavailable' }),
      'rpc-unavailable',
      { code: 'rpc-unavailable', status: 503 },
      tokenCopy.rpcUnavailableStatus(503),
    ],
    [
      'a timeout',
      () => new TimeoutError({ body: {}, url: 'http://127.0.0.1:1' }),
      'rpc-unavailable',
      { code: 'rpc-unavailable', status: null },
      tokenCopy.rpcUnavailable,
    ],
    ['something else', () => new RangeError('boom'), 'unknown', { code: 'unknown' }, tokenCopy.unknown],
  ];

  it.each(cases)('maps %s', (_, make, reason, problem, words) => {
    const error = toTokenServiceError(make(), { decimals: 18 });
    expect(error).toBeInstanceOf(TokenServiceError);
    expect(error.reason).toBe(reason);
    expect(error.problem).toEqual(problem);
    expect(describeError(error)).toBe(words);
  });

  it('names no figures for a refused balance while the token’s decimals are unknown', () => {
    const error = toTokenServiceError(wrapped(insufficientBalance()));
    expect(error.problem).toEqual({ code: 'insufficient-token-balance', figures: null });
    expect(describeError(error)).toBe(tokenCopy.insufficientTokenBalance);
  });

  it('keeps only a redacted one-line summary as the cause', () => {
    const leaky = new HttpRequestError({
      url: 'http://127.0.0.1:1',
      details: `failed for ${KEY} / ${KEY.slice(2).toUpperCase()} / ${BigInt(KEY).toString(10)}`,
    });
    const error = toTokenServiceError(leaky, { secrets: [KEY.slice(2), BigInt(KEY).toString(10)] });
    const cause = error.cause as Error;
    expect(cause).toBeInstanceOf(Error);
    expect(cause).not.toBe(leaky);
    expect(cause.cause).toBeUndefined();
    expect(cause.message).toBe('HTTP request failed. (failed for 0x[redacted] / [redacted] / [redacted])');
  });
});

describe('signing on demand', () => {
  it('loads viem/accounts only inside transfer', () => {
    const source = readFileSync(
      new URL('../../src/services/token/token-service.ts', import.meta.url),
      'utf8',
    );
    expect(source).not.toMatch(/^import[^;]*from 'viem\/accounts'/m);
    expect(source).toContain("await import('viem/accounts')");
    expect(source).not.toMatch(/createPublicClient|createWalletClient/);
  });
});

// A node that accepts any transaction and answers with a scripted receipt and balance.
type Script = {
  receipt: 'reverted' | 'never' | 'garbled' | 'success';
  balance?: bigint;
  /**
   * How eth_sendRawTransaction is answered: the hash (default); taken, then the connection drops
   * ('lost') or stays silent ('silent'); taken, then an HTTP 503 from a proxy in front of the node;
   * an HTTP 502 before the node saw it; or a JSON-RPC refusal.
   */
  send?:
    | 'ok'
    | 'lost'
    | 'silent'
    | 'taken, then 503'
    | 'untaken 502'
    | 'nonce too low'
    | 'already known'
    | 'replacement transaction underpriced';
  /** The node knows the transaction (eth_getTransactionByHash), with this call data. */
  known?: Hex;
  /** The sender's transaction count (its next nonce), 0 by default. */
  count?: number;
};
/** Raw bytes the node received, in order. */
const sentRaw: Hex[] = [];
let server: Server;
let rpcUrl: string;
let script: Script = { receipt: 'reverted' };
const BALANCE_OF = '0x70a08231';
const calls: string[] = [];
let blockNumber = 100;
/** Answers held back by a silent node, ended when their test is over. */
const held: ServerResponse[] = [];
const arrivals: { method: string; arrived: () => void }[] = [];

/** Resolves when the node next receives a request for `method`: no polling, no clock. */
function nextRequest(method: string): Promise<void> {
  return new Promise((arrived) => arrivals.push({ method, arrived }));
}

function received(method: string): void {
  calls.push(method);
  for (const waiter of arrivals.filter((entry) => entry.method === method)) {
    arrivals.splice(arrivals.indexOf(waiter), 1);
    waiter.arrived();
  }
}

function answer(method: string, params: unknown[]): unknown {
  const word = (n: number | bigint) => `0x${n.toString(16).padStart(64, '0')}`;
  switch (method) {
    case 'eth_chainId':
      return '0x7a69';
    case 'eth_call': {
      const { data } = params[0] as { data: Hex };
      return data.startsWith(BALANCE_OF) ? word(script.balance ?? 10n ** 24n) : word(18);
    }
    case 'eth_getTransactionCount':
      return `0x${(script.count ?? 0).toString(16)}`;
    case 'eth_blockNumber':
      return `0x${(blockNumber++).toString(16)}`;
    case 'eth_getBlockByNumber':
      return {
        number: `0x${blockNumber.toString(16)}`,
        hash: word(blockNumber),
        baseFeePerGas: '0x3b9aca00',
        timestamp: '0x1',
        transactions: [],
      };
    case 'eth_maxPriorityFeePerGas':
      return '0x3b9aca00';
    case 'eth_estimateGas':
      return '0xea60';
    case 'eth_sendRawTransaction':
      sentRaw.push(params[0] as Hex);
      if (
        script.send === 'nonce too low' ||
        script.send === 'already known' ||
        script.send === 'replacement transaction underpriced'
      ) {
        throw Object.assign(new Error(script.send), { code: -32000 });
      }
      return keccak256(params[0] as Hex);
    case 'eth_getTransactionReceipt':
      if (script.receipt === 'never') return null;
      return {
        transactionHash: params[0],
        blockHash: word(1),
        blockNumber: '0x64',
        transactionIndex: '0x0',
        // A mined receipt that names no sender is one the service cannot check.
        from: script.receipt === 'garbled' ? '0xnot-an-address' : ADDRESS.toLowerCase(),
        to: TOKEN.toLowerCase(),
        status: script.receipt === 'reverted' ? '0x0' : '0x1',
        type: '0x2',
        gasUsed: '0x5208',
        cumulativeGasUsed: '0x5208',
        effectiveGasPrice: '0x3b9aca00',
        contractAddress: null,
        logs: [],
        logsBloom: `0x${'0'.repeat(512)}`,
      };
    case 'eth_getTransactionByHash':
      return script.known
        ? {
            hash: params[0],
            from: ADDRESS.toLowerCase(),
            to: TOKEN.toLowerCase(),
            input: script.known,
            nonce: '0x0',
            gas: '0xea60',
            value: '0x0',
            blockHash: null,
            blockNumber: null,
            transactionIndex: null,
            type: '0x2',
            chainId: '0x7a69',
            maxFeePerGas: '0x3b9aca00',
            maxPriorityFeePerGas: '0x3b9aca00',
            v: '0x0',
            r: word(1),
            s: word(2),
          }
        : null;
    default:
      throw Object.assign(new Error(`the method ${method} does not exist`), { code: -32601 });
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      received(method);
      if (method === 'eth_sendRawTransaction') {
        const raw = (params as Hex[])[0] as Hex;
        switch (script.send) {
          // The node takes the transaction, but its answer never arrives.
          case 'lost':
            sentRaw.push(raw);
            request.socket.destroy();
            return;
          case 'silent':
            sentRaw.push(raw);
            held.push(response);
            return;
          // A proxy in front of the node: it passed the transaction on, then failed the answer.
          case 'taken, then 503':
            sentRaw.push(raw);
            response.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
            return;
          case 'untaken 502':
            response.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
            return;
        }
      }
      response.setHeader('content-type', 'application/json');
      try {
        response.end(JSON.stringify({ jsonrpc: '2.0', id, result: answer(method, params ?? []) }));
      } catch (error) {
        const { code, message } = error as { code: number; message: string };
        response.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  for (const response of held.splice(0)) response.destroy();
});

/**
 * The same scripted node answered in-process, for minutes of polling on a fake clock: each answer
 * is a resolved promise, so no request is on a socket when the clock jumps past its time limit.
 */
function answerInProcess(): void {
  vi.stubGlobal('fetch', async (_url: unknown, init?: RequestInit) => {
    const { id, method, params } = JSON.parse(String(init?.body)) as {
      id: number;
      method: string;
      params?: unknown[];
    };
    received(method);
    try {
      return Response.json({ jsonrpc: '2.0', id, result: answer(method, params ?? []) });
    } catch (error) {
      const { code, message } = error as { code: number; message: string };
      return Response.json({ jsonrpc: '2.0', id, error: { code, message } });
    }
  });
}

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** A whole transfer as the send machine makes it: prepare, sign, broadcast. */
async function send(service: TokenService, request: Parameters<TokenService['prepareTransfer']>[0]) {
  const prepared = await service.prepareTransfer(request);
  const signed = await service.signTransfer({ privateKey: request.privateKey, prepared });
  return service.broadcastTransfer(signed);
}

describe('transfers a local chain cannot script', () => {
  const request = { privateKey: KEY, to: TOKEN, amount: '1', expectedFrom: ADDRESS };

  it('rejects a transfer that was mined but reverted, naming the transaction', async () => {
    script = { receipt: 'reverted' };
    const service = createTokenService({ rpcUrl, chainId: 31337, tokenAddress: TOKEN });
    const error = await send(service, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenServiceError);
    expect(error).toMatchObject({ reason: 'reverted', hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(describeError(error)).toBe(tokenCopy.reverted);
    expect(calls).toContain('eth_sendRawTransaction');
  });

  it('gives up waiting for a receipt without claiming failure', async () => {
    script = { receipt: 'never' };
    const service = createTokenService({
      rpcUrl,
      chainId: 31337,
      tokenAddress: TOKEN,
      confirmationTimeoutMs: 1_500,
    });
    const error = await send(service, request).catch((e: unknown) => e);
    expect(error).toMatchObject({
      reason: 'confirmation-timeout',
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      problem: { code: 'not-confirmed', seconds: 2 },
    });
    expect(describeError(error)).toBe(tokenCopy.notConfirmed(2));
    expect(describeError(error)).toMatch(/may still go through/);
  });

  it('waits 2 minutes for a receipt by default, then says it is not confirmed', async () => {
    answerInProcess();
    script = { receipt: 'never' };
    const service = createTokenService({ rpcUrl, chainId: 31337, tokenAddress: TOKEN });
    const prepared = await service.prepareTransfer(request);
    const signed = await service.signTransfer({ privateKey: KEY, prepared });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let settled = false;
    const waiting = nextRequest('eth_getTransactionReceipt');
    const outcome = service
      .broadcastTransfer(signed)
      .catch((e: unknown) => e)
      .finally(() => (settled = true));
    await waiting;
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    const error = await outcome;
    expect(error).toMatchObject({
      reason: 'confirmation-timeout',
      hash: signed.hash,
      problem: { code: 'not-confirmed', seconds: 120 },
    });
    expect(describeError(error)).toBe(tokenCopy.notConfirmed(120));
  });

  it('says the transfer is out when its receipt cannot be read, so no one sends it twice', async () => {
    script = { receipt: 'garbled' };
    const service = createTokenService({ rpcUrl, chainId: 31337, tokenAddress: TOKEN });
    const error = await send(service, request).catch((e: unknown) => e);
    expect(error).toMatchObject({
      reason: 'unknown',
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      problem: { code: 'sent-but-unchecked', failure: { code: 'unknown' } },
    });
    expect(describeError(error)).toBe(`${tokenCopy.sentButUnchecked} ${tokenCopy.unknown}`);
    script = { receipt: 'reverted' };
  });

  it('sends nothing for invalid input', async () => {
    calls.length = 0;
    const service = createTokenService({ rpcUrl, chainId: 31337, tokenAddress: TOKEN });
    await expect(send(service, { ...request, amount: '0' })).rejects.toMatchObject({
      reason: 'invalid-amount',
      problem: { code: 'zero-amount' },
    });
    await expect(send(service, { ...request, to: 'nobody' })).rejects.toMatchObject({
      reason: 'invalid-recipient',
      problem: { code: 'invalid-recipient' },
    });
    await expect(send(service, { ...request, privateKey: 'secret' })).rejects.toMatchObject({
      reason: 'invalid-private-key',
      problem: { code: 'invalid-private-key-format' },
    });
    await expect(service.readBalance('nobody')).rejects.toMatchObject({ reason: 'invalid-address' });
    expect(calls).toEqual([]);
  });
});

describe('the split transfer: prepare, sign, broadcast', () => {
  // Hardhat's account #1, another published test key.
  const OTHER_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const RECIPIENT = OTHER_ADDRESS;
  const service = () => createTokenService({ rpcUrl, chainId: 31337, tokenAddress: TOKEN });
  const request = { privateKey: KEY, to: RECIPIENT, amount: '1.5', expectedFrom: ADDRESS.toLowerCase() };
  const keyDigits = KEY.slice(2);
  const hasNoKey = (value: unknown) => {
    const text = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    expect(text.toLowerCase()).not.toContain(keyDigits);
    expect(text).not.toContain(BigInt(KEY).toString(10));
  };

  it('prepares a checked transfer holding no key, sending nothing', async () => {
    script = { receipt: 'reverted' };
    calls.length = 0;
    const prepared = await service().prepareTransfer(request);
    expect(prepared).toEqual({
      from: ADDRESS,
      to: RECIPIENT,
      raw: 15n * 10n ** 17n,
      amount: '1.5',
      decimals: 18,
    });
    hasNoKey(prepared);
    expect(calls).not.toContain('eth_sendRawTransaction');
    expect(calls).not.toContain('eth_estimateGas');
  });

  it('refuses a key of another account than the connected wallet, before any network call', async () => {
    calls.length = 0;
    const error = await service()
      .prepareTransfer({ ...request, expectedFrom: OTHER_ADDRESS })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenServiceError);
    expect(error).toMatchObject({ reason: 'wrong-account', problem: { code: 'key-mismatch' } });
    expect(describeError(error)).toBe(sendCopy.keyMismatch);
    hasNoKey({ message: (error as Error).message, cause: String((error as Error).cause) });
    expect(calls).toEqual([]);
  });

  it('refuses an amount above the balance with both figures, before signing', async () => {
    script = { receipt: 'reverted', balance: 10n ** 18n };
    calls.length = 0;
    const error = await service()
      .prepareTransfer(request)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      reason: 'insufficient-token-balance',
      problem: { code: 'insufficient-token-balance', figures: { balance: '1', needed: '1.5' } },
    });
    expect(describeError(error)).toBe(tokenCopy.insufficientTokenBalanceOf('1', '1.5'));
    expect(calls).not.toContain('eth_estimateGas');
    script = { receipt: 'reverted' };
  });

  it('signs locally: a DDEX transfer for the configured chain whose hash is known before sending', async () => {
    const prepared = await service().prepareTransfer(request);
    calls.length = 0;
    const signed = await service().signTransfer({ privateKey: KEY, prepared });
    expect(Object.keys(signed).sort()).toEqual(['hash', 'serialized']);
    expect(signed.hash).toBe(keccak256(signed.serialized));
    const tx = parseTransaction(signed.serialized);
    expect(tx).toMatchObject({ chainId: 31337, to: TOKEN.toLowerCase(), nonce: 0, gas: 60_000n });
    expect(decodeFunctionData({ abi: tokenAbi, data: tx.data ?? '0x' })).toEqual({
      functionName: 'transfer',
      args: [RECIPIENT, 15n * 10n ** 17n],
    });
    expect(await recoverTransactionAddress({ serializedTransaction: signed.serialized as never })).toBe(
      ADDRESS,
    );
    hasNoKey(signed);
    expect(calls).toContain('eth_getTransactionCount');
    expect(calls).not.toContain('eth_sendRawTransaction');
  });

  it('refuses to sign with a key other than the prepared sender', async () => {
    const prepared = await service().prepareTransfer(request);
    const other = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
    await expect(service().signTransfer({ privateKey: other, prepared })).rejects.toMatchObject({
      reason: 'wrong-account',
    });
  });

  it('broadcasts the signed transaction and reports a mined revert with its hash', async () => {
    script = { receipt: 'reverted' };
    const prepared = await service().prepareTransfer(request);
    const signed = await service().signTransfer({ privateKey: KEY, prepared });
    calls.length = 0;
    const error = await service()
      .broadcastTransfer({ serialized: signed.serialized })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'reverted', hash: signed.hash });
    expect(calls).toContain('eth_sendRawTransaction');
  });

  it('broadcasts nothing that is not a signed DDEX transfer for the configured chain', async () => {
    const prepared = await service().prepareTransfer(request);
    const signed = await service().signTransfer({ privateKey: KEY, prepared });
    const elsewhere = createTokenService({ rpcUrl, chainId: 1, tokenAddress: TOKEN });
    const otherToken = createTokenService({ rpcUrl, chainId: 31337, tokenAddress: OTHER_ADDRESS });
    const unsigned = serializeTransaction({
      ...parseTransaction(signed.serialized),
      r: undefined,
      s: undefined,
      v: undefined,
      yParity: undefined,
    } as never);
    calls.length = 0;
    for (const [service, serialized] of [
      [elsewhere, signed.serialized],
      [otherToken, signed.serialized],
      [createTokenService({ rpcUrl, chainId: 31337, tokenAddress: TOKEN }), unsigned],
      [createTokenService({ rpcUrl, chainId: 31337, tokenAddress: TOKEN }), '0x1234'],
    ] as const) {
      await expect(service.broadcastTransfer({ serialized: serialized as Hex })).rejects.toMatchObject({
        reason: 'unknown',
      });
    }
    expect(calls).toEqual([]);
  });
});

describe('never twice: the hash is known before sending', () => {
  const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const service = () => createTokenService({ rpcUrl, chainId: 31337, tokenAddress: TOKEN });
  const request = { privateKey: KEY, to: RECIPIENT, amount: '1', expectedFrom: ADDRESS };
  async function signed() {
    script = { receipt: 'reverted' };
    const prepared = await service().prepareTransfer(request);
    return service().signTransfer({ privateKey: KEY, prepared });
  }

  it('a broadcast whose answer is lost may have been sent: it says so with the hash', async () => {
    const transfer = await signed();
    script = { receipt: 'reverted', send: 'lost' };
    sentRaw.length = 0;
    const error = await service()
      .broadcastTransfer({ serialized: transfer.serialized })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      hash: transfer.hash,
      problem: { code: 'sent-but-unchecked', failure: { code: 'rpc-unavailable', status: null } },
    });
    // Sent once: the send client never retries.
    expect(sentRaw).toEqual([transfer.serialized]);
  });

  it('a broadcast the node took but never answered, until the request timed out, may have been sent', async () => {
    const transfer = await signed();
    script = { receipt: 'reverted', send: 'silent' };
    sentRaw.length = 0;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const taken = nextRequest('eth_sendRawTransaction');
    const outcome = service()
      .broadcastTransfer({ serialized: transfer.serialized })
      .catch((e: unknown) => e);
    await taken;
    // The send client's request time limit.
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(TokenServiceError);
    expect(error).toMatchObject({
      hash: transfer.hash,
      problem: { code: 'sent-but-unchecked', failure: { code: 'rpc-unavailable', status: null } },
    });
    expect(describeError(error)).toBe(`${tokenCopy.sentButUnchecked} ${tokenCopy.rpcUnavailable}`);
    expect(sentRaw).toEqual([transfer.serialized]);
  });

  it.each([
    ['taken, then 503', 503],
    ['untaken 502', 502],
  ] as const)(
    'a broadcast answered with an HTTP failure may have been sent (%s): no JSON-RPC refusal proves otherwise',
    async (send, status) => {
      const transfer = await signed();
      script = { receipt: 'reverted', send };
      sentRaw.length = 0;
      calls.length = 0;
      const error = await service()
        .broadcastTransfer({ serialized: transfer.serialized })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TokenServiceError);
      expect(error).toMatchObject({
        hash: transfer.hash,
        problem: { code: 'sent-but-unchecked', failure: { code: 'rpc-unavailable', status } },
      });
      expect(describeError(error)).toBe(
        `${tokenCopy.sentButUnchecked} ${tokenCopy.rpcUnavailableStatus(status)}`,
      );
      // Asked once: an HTTP failure is not retried either.
      expect(calls.filter((method) => method === 'eth_sendRawTransaction')).toHaveLength(1);
    },
  );

  it('a refusal in a JSON-RPC answer was not sent: no hash, an ordinary failure', async () => {
    const transfer = await signed();
    script = { receipt: 'reverted', send: 'nonce too low' };
    const error = await service()
      .broadcastTransfer({ serialized: transfer.serialized })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenServiceError);
    expect((error as TokenServiceError).hash).toBeUndefined();
    expect((error as TokenServiceError).problem.code).not.toBe('sent-but-unchecked');
  });

  it('"already known" means the node has it: its receipt is awaited', async () => {
    const transfer = await signed();
    script = { receipt: 'reverted', send: 'already known' };
    await expect(service().broadcastTransfer({ serialized: transfer.serialized })).rejects.toMatchObject({
      reason: 'reverted',
      hash: transfer.hash,
    });
  });

  it('checking a transaction the node knows sends nothing and returns the transfer', async () => {
    const transfer = await signed();
    const data = parseTransaction(transfer.serialized).data as Hex;
    script = { receipt: 'success', known: data };
    sentRaw.length = 0;
    const result = await service().confirmTransfer({ hash: transfer.hash, serialized: transfer.serialized });
    expect(result).toMatchObject({ hash: transfer.hash, from: ADDRESS, to: RECIPIENT, raw: 10n ** 18n });
    expect(sentRaw).toEqual([]);
  });

  it('checking one the node never had sends the same bytes again (same nonce: mined once at most)', async () => {
    const transfer = await signed();
    script = { receipt: 'success' };
    sentRaw.length = 0;
    await service().confirmTransfer({ hash: transfer.hash, serialized: transfer.serialized });
    expect(sentRaw).toEqual([transfer.serialized]);
  });

  // A node that missed the transaction refuses its bytes in several words; each is checked the same way.
  describe.each(['nonce too low', 'replacement transaction underpriced'] as const)(
    'a resend the node refuses ("%s") when it missed the transaction',
    (refusal) => {
      const recheck = async (count: number, receipt: Script['receipt']) => {
        const transfer = await signed();
        script = { receipt, send: refusal, count };
        sentRaw.length = 0;
        calls.length = 0;
        const outcome = await service()
          .confirmTransfer({ hash: transfer.hash, serialized: transfer.serialized, from: ADDRESS })
          .catch((e: unknown) => e);
        return { transfer, outcome };
      };

      it('is mined after all when its receipt turns up on the second look', async () => {
        const { transfer, outcome } = await recheck(1, 'success');
        expect(outcome).toMatchObject({ hash: transfer.hash, from: ADDRESS });
        expect(sentRaw).toEqual([transfer.serialized]);
      });

      it('with its nonce still unused, stays unresolved with its hash', async () => {
        const { transfer, outcome } = await recheck(0, 'never');
        expect(outcome).toMatchObject({
          hash: transfer.hash,
          replaced: false,
          problem: { code: 'sent-but-unchecked' },
        });
        expect(calls).toContain('eth_getTransactionCount');
      });

      it('with its nonce used and no receipt of its own, was replaced: it can never be mined', async () => {
        const { transfer, outcome } = await recheck(1, 'never');
        expect(outcome).toBeInstanceOf(TokenServiceError);
        expect(outcome).toMatchObject({ hash: transfer.hash, replaced: true });
        // Sent once only: the refusal is not retried.
        expect(sentRaw).toEqual([transfer.serialized]);
      });

      it('without the sender, never claims it was replaced', async () => {
        const transfer = await signed();
        script = { receipt: 'never', send: refusal, count: 1 };
        const outcome = await service()
          .confirmTransfer({ hash: transfer.hash, serialized: transfer.serialized })
          .catch((e: unknown) => e);
        expect(outcome).toMatchObject({ hash: transfer.hash, replaced: false });
      });
    },
  );

  it('a resend answered "already known" is held by the node: its receipt is awaited, it is never taken as replaced', async () => {
    answerInProcess();
    const transfer = await signed();
    // Its nonce is used, which after a refusal would mean replaced; the node holding it says otherwise.
    script = { receipt: 'never', send: 'already known', count: 1 };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const waiting = nextRequest('eth_getTransactionReceipt');
    const outcome = service()
      .confirmTransfer({ hash: transfer.hash, serialized: transfer.serialized, from: ADDRESS })
      .catch((e: unknown) => e);
    await waiting;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(await outcome).toMatchObject({
      hash: transfer.hash,
      replaced: false,
      problem: { code: 'not-confirmed', seconds: 120 },
    });
  });

  it('a new transfer replacing an unresolved one takes its nonce and outbids its fees', async () => {
    script = { receipt: 'reverted', count: 5 };
    const prepared = await service().prepareTransfer(request);
    const first = await service().signTransfer({ privateKey: KEY, prepared });
    // The node has since counted other transactions; the replacement still takes nonce 5.
    script = { receipt: 'reverted', count: 7 };
    const second = await service().signTransfer({
      privateKey: KEY,
      prepared: { ...prepared, raw: 2n * 10n ** 18n, replaces: first.serialized },
    });
    const [old, next] = [parseTransaction(first.serialized), parseTransaction(second.serialized)];
    expect(old.nonce).toBe(5);
    expect(next.nonce).toBe(5);
    expect(next.maxFeePerGas).toBeGreaterThanOrEqual(((old.maxFeePerGas ?? 0n) * 9n) / 8n);
    expect(next.maxPriorityFeePerGas).toBeGreaterThanOrEqual(((old.maxPriorityFeePerGas ?? 0n) * 9n) / 8n);
    // Without one, the node's count.
    const fresh = await service().signTransfer({ privateKey: KEY, prepared });
    expect(parseTransaction(fresh.serialized).nonce).toBe(7);
  });

  it('refuses bytes that are not of the hash, sending nothing', async () => {
    const transfer = await signed();
    sentRaw.length = 0;
    await expect(
      service().confirmTransfer({ hash: `0x${'ab'.repeat(32)}`, serialized: transfer.serialized }),
    ).rejects.toMatchObject({ reason: 'unknown' });
    expect(sentRaw).toEqual([]);
  });
});

describe('the wallet’s transfer: prepared here, sent by the wallet, confirmed here', () => {
  const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const service = () => createTokenService({ rpcUrl, chainId: 31337, tokenAddress: TOKEN });

  it('checks it against the chain and hands over the token call, sending nothing', async () => {
    script = { receipt: 'reverted' };
    calls.length = 0;
    const { prepared, call } = await service().prepareWalletTransfer({
      from: ADDRESS.toLowerCase(),
      to: RECIPIENT,
      amount: '2.5',
    });
    expect(prepared).toEqual({
      from: ADDRESS,
      to: RECIPIENT,
      raw: 25n * 10n ** 17n,
      amount: '2.5',
      decimals: 18,
    });
    expect(call.from).toBe(ADDRESS);
    expect(call.to).toBe(TOKEN);
    expect(decodeFunctionData({ abi: tokenAbi, data: call.data })).toEqual({
      functionName: 'transfer',
      args: [RECIPIENT, 25n * 10n ** 17n],
    });
    expect(calls).not.toContain('eth_sendRawTransaction');
  });

  it('refuses more than the balance, and a mistyped checksum before any network call', async () => {
    script = { receipt: 'reverted', balance: 10n ** 18n };
    await expect(
      service().prepareWalletTransfer({ from: ADDRESS, to: RECIPIENT, amount: '2' }),
    ).rejects.toMatchObject({ reason: 'insufficient-token-balance' });
    calls.length = 0;
    const misspelt = RECIPIENT.replace('C51812', 'c51812');
    await expect(
      service().prepareWalletTransfer({ from: ADDRESS, to: misspelt, amount: '1' }),
    ).rejects.toMatchObject({ problem: { code: 'invalid-recipient' } });
    expect(calls).toEqual([]);
    script = { receipt: 'reverted' };
  });

  it('confirms the hash the wallet returned from its receipt and the transaction', async () => {
    const data = encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [RECIPIENT, 7n] });
    script = { receipt: 'success', known: data };
    sentRaw.length = 0;
    const hash = `0x${'12'.repeat(32)}` as const;
    await expect(service().confirmTransfer({ hash, serialized: null })).resolves.toMatchObject({
      hash,
      from: ADDRESS,
      to: RECIPIENT,
      raw: 7n,
    });
    expect(sentRaw).toEqual([]);
    script = { receipt: 'reverted' };
    await expect(service().confirmTransfer({ hash, serialized: null })).rejects.toMatchObject({
      reason: 'reverted',
      hash,
    });
  });
});
