import { inspect } from 'node:util';
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  formatUnits,
  http,
  parseEther,
  parseEventLogs,
  parseUnits,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  getBalance,
  getTransactionCount,
  getTransactionReceipt,
  readContract,
  sendTransaction,
  waitForTransactionReceipt,
} from 'viem/actions';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sendCopy, tokenCopy } from '../../src/copy/index.ts';
import { describeError } from '../../src/machines/error-words.ts';
import {
  createTokenService,
  type PrepareTransferRequest,
  type TokenService,
  type TokenServiceErrorReason,
  type TransferResult,
} from '../../src/services/token/index.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { tokenRejection } from '../support/token-rejection.ts';
import { closedPort } from '../support/closed-port.ts';

// The token service against the stack's real chain: Hardhat with DDEX
// (OpenZeppelin 5 ERC-20, 18 decimals). Balances are checked independently of
// the service with viem's own reads.
const chain = inject('chain');
const sender = testAccount('tokenServiceSender');
const recipient = testAccount('tokenServiceRecipient');
const client = createPublicClient({ transport: http(chain.rpcUrl) });
const service = createTokenService({
  rpcUrl: chain.rpcUrl,
  chainId: chain.chainId,
  tokenAddress: chain.tokenAddress,
});

const ddexOf = (holder: Address) =>
  readContract(client, {
    address: chain.tokenAddress,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });
const nonceOf = (address: Address) => getTransactionCount(client, { address, blockTag: 'pending' });

const rejection = tokenRejection;

/** Rejected for `reason`, with words for the user. */
async function expectRejected(promise: Promise<unknown>, reason: TokenServiceErrorReason) {
  const error = await rejection(promise);
  expect({ reason: error.reason, words: describeError(error) }).toEqual({
    reason,
    words: expect.any(String),
  });
  return error;
}

/** A whole transfer as the send machine makes it: prepare, sign, broadcast. */
async function send(on: TokenService, request: PrepareTransferRequest): Promise<TransferResult> {
  const prepared = await on.prepareTransfer(request);
  const signed = await on.signTransfer({ privateKey: request.privateKey, prepared });
  return on.broadcastTransfer(signed);
}

/** Everything a caller, a logger or an error reporter could read off the error. */
function exposedText(error: unknown): string {
  const seen = new Set<unknown>();
  const walk = (value: unknown): string => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
    if (seen.has(value)) return '';
    seen.add(value);
    const own = Object.getOwnPropertyNames(value).map(
      (name) => `${name}=${walk((value as Record<string, unknown>)[name])}`,
    );
    return [String(value), ...own].join('\n');
  };
  const shown = `${describeError(error)}`;
  return `${walk(error)}\n${inspect(error, { depth: Infinity, showHidden: true })}\n${JSON.stringify(error)}\n${shown}`;
}

function expectNoKeyIn(error: unknown, privateKey: Hex) {
  const text = exposedText(error).toLowerCase();
  expect(text).not.toContain(privateKey.slice(2).toLowerCase());
  expect(text).not.toContain(BigInt(privateKey).toString(10));
}

/** A fresh account holding the given DDEX and ETH, funded from the sender. */
async function freshAccount(funding: { ddex?: string; eth?: string }) {
  const privateKey = generatePrivateKey();
  const { address } = privateKeyToAccount(privateKey);
  if (funding.ddex)
    await send(service, {
      privateKey: sender.privateKey,
      to: address,
      amount: funding.ddex,
      expectedFrom: sender.address,
    });
  if (funding.eth) {
    const wallet = createWalletClient({
      account: privateKeyToAccount(sender.privateKey),
      transport: http(chain.rpcUrl),
    });
    const hash = await sendTransaction(wallet, { to: address, value: parseEther(funding.eth), chain: null });
    await waitForTransactionReceipt(client, { hash });
  }
  return { privateKey, address };
}

beforeAll(async () => {
  expect(await ddexOf(sender.address)).toBeGreaterThan(parseUnits('1000', 18));
});

