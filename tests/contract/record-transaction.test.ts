import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  http,
  keccak256,
  parseEther,
  parseUnits,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import type { ChainAccount } from '../../stack/chain/index.ts';
import { signPayload } from '../../supabase/functions/process-payments/signature.ts';
import { createRecordTransactionHandler } from '../../supabase/functions/record-transaction/handler.ts';
import { testAccount } from '../support/accounts.ts';
import { serviceClient, signedInUser, type Client, type TestUser } from '../support/clients.ts';
import { releaseWalletAsServer, setWalletAsServer } from '../support/wallet-proof.ts';

// record-transaction end to end: a signed-in user's real DDEX send on the local
// chain becomes one row in their history, read back through their own client,
// however often the portal (or Tatum's webhook for the same transfer) records it.

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);
const FUNCTION_URL = `${stack.url}/functions/v1/record-transaction`;
const sender = testAccount('recordTransactionSender');
const recipient = testAccount('recordTransactionRecipient');

const publicClient = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
const walletOf = (account: ChainAccount) =>
  createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    transport: http(chain.rpcUrl, { retryCount: 0 }),
  });

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
});

async function sendDdex(from: ChainAccount, to: ChainAccount, amount: bigint): Promise<Hex> {
  const hash = await walletOf(from).writeContract({
    address: chain.tokenAddress,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to.address, amount],
    chain: null,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return hash;
}

/**
 * A signed-in user; wallet undefined leaves them without a profile. The wallet is proven (as
 * link-wallet leaves it) unless `verified` is false. A wallet has one owner, so the tests' users
 * take the sender's wallet over from whoever held it before.
 */
async function user(label: string, wallet?: string | null, { verified = true } = {}): Promise<TestUser> {
  const signedIn = await signedInUser(stack, label);
  clients.push(signedIn.client);
  if (wallet !== undefined) {
    const { error } = await signedIn.client
      .from('profiles')
      .upsert({ id: signedIn.id, email: signedIn.email });
    if (error) throw new Error(`profile upsert failed: ${error.message}`);
    if (wallet !== null) await releaseWalletAsServer(service, wallet);
    await setWalletAsServer(service, signedIn.id, wallet, verified);
  }
  return signedIn;
}

/** Calls the function as the portal's fetch would; token null sends no Authorization. */
function call(body: string, token: string | null, method = 'POST'): Promise<Response> {
  return fetch(FUNCTION_URL, {
    method,
    headers: {
      apikey: stack.anonKey,
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(method === 'GET' ? {} : { body }),
  });
}

const record = (who: TestUser, txHash: string) => call(JSON.stringify({ txHash }), who.accessToken);

/** What the user sees: their own history and notifications, through their own client. */
async function seenBy(who: TestUser) {
  const [transactions, notifications] = await Promise.all([
    who.client.from('transactions').select('*'),
    who.client.from('user_notifications').select('*'),
  ]);
  expect(transactions.error).toBeNull();
  expect(notifications.error).toBeNull();
  return { transactions: transactions.data ?? [], notifications: notifications.data ?? [] };
}

async function rowsWithHash(txHash: string) {
  const { data, error } = await service.from('transactions').select('*').ilike('tx_hash', txHash);
  expect(error).toBeNull();
  return data ?? [];
}

/** A port on 127.0.0.1 that was free a moment ago and that nothing listens on now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}

async function expectError(response: Response, status: number, message: RegExp) {
  expect(response.status).toBe(status);
  expect(await response.json()).toEqual({
    error: expect.any(String),
    message: expect.stringMatching(message),
  });
}

describe('record-transaction records the caller’s own DDEX send', () => {
  it('records a send once, as the portal calls it, with the amount and hash from the chain', async () => {
    const alice = await user('rt-sender', sender.address);
    const hash = await sendDdex(sender, recipient, parseUnits('12.5', 18));

    const { data, error } = await alice.client.functions.invoke('record-transaction', {
      body: { txHash: hash },
    });
    expect(error).toBeNull();
    const transaction = {
      tx_hash: hash.toLowerCase(),
      type: 'token_sent',
      amount: '-12.5',
      token_symbol: 'DDEX',
      status: 'confirmed',
    };
    expect(data).toEqual({ recorded: true, transaction });

    const first = await seenBy(alice);
    expect(first.transactions).toEqual([expect.objectContaining({ ...transaction, user_id: alice.id })]);
    // The user already saw the send go out: this path adds no notification.
    expect(first.notifications).toEqual([]);

    // The portal may call again (a retry, a second tab): still one row, and it says so.
    const again = await record(alice, hash);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ recorded: false, transaction });
    expect(await seenBy(alice)).toEqual(first);
  });

  it('matches the wallet and the hash in any letter case and keeps the smallest amount exact', async () => {
    const bob = await user('rt-case', sender.address.toLowerCase());
    const hash = await sendDdex(sender, recipient, 1n);
    const shouted = `0x${hash.slice(2).toUpperCase()}`;

    const response = await record(bob, shouted);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      recorded: true,
      transaction: { tx_hash: hash.toLowerCase(), amount: '-0.000000000000000001' },
    });
    const { transactions } = await seenBy(bob);
    expect(transactions).toEqual([
      expect.objectContaining({ tx_hash: hash.toLowerCase(), amount: '-0.000000000000000001' }),
    ]);
  });

  it('refuses a DDEX transfer that did not come from the caller’s wallet with 422 and records nothing', async () => {
    const hash = await sendDdex(sender, recipient, parseUnits('2', 18));
    // The recipient of the transfer did not send it; neither did an unrelated wallet.
    for (const wallet of [recipient.address, `0x${randomBytes(20).toString('hex')}`]) {
      const carol = await user('rt-not-mine', wallet);
      await expectError(await record(carol, hash), 422, /not a DDEX transfer from your wallet/);
      expect(await seenBy(carol)).toEqual({ transactions: [], notifications: [] });
    }
    expect(await rowsWithHash(hash)).toEqual([]);
  });

  it('refuses a plain ETH transfer with 422', async () => {
    const dave = await user('rt-eth', sender.address);
    const hash = await walletOf(sender).sendTransaction({
      to: recipient.address,
      value: parseEther('0.001'),
      chain: null,
    });
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');

    await expectError(await record(dave, hash), 422, /not a DDEX transfer from your wallet/);
    expect(await rowsWithHash(hash)).toEqual([]);
  });

  it('refuses a reverted DDEX transfer with 422', async () => {
    const erin = await user('rt-reverted', sender.address);
    const wallet = walletOf(sender);
    // More DDEX than exists: mined, but reverted. The gas is fixed so nothing estimates
    // (and refuses) it first; Hardhat reports the revert as an error of the send itself,
    // so the hash is computed from the signed bytes rather than taken from the reply.
    const request = await wallet.prepareTransactionRequest({
      to: chain.tokenAddress,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [recipient.address, 10n ** 40n],
      }),
      gas: 100_000n,
      chain: null,
    });
    const signed = await wallet.signTransaction({ ...request, chain: null });
    const hash = keccak256(signed);
    await wallet.sendRawTransaction({ serializedTransaction: signed }).catch(() => undefined);
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('reverted');

    await expectError(await record(erin, hash), 422, /failed on chain/);
    expect(await rowsWithHash(hash)).toEqual([]);
  });

  it('answers a hash the chain does not know with 404', async () => {
    const frank = await user('rt-unknown', sender.address);
    await expectError(
      await record(frank, `0x${randomBytes(32).toString('hex')}`),
      404,
      /No mined transaction with this hash/,
    );
    expect(await seenBy(frank)).toEqual({ transactions: [], notifications: [] });
  });

  it('records nothing for a wallet no proof stands behind: it asks the user to link one (409)', async () => {
    // The sender's own address, written without a proof: record-transaction trusts only a proven
    // wallet to say whose send this was.
    const mallory = await user('rt-unproven', sender.address, { verified: false });
    const hash = await sendDdex(sender, recipient, parseUnits('1.5', 18));

    await expectError(await record(mallory, hash), 409, /link .*wallet/i);

    expect(await seenBy(mallory)).toEqual({ transactions: [], notifications: [] });
    expect(await rowsWithHash(hash)).toEqual([]);
  });

  it('asks a user without a linked wallet to link one (409), with or without a profile', async () => {
    const hash = await sendDdex(sender, recipient, parseUnits('1', 18));
    for (const wallet of [undefined, null, 'not-an-address']) {
      const grace = await user('rt-no-wallet', wallet);
      await expectError(await record(grace, hash), 409, /link .*wallet/i);
      expect(await seenBy(grace)).toEqual({ transactions: [], notifications: [] });
    }
    expect(await rowsWithHash(hash)).toEqual([]);
  });
});

describe('record-transaction refuses what it cannot trust or read', () => {
  it('is behind JWT verification, as deployed (verify_jwt = true): no valid JWT never reaches it', async () => {
    const hash = await sendDdex(sender, recipient, parseUnits('3', 18));
    const body = JSON.stringify({ txHash: hash });
    const refusals: [string | null, string][] = [
      [null, 'Missing authorization header'],
      // The project's API keys are of the new kind, no JWTs: the platform refuses them here too.
      [stack.anonKey, 'Invalid JWT'],
      [stack.serviceRoleKey, 'Invalid JWT'],
      ['not-a-jwt', 'Invalid JWT'],
      ['e30.e30.e30', 'Invalid JWT'],
      // Signed with another secret.
      [
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4Iiwicm9sZSI6ImF1dGhlbnRpY2F0ZWQifQ.' +
          'uM1nYj0eZ5v7nNn8V0FXxQ6mS1f5bJ2qKXcJ3o7yK7g',
        'Invalid JWT',
      ],
    ];
    for (const [token, message] of refusals) {
      const response = await call(body, token);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ code: 401, message });
    }
    expect(await rowsWithHash(hash)).toEqual([]);
  });

  it('refuses a caller who is not a signed-in user with 401, also when it gets past the gateway', async () => {
    const hash = await sendDdex(sender, recipient, parseUnits('3', 18));
    const body = JSON.stringify({ txHash: hash });
    // The function itself, reached without the gateway's check: a token that is no user's.
    const direct = await fetch(stack.functions.urls['record-transaction'] ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.anonKey}`, 'content-type': 'application/json' },
      body,
    });
    await expectError(direct, 401, /sign/i);
    expect(await rowsWithHash(hash)).toEqual([]);
  });

  it('refuses a malformed body or hash with 400', async () => {
    const henry = await user('rt-malformed', sender.address);
    const cases: [string, RegExp][] = [
      ['{"txHash": ', /not valid JSON/],
      ['"0xabc"', /JSON object/],
      ['{}', /txHash is required/],
      [JSON.stringify({ txHash: '0x1234' }), /txHash must be a transaction hash/],
      [JSON.stringify({ txHash: `0x${'z'.repeat(64)}` }), /txHash must be a transaction hash/],
      [JSON.stringify({ txHash: 7 }), /txHash must be a transaction hash/],
    ];
    for (const [body, message] of cases) {
      await expectError(await call(body, henry.accessToken), 400, message);
    }
    expect(await seenBy(henry)).toEqual({ transactions: [], notifications: [] });
  });

  it('accepts POST only', async () => {
    const ivy = await user('rt-method', sender.address);
    const response = await call('', ivy.accessToken, 'GET');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers 502 when the chain cannot be reached, logs why without the caller’s token, and records nothing', async () => {
    // The stack's own chain is up, so this drives the same handler with an RPC URL nothing listens on.
    const handler = createRecordTransactionHandler({
      supabase: service,
      rpcUrl: `http://127.0.0.1:${await closedPort()}`,
      tokenAddress: chain.tokenAddress,
    });
    const jack = await user('rt-no-chain', sender.address);
    const hash = await sendDdex(sender, recipient, parseUnits('4', 18));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await handler(
        new Request(FUNCTION_URL, {
          method: 'POST',
          headers: { authorization: `Bearer ${jack.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ txHash: hash }),
        }),
      );
      await expectError(response, 502, /blockchain node could not be asked/);
      expect(logged).toHaveBeenCalledTimes(1);
      const log = logged.mock.calls.flat().map((part) => String(part instanceof Error ? part.stack : part));
      expect(log.join(' ')).toMatch(/eth_getTransactionReceipt: the node could not be reached/);
      expect(log.join(' ')).not.toContain(jack.accessToken);
    } finally {
      logged.mockRestore();
    }
    expect(await seenBy(jack)).toEqual({ transactions: [], notifications: [] });
  });
});

describe('record-transaction and process-payments record one transfer once', () => {
  /** The signed delivery Tatum (and the stack's emulator) makes for the sender of a DDEX transfer. */
  async function deliverOutgoing(hash: Hex, amount: string): Promise<Response> {
    const body = JSON.stringify({
      address: sender.address.toLowerCase(),
      amount,
      asset: chain.tokenAddress.toLowerCase(),
      blockNumber: Number((await publicClient.getTransactionReceipt({ hash })).blockNumber),
      counterAddress: recipient.address.toLowerCase(),
      txId: hash,
      type: 'token',
      chain: 'ethereum-sepolia',
      subscriptionType: 'ADDRESS_EVENT',
      mempool: false,
    });
    return fetch(`${stack.url}/functions/v1/process-payments`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-payload-hash': await signPayload(stack.webhookSecret, body),
      },
      body,
    });
  }

  it('keeps one row when the webhook arrives after the portal recorded the send', async () => {
    const kim = await user('rt-then-webhook', sender.address);
    const hash = await sendDdex(sender, recipient, parseUnits('3.25', 18));
    expect(await (await record(kim, hash)).json()).toMatchObject({ recorded: true });

    const delivery = await deliverOutgoing(hash, '-3.25');
    expect(delivery.status).toBe(200);

    const { transactions, notifications } = await seenBy(kim);
    expect(transactions).toEqual([
      expect.objectContaining({ tx_hash: hash, type: 'token_sent', amount: '-3.25', token_symbol: 'DDEX' }),
    ]);
    // record_transfer notifies only for a new row, so the webhook that finds the row adds no
    // "DDEX Sent" notification either: the toast at send time is all the user gets.
    expect(notifications).toEqual([]);
  });

  it('keeps one row, and answers recorded:false, when the webhook recorded the send first', async () => {
    const lee = await user('webhook-then-rt', sender.address);
    const hash = await sendDdex(sender, recipient, parseUnits('0.5', 18));
    expect((await deliverOutgoing(hash, '-0.5')).status).toBe(200);

    const response = await record(lee, hash);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ recorded: false, transaction: { amount: '-0.5' } });

    const { transactions, notifications } = await seenBy(lee);
    expect(transactions).toEqual([
      expect.objectContaining({ tx_hash: hash, type: 'token_sent', amount: '-0.5', token_symbol: 'DDEX' }),
    ]);
    expect(notifications).toEqual([expect.objectContaining({ title: 'DDEX Sent' })]);
  });
});