describe('token service: reading', () => {
  it('reads a balance equal to balanceOf, formatted with the token’s 18 decimals', async () => {
    const balance = await service.readBalance(sender.address);
    expect(balance.raw).toBe(await ddexOf(sender.address));
    expect(balance.decimals).toBe(18);
    expect(balance.formatted).toBe(formatUnits(balance.raw, 18));
    // Any letter case is the same holder.
    expect((await service.readBalance(sender.address.toLowerCase())).raw).toBe(balance.raw);
  });

  it('reads zero for an address that never held DDEX', async () => {
    const { address } = privateKeyToAccount(generatePrivateKey());
    expect(await service.readBalance(address)).toEqual({ raw: 0n, formatted: '0', decimals: 18 });
  });

  it('refuses a holder that is not an address', async () => {
    await expectRejected(service.readBalance('0x1234'), 'invalid-address');
  });
});

describe('token service: transfer', () => {
  it('moves exactly the amount and returns the mined transaction', async () => {
    const [senderBefore, recipientBefore] = await Promise.all([
      ddexOf(sender.address),
      ddexOf(recipient.address),
    ]);
    const amount = parseUnits('12.5', 18);

    const result = await send(service, {
      privateKey: sender.privateKey,
      to: recipient.address,
      amount: '12.5',
      expectedFrom: sender.address,
    });

    expect(result).toMatchObject({ from: sender.address, to: recipient.address, raw: amount });
    expect(await ddexOf(sender.address)).toBe(senderBefore - amount);
    expect(await ddexOf(recipient.address)).toBe(recipientBefore + amount);
    const receipt = await getTransactionReceipt(client, { hash: result.hash });
    expect(receipt.status).toBe('success');
    expect(receipt.blockNumber).toBe(result.blockNumber);
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.address.toLowerCase()).toBe(chain.tokenAddress.toLowerCase());
    expect(transfers[0]?.args).toEqual({ from: sender.address, to: recipient.address, value: amount });
  });

  it('takes the key without 0x, the recipient without a checksum and the smallest unit', async () => {
    const recipientBefore = await ddexOf(recipient.address);
    const result = await send(service, {
      privateKey: ` ${sender.privateKey.slice(2).toUpperCase()} `,
      to: recipient.address.toLowerCase(),
      amount: '0.000000000000000001',
      expectedFrom: sender.address,
    });

    expect(result).toMatchObject({ from: sender.address, to: recipient.address, raw: 1n });
    expect(await ddexOf(recipient.address)).toBe(recipientBefore + 1n);
  });

  it('refuses a recipient whose mixed case is not its checksum, before signing, as the typo it likely is', async () => {
    const recipientBefore = await ddexOf(recipient.address);
    const wrongChecksum = `0x${[...recipient.address.slice(2)]
      .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
      .join('')}`;
    const error = await rejection(
      send(service, {
        privateKey: sender.privateKey,
        to: wrongChecksum,
        amount: '1',
        expectedFrom: sender.address,
      }),
    );
    expect(error.problem).toEqual({ code: 'invalid-recipient' });
    expect(await ddexOf(recipient.address)).toBe(recipientBefore);
  });

  it('keeps large amounts exact (no floating point)', async () => {
    const recipientBefore = await ddexOf(recipient.address);
    // 2^53 + 1 whole tokens plus 18 fraction digits is far beyond a double's precision.
    const amount = '9007199254740993.000000000000000007';
    const balance = await ddexOf(sender.address);
    const expected = parseUnits(amount, 18);
    expect(expected > balance).toBe(true);
    // More than the sender holds: refused, yet the figures in the words are exact.
    const error = await expectRejected(
      send(service, {
        privateKey: sender.privateKey,
        to: recipient.address,
        amount,
        expectedFrom: sender.address,
      }),
      'insufficient-token-balance',
    );
    expect(error.problem).toEqual({
      code: 'insufficient-token-balance',
      figures: { balance: formatUnits(balance, 18), needed: amount },
    });
    expect(describeError(error)).toBe(tokenCopy.insufficientTokenBalanceOf(formatUnits(balance, 18), amount));
    expect(await ddexOf(recipient.address)).toBe(recipientBefore);
  });
});

describe('token service: refused inputs, before any transaction', () => {
  const valid = () => ({
    privateKey: sender.privateKey as string,
    to: recipient.address as string,
    amount: '1',
    expectedFrom: sender.address as string,
  });
  const cases: [string, Partial<ReturnType<typeof valid>>, TokenServiceErrorReason][] = [
    ['a short key', { privateKey: '0x1234' }, 'invalid-private-key'],
    [
      'a key with a non-hex digit',
      { privateKey: `${sender.privateKey.slice(0, -1)}g` },
      'invalid-private-key',
    ],
    ['a key one digit too long', { privateKey: `${sender.privateKey}0` }, 'invalid-private-key'],
    ['the zero key', { privateKey: `0x${'0'.repeat(64)}` }, 'invalid-private-key'],
    ['a key beyond the curve order', { privateKey: `0x${'f'.repeat(64)}` }, 'invalid-private-key'],
    ['an empty key', { privateKey: '' }, 'invalid-private-key'],
    ['a short recipient', { to: '0x1234' }, 'invalid-recipient'],
    ['an ENS name', { to: 'alice.eth' }, 'invalid-recipient'],
    ['the zero address', { to: `0x${'0'.repeat(40)}` }, 'invalid-recipient'],
    ['zero', { amount: '0' }, 'invalid-amount'],
    ['zero with decimals', { amount: '0.000' }, 'invalid-amount'],
    ['a negative amount', { amount: '-1' }, 'invalid-amount'],
    ['an exponent', { amount: '1e3' }, 'invalid-amount'],
    ['a decimal comma', { amount: '1,5' }, 'invalid-amount'],
    ['words', { amount: 'ten' }, 'invalid-amount'],
    ['nothing', { amount: '' }, 'invalid-amount'],
    ['a lone point', { amount: '.' }, 'invalid-amount'],
  ];

  it.each(cases)('refuses %s without touching the node', async (_, change, reason) => {
    // Nothing listens on this RPC: a network call would surface as rpc-unavailable.
    const offline = createTokenService({
      rpcUrl: `http://127.0.0.1:${await closedPort()}`,
      chainId: chain.chainId,
      tokenAddress: chain.tokenAddress,
    });
    const error = await expectRejected(send(offline, { ...valid(), ...change }), reason);
    expectNoKeyIn(error, sender.privateKey);
  });

  it.each(cases)('refuses %s and sends nothing on the real chain', async (_, change, reason) => {
    const nonce = await nonceOf(sender.address);
    await expectRejected(send(service, { ...valid(), ...change }), reason);
    expect(await nonceOf(sender.address)).toBe(nonce);
  });

  it('refuses more fraction digits than the token’s 18 decimals instead of rounding', async () => {
    const nonce = await nonceOf(sender.address);
    const recipientBefore = await ddexOf(recipient.address);
    const error = await expectRejected(
      send(service, { ...valid(), amount: '1.0000000000000000001' }),
      'invalid-amount',
    );
    expect(error.problem).toEqual({ code: 'too-many-decimals', decimals: 18 });
    expect(describeError(error)).toBe(tokenCopy.tooManyDecimals(18));
    expect(await nonceOf(sender.address)).toBe(nonce);
    expect(await ddexOf(recipient.address)).toBe(recipientBefore);
  });

  it('accepts trailing zeros beyond the decimals, which add no precision', async () => {
    const recipientBefore = await ddexOf(recipient.address);
    await send(service, { ...valid(), amount: '2.50000000000000000000000' });
    expect(await ddexOf(recipient.address)).toBe(recipientBefore + parseUnits('2.5', 18));
  });
});

describe('token service: failures the chain reports', () => {
  it('reports a DDEX balance too small, sending nothing', async () => {
    const nonce = await nonceOf(sender.address);
    const balance = await ddexOf(sender.address);
    const error = await expectRejected(
      send(service, {
        privateKey: sender.privateKey,
        to: recipient.address,
        amount: formatUnits(balance + 1n, 18),
        expectedFrom: sender.address,
      }),
      'insufficient-token-balance',
    );
    expect(describeError(error)).toBe(
      tokenCopy.insufficientTokenBalanceOf(formatUnits(balance, 18), formatUnits(balance + 1n, 18)),
    );
    expect(await nonceOf(sender.address)).toBe(nonce);
    expect(await ddexOf(sender.address)).toBe(balance);
    expectNoKeyIn(error, sender.privateKey);
  });

  it('reports no DDEX at all for an account with ETH only', async () => {
    const fresh = await freshAccount({ eth: '0.01' });
    const error = await expectRejected(
      send(service, {
        privateKey: fresh.privateKey,
        to: recipient.address,
        amount: '1',
        expectedFrom: fresh.address,
      }),
      'insufficient-token-balance',
    );
    expect(describeError(error)).toBe(tokenCopy.insufficientTokenBalanceOf('0', '1'));
    expect(describeError(error)).toContain('holds 0 tokens');
    expect(await nonceOf(fresh.address)).toBe(0);
    expectNoKeyIn(error, fresh.privateKey);
  });

  it('reports too little ETH for gas for an account with DDEX but no ETH', async () => {
    const fresh = await freshAccount({ ddex: '5' });
    expect(await getBalance(client, { address: fresh.address })).toBe(0n);
    const error = await expectRejected(
      send(service, {
        privateKey: fresh.privateKey,
        to: recipient.address,
        amount: '1',
        expectedFrom: fresh.address,
      }),
      'insufficient-funds-for-gas',
    );
    expect(describeError(error)).toBe(tokenCopy.insufficientFundsForGas);
    expect(await ddexOf(fresh.address)).toBe(parseUnits('5', 18));
    expect(await nonceOf(fresh.address)).toBe(0);
    expectNoKeyIn(error, fresh.privateKey);
  });

  it('reports the missing DDEX first for a random key with neither ETH nor DDEX', async () => {
    // The node estimates gas without charging for it, so the token's refusal comes first.
    const privateKey = generatePrivateKey();
    const error = await expectRejected(
      send(service, {
        privateKey,
        to: recipient.address,
        amount: '1',
        expectedFrom: privateKeyToAccount(privateKey).address,
      }),
      'insufficient-token-balance',
    );
    expectNoKeyIn(error, privateKey);
  });

  it('refuses a node on another chain than configured, before signing anything', async () => {
    const sepolia = createTokenService({
      rpcUrl: chain.rpcUrl,
      chainId: 11155111,
      tokenAddress: chain.tokenAddress,
    });
    const nonce = await nonceOf(sender.address);
    const error = await expectRejected(
      send(sepolia, {
        privateKey: sender.privateKey,
        to: recipient.address,
        amount: '1',
        expectedFrom: sender.address,
      }),
      'wrong-chain',
    );
    expect(error.problem).toEqual({ code: 'wrong-chain', actual: chain.chainId, expected: 11155111 });
    expect(describeError(error)).toBe(tokenCopy.wrongChain(chain.chainId, 11155111));
    expect(describeError(error)).toContain('11155111');
    expect(describeError(error)).toContain('31337');
    expect(await nonceOf(sender.address)).toBe(nonce);
    expectNoKeyIn(error, sender.privateKey);
    await expectRejected(sepolia.readBalance(sender.address), 'wrong-chain');
  });

  it('reports an unreachable node', async () => {
    const offline = createTokenService({
      rpcUrl: `http://127.0.0.1:${await closedPort()}`,
      chainId: chain.chainId,
      tokenAddress: chain.tokenAddress,
    });
    await expectRejected(offline.readBalance(sender.address), 'rpc-unavailable');
    const error = await expectRejected(
      send(offline, {
        privateKey: sender.privateKey,
        to: recipient.address,
        amount: '1',
        expectedFrom: sender.address,
      }),
      'rpc-unavailable',
    );
    expectNoKeyIn(error, sender.privateKey);
  });

  it('keeps a cause for diagnostics that carries no key material', async () => {
    // The node's own refusal (no ETH for gas), not one the service foresaw from the balance.
    const fresh = await freshAccount({ ddex: '1' });
    const error = await rejection(
      send(service, {
        privateKey: fresh.privateKey.slice(2),
        to: recipient.address,
        amount: '1',
        expectedFrom: fresh.address,
      }),
    );
    expect(error.cause).toBeInstanceOf(Error);
    expect(String((error.cause as Error).message)).toMatch(/funds/i);
    expectNoKeyIn(error, fresh.privateKey);
  });
});

describe('token service: the split transfer (prepare, sign, broadcast)', () => {
  it('moves the tokens, sending nothing before the broadcast', async () => {
    const [senderBefore, recipientBefore, nonce] = await Promise.all([
      ddexOf(sender.address),
      ddexOf(recipient.address),
      nonceOf(sender.address),
    ]);

    const prepared = await service.prepareTransfer({
      privateKey: sender.privateKey,
      to: recipient.address,
      amount: '3.25',
      // The wallet reports its address in any letter case.
      expectedFrom: sender.address.toLowerCase(),
    });
    expect(prepared).toEqual({
      from: sender.address,
      to: recipient.address,
      raw: parseUnits('3.25', 18),
      amount: '3.25',
      decimals: 18,
    });
    const signed = await service.signTransfer({ privateKey: sender.privateKey, prepared });
    expect(await nonceOf(sender.address)).toBe(nonce);
    expect(JSON.stringify(signed).toLowerCase()).not.toContain(sender.privateKey.slice(2).toLowerCase());

    const result = await service.broadcastTransfer({ serialized: signed.serialized });
    expect(result).toMatchObject({
      hash: signed.hash,
      from: sender.address,
      to: recipient.address,
      raw: parseUnits('3.25', 18),
    });
    expect(await ddexOf(sender.address)).toBe(senderBefore - prepared.raw);
    expect(await ddexOf(recipient.address)).toBe(recipientBefore + prepared.raw);
    expect((await getTransactionReceipt(client, { hash: result.hash })).status).toBe('success');
    expect(await nonceOf(sender.address)).toBe(nonce + 1);
  });

  it('refuses a key of another account than the connected wallet, with no transaction', async () => {
    const nonce = await nonceOf(sender.address);
    const recipientBefore = await ddexOf(recipient.address);
    const error = await expectRejected(
      service.prepareTransfer({
        privateKey: sender.privateKey,
        to: recipient.address,
        amount: '1',
        expectedFrom: recipient.address,
      }),
      'wrong-account',
    );
    expect(error.problem).toEqual({ code: 'key-mismatch' });
    expect(describeError(error)).toBe(sendCopy.keyMismatch);
    expectNoKeyIn(error, sender.privateKey);
    expect(await nonceOf(sender.address)).toBe(nonce);
    expect(await ddexOf(recipient.address)).toBe(recipientBefore);
  });

  it('refuses an amount above the balance while preparing, naming both figures', async () => {
    const nonce = await nonceOf(sender.address);
    const balance = await ddexOf(sender.address);
    const error = await expectRejected(
      service.prepareTransfer({
        privateKey: sender.privateKey,
        to: recipient.address,
        amount: formatUnits(balance + 1n, 18),
        expectedFrom: sender.address,
      }),
      'insufficient-token-balance',
    );
    expect(describeError(error)).toBe(
      tokenCopy.insufficientTokenBalanceOf(formatUnits(balance, 18), formatUnits(balance + 1n, 18)),
    );
    expectNoKeyIn(error, sender.privateKey);
    expect(await nonceOf(sender.address)).toBe(nonce);
  });

  it('reports no ETH for gas when broadcasting (the node checks fees only then), moving nothing', async () => {
    const fresh = await freshAccount({ ddex: '2' });
    const prepared = await service.prepareTransfer({
      privateKey: fresh.privateKey,
      to: recipient.address,
      amount: '1',
      expectedFrom: fresh.address,
    });
    const signed = await service.signTransfer({ privateKey: fresh.privateKey, prepared });
    const error = await expectRejected(
      service.broadcastTransfer({ serialized: signed.serialized }),
      'insufficient-funds-for-gas',
    );
    expect(error.hash).toBeUndefined();
    expectNoKeyIn(error, fresh.privateKey);
    expect(await nonceOf(fresh.address)).toBe(0);
    expect(await ddexOf(fresh.address)).toBe(parseUnits('2', 18));
  });

  it('refuses malformed keys in every step without echoing them', async () => {
    const prepared = await service.prepareTransfer({
      privateKey: sender.privateKey,
      to: recipient.address,
      amount: '1',
      expectedFrom: sender.address,
    });
    const almost = `${sender.privateKey.slice(0, -1)}g`;
    for (const attempt of [
      service.prepareTransfer({
        privateKey: almost,
        to: recipient.address,
        amount: '1',
        expectedFrom: sender.address,
      }),
      service.signTransfer({ privateKey: almost, prepared }),
    ]) {
      const error = await expectRejected(attempt, 'invalid-private-key');
      expect(exposedText(error)).not.toContain(almost.slice(2, -1));
    }
  });
});
