import { randomBytes } from 'node:crypto';
import { encodeFunctionData, erc20Abi, keccak256, parseEther, parseUnits, type Hex } from 'viem';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { createRecordTransactionHandler } from '../../supabase/functions/record-transaction/handler.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { sendDdexTwiceInOneTransaction } from '../support/stack/batch-transfer.ts';
import { readerOf, sendDdex, sendEth, walletOf } from '../support/stack/chain.ts';
import { fileUsers, seenBy, seenOf, serviceClient, type TestUser } from '../support/stack/users.ts';
import { userWithWallet } from '../support/stack/wallets.ts';
import { docFungible } from '../support/tatum-documented.ts';
import { chunked } from '../support/streams.ts';
import { closedPort } from '../support/closed-port.ts';

// record-transaction end to end: a signed-in user's real DDEX send on the local
// chain becomes one row in their history, read back through their own client,
// however often the portal (or Tatum's webhook for the same transfer) records it.

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);
const FUNCTION_URL = `${stack.url}/functions/v1/record-transaction`;
const sender = testAccount('recordTransactionSender');
const recipient = testAccount('recordTransactionRecipient');

const publicClient = readerOf(chain);

// The tests' users (userWithWallet) take the sender's wallet over from whoever held it before.
const users = fileUsers(stack, service);
afterEach(() => users.closeChannels());

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

async function rowsWithHash(txHash: string) {
  const { data, error } = await service.from('transactions').select('*').ilike('tx_hash', txHash);
  expect(error).toBeNull();
  return data ?? [];
}

/**
 * The rows only record-transaction writes (a send or a swap of the caller's) for a transaction.
 * The server also watches every proven wallet and writes what the chain shows for it (the
 * recipient's DDEX, the sender's fee), so "records nothing" means none of these.
 */
async function sendRowsWithHash(txHash: string) {
  return (await rowsWithHash(txHash)).filter((row) => row.type === 'token_sent' || row.type === 'swap');
}

/** A port on 127.0.0.1 that was free a moment ago and that nothing listens on now. */

async function expectError(response: Response, status: number, message: RegExp) {
  expect(response.status).toBe(status);
  expect(await response.json()).toEqual({
    error: expect.any(String),
    message: expect.stringMatching(message),
  });
}

describe('record-transaction records the caller’s own DDEX send', () => {
  it('records a send once, as the portal calls it, with the amount and hash from the chain', async () => {
    const alice = await userWithWallet(users, 'rt-sender', sender.address);
    const hash = await sendDdex(chain, sender, recipient, parseUnits('12.5', 18));

    const { data, error } = await alice.client.functions.invoke('record-transaction', {
      body: { txHash: hash },
    });
    expect(error).toBeNull();
    const mined = await publicClient.getTransactionReceipt({ hash });
    const transaction = {
      tx_hash: hash.toLowerCase(),
      log_index: mined.logs[0]?.logIndex,
      type: 'token_sent',
      amount: '-12.5',
      token_symbol: 'DDEX',
      status: 'confirmed',
      block_number: Number(mined.blockNumber),
      counterparty: recipient.address.toLowerCase(),
      counter_amount: null,
      counter_symbol: null,
    };
    // Recorded by this call, or just before it by the server's watch of the wallet: one row either way.
    expect(data).toEqual({ recorded: expect.any(Boolean), transactions: [transaction] });
    expect((await seenOf(alice, hash)).transactions).toEqual(
      expect.arrayContaining([expect.objectContaining({ ...transaction, user_id: alice.id })]),
    );

    // The portal may call again (a retry, a second tab): still one row, and it says so.
    const again = await record(alice, hash);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ recorded: false, transactions: [transaction] });
    // The user saw the send go out: neither this path nor the server's adds a notification.
    expect((await seenOf(alice, hash)).notifications).toEqual([]);
    expect((await seenOf(alice, hash)).transactions.filter((row) => row.type === 'token_sent')).toHaveLength(
      1,
    );
  });

  it('matches the wallet and the hash in any letter case and keeps the smallest amount exact', async () => {
    const bob = await userWithWallet(users, 'rt-case', sender.address.toLowerCase());
    const hash = await sendDdex(chain, sender, recipient, 1n);
    const shouted = `0x${hash.slice(2).toUpperCase()}`;

    const response = await record(bob, shouted);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      transactions: [{ tx_hash: hash.toLowerCase(), amount: '-0.000000000000000001' }],
    });
    expect(await sendRowsWithHash(hash)).toEqual([
      expect.objectContaining({ user_id: bob.id, amount: '-0.000000000000000001' }),
    ]);
  });

  it('refuses a DDEX transfer that did not come from the caller’s wallet with 422 and records nothing', async () => {
    const hash = await sendDdex(chain, sender, recipient, parseUnits('2', 18));
    // The recipient of the transfer did not send it; neither did an unrelated wallet.
    for (const wallet of [recipient.address, `0x${randomBytes(20).toString('hex')}`]) {
      const carol = await userWithWallet(users, 'rt-not-mine', wallet);
      await expectError(await record(carol, hash), 422, /not a DDEX transfer from your wallet/);
      expect((await sendRowsWithHash(hash)).filter((row) => row.user_id === carol.id)).toEqual([]);
    }
  });

  it('refuses a plain ETH transfer with 422', async () => {
    const dave = await userWithWallet(users, 'rt-eth', sender.address);
    const sent = await sendEth(chain, sender, recipient, parseEther('0.001'));
    expect(sent.status).toBe('success');
    const hash = sent.transactionHash;

    await expectError(await record(dave, hash), 422, /not a DDEX transfer from your wallet/);
    expect(await sendRowsWithHash(hash)).toEqual([]);
  });

  it('refuses a reverted DDEX transfer with 422', async () => {
    const erin = await userWithWallet(users, 'rt-reverted', sender.address);
    const wallet = walletOf(chain, sender);
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
    expect(await sendRowsWithHash(hash)).toEqual([]);
  });

  it('answers a hash the chain does not know with 404', async () => {
    const frank = await userWithWallet(users, 'rt-unknown', sender.address);
    const unknown = `0x${randomBytes(32).toString('hex')}`;
    await expectError(await record(frank, unknown), 404, /No mined transaction with this hash/);
    expect(await rowsWithHash(unknown)).toEqual([]);
  });

  it('records nothing for a wallet no proof stands behind: it asks the user to link one (409)', async () => {
    // The sender's own address, written without a proof: record-transaction trusts only a proven
    // wallet to say whose send this was.
    const mallory = await userWithWallet(users, 'rt-unproven', sender.address, { verified: false });
    const hash = await sendDdex(chain, sender, recipient, parseUnits('1.5', 18));

    await expectError(await record(mallory, hash), 409, /link .*wallet/i);

    // Nobody's wallet, so not the server's either: no row for anyone.
    expect(await seenOf(mallory, hash)).toEqual({ transactions: [], notifications: [] });
    expect(await sendRowsWithHash(hash)).toEqual([]);
  });

  it('asks a user without a linked wallet to link one (409), with or without a profile', async () => {
    const hash = await sendDdex(chain, sender, recipient, parseUnits('1', 18));
    for (const wallet of [undefined, null, 'not-an-address']) {
      const grace = await userWithWallet(users, 'rt-no-wallet', wallet);
      await expectError(await record(grace, hash), 409, /link .*wallet/i);
      expect(await seenOf(grace, hash)).toEqual({ transactions: [], notifications: [] });
    }
  });
});

describe('record-transaction refuses what it cannot trust or read', () => {
  it('is behind JWT verification, as deployed (verify_jwt = true): no valid JWT never reaches it', async () => {
    const hash = await sendDdex(chain, sender, recipient, parseUnits('3', 18));
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
  });

  it('refuses a caller who is not a signed-in user with 401, also when it gets past the gateway', async () => {
    const hash = await sendDdex(chain, sender, recipient, parseUnits('3', 18));
    const body = JSON.stringify({ txHash: hash });
    // The function itself, reached without the gateway's check: a token that is no user's.
    const direct = await fetch(stack.functions.urls['record-transaction'] ?? '', {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.anonKey}`, 'content-type': 'application/json' },
      body,
    });
    await expectError(direct, 401, /sign/i);
  });

  it('refuses a malformed body or hash with 400', async () => {
    const henry = await userWithWallet(users, 'rt-malformed', sender.address);
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
  });

  it('refuses a body past 64 KB with 413, declared or chunked', async () => {
    const kate = await userWithWallet(users, 'rt-too-large', sender.address);
    const body = JSON.stringify({ txHash: `0x${'ab'.repeat(32)}`, padding: 'x'.repeat(70 * 1024) });
    // The Deno server itself: the gateway in front of it refuses such bodies first, and so may the
    // hosted platform's edge, but the function does not count on either.
    for (const sent of [body, chunked(body)]) {
      const response = await fetch(stack.functions.urls['record-transaction'] ?? '', {
        method: 'POST',
        headers: { authorization: `Bearer ${kate.accessToken}`, 'content-type': 'application/json' },
        body: sent,
        duplex: 'half',
      } as RequestInit);
      await expectError(response, 413, /larger than 64 KB/);
    }
  });

  it('accepts POST only', async () => {
    const ivy = await userWithWallet(users, 'rt-method', sender.address);
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
    const jack = await userWithWallet(users, 'rt-no-chain', sender.address);
    const hash = await sendDdex(chain, sender, recipient, parseUnits('4', 18));
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
  });
});

describe('record-transaction and process-payments record one transfer once', () => {
  /**
   * The signed delivery Tatum makes for the sender of a DDEX transfer, in its documented body
   * (tests/support/tatum-documented.ts): `fungible`, the contract as asset, no log named.
   */
  async function deliverOutgoing(hash: Hex, amount: string): Promise<Response> {
    const body = JSON.stringify({
      ...docFungible(chain.tokenAddress.toLowerCase()),
      address: sender.address.toLowerCase(),
      amount,
      blockNumber: Number((await publicClient.getTransactionReceipt({ hash })).blockNumber),
      counterAddress: recipient.address.toLowerCase(),
      txId: hash,
      chain: 'ethereum-sepolia',
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
    const kim = await userWithWallet(users, 'rt-then-webhook', sender.address);
    const hash = await sendDdex(chain, sender, recipient, parseUnits('3.25', 18));
    expect(await (await record(kim, hash)).json()).toMatchObject({ transactions: [{ amount: '-3.25' }] });

    // Tatum's delivery, and a redelivery of it: the receipt names the log the portal's row has.
    for (let round = 0; round < 2; round += 1) {
      const delivery = await deliverOutgoing(hash, '-3.25');
      expect(delivery.status).toBe(200);
      expect(await delivery.json()).toEqual({ received: true, recorded: 0 });
    }

    const { transactions, notifications } = await seenOf(kim, hash);
    expect(transactions.filter((row) => row.type === 'token_sent')).toEqual([
      expect.objectContaining({ tx_hash: hash, amount: '-3.25', token_symbol: 'DDEX' }),
    ]);
    // A send is the user's own: no notification, whoever wrote the row.
    expect(notifications).toEqual([]);
  });

  it('keeps one row, and answers recorded:false, when the webhook recorded the send first', async () => {
    const lee = await userWithWallet(users, 'webhook-then-rt', sender.address);
    const hash = await sendDdex(chain, sender, recipient, parseUnits('0.5', 18));
    expect((await deliverOutgoing(hash, '-0.5')).status).toBe(200);

    const response = await record(lee, hash);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ recorded: false, transactions: [{ amount: '-0.5' }] });

    const { transactions, notifications } = await seenOf(lee, hash);
    expect(transactions.filter((row) => row.type === 'token_sent')).toEqual([
      expect.objectContaining({ tx_hash: hash, amount: '-0.5', token_symbol: 'DDEX' }),
    ]);
    expect(notifications).toEqual([]);
  });

  it('records both of two DDEX transfers in one transaction: two rows and notifications for the recipient, two rows for the sender; a repeat of either adds nothing', async () => {
    const receiving = await userWithWallet(users, 'rt-two-in', recipient.address);
    const sending = await userWithWallet(users, 'rt-two-out', sender.address);
    const watch = await watchAtEmulator(recipient.address);
    try {
      const amount = parseUnits('1.25', 18);
      const hash = await sendDdexTwiceInOneTransaction(chain, sender, recipient, amount);
      const logIndexes = (await publicClient.getTransactionReceipt({ hash })).logs.map((log) => log.logIndex);
      expect(logIndexes).toHaveLength(2);
      const about = (message: string) => message.includes(hash.slice(0, 10));

      // The emulator delivers one event per transfer log: the recipient hears of both.
      await expect
        .poll(async () => (await seenBy(receiving)).notifications.filter((n) => about(n.message)), {
          timeout: 10_000,
        })
        .toEqual([
          expect.objectContaining({ title: 'DDEX Received' }),
          expect.objectContaining({ title: 'DDEX Received' }),
        ]);

      // The sender records the send: each transfer out of their wallet, each once.
      const blockNumber = Number((await publicClient.getTransactionReceipt({ hash })).blockNumber);
      const sent = logIndexes.map((logIndex) => ({
        tx_hash: hash.toLowerCase(),
        log_index: logIndex,
        type: 'token_sent',
        amount: '-1.25',
        token_symbol: 'DDEX',
        status: 'confirmed',
        block_number: blockNumber,
        counterparty: recipient.address.toLowerCase(),
        counter_amount: null,
        counter_symbol: null,
      }));
      const recorded = await record(sending, hash);
      // The server's watch of the sender's wallet may have written them a moment before.
      expect(await recorded.json()).toEqual({ recorded: expect.any(Boolean), transactions: sent });
      expect(await (await record(sending, hash)).json()).toEqual({ recorded: false, transactions: sent });

      // Tatum delivers one body per transfer for either side, each naming no log, and may deliver
      // each again: nothing more is recorded.
      const bodies = logIndexes.flatMap(() => [
        () => deliverIncoming(hash, '1.25'),
        () => deliverOutgoing(hash, '-1.25'),
      ]);
      for (const delivery of bodies) {
        const answer = await delivery();
        expect(answer.status).toBe(200);
        expect(await answer.json()).toEqual({ received: true, recorded: 0 });
      }

      // A later transfer to the recipient, once delivered, shows the emulator owed nothing more.
      const marker = await sendDdex(chain, sender, recipient, 1n);
      await expect
        .poll(
          async () =>
            (await seenBy(receiving)).notifications.some((n) => n.message.includes(marker.slice(0, 10))),
          {
            timeout: 10_000,
          },
        )
        .toBe(true);
      const received = await seenBy(receiving);
      // Read without an order, rows come in the table's order, which an update may change: by log.
      const byLog = <Row extends { log_index?: number | null }>(rows: Row[]) =>
        rows.sort((a, b) => (a.log_index ?? -1) - (b.log_index ?? -1));
      expect(byLog(received.transactions.filter((row) => row.tx_hash === hash.toLowerCase()))).toEqual(
        logIndexes.map((logIndex) =>
          expect.objectContaining({ type: 'token_received', amount: '1.25', log_index: logIndex }),
        ),
      );
      expect(received.notifications.filter((n) => about(n.message))).toHaveLength(2);
      const own = await seenBy(sending);
      expect(
        byLog(
          own.transactions.filter((row) => row.tx_hash === hash.toLowerCase() && row.type === 'token_sent'),
        ),
      ).toEqual(sent.map((row) => expect.objectContaining(row)));
      expect((await seenOf(sending, hash)).notifications).toEqual([]);
    } finally {
      await watch.stop();
    }
  }, 40_000);
});

/** The signed delivery for the recipient of one transfer of a DDEX transaction, as Tatum documents it. */
async function deliverIncoming(hash: Hex, amount: string): Promise<Response> {
  const body = JSON.stringify({
    ...docFungible(chain.tokenAddress.toLowerCase()),
    address: recipient.address.toLowerCase(),
    amount,
    blockNumber: Number((await publicClient.getTransactionReceipt({ hash })).blockNumber),
    counterAddress: sender.address.toLowerCase(),
    txId: hash,
    chain: 'ethereum-sepolia',
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

/** Has the stack's Tatum emulator post every transfer touching `address` to process-payments. */
async function watchAtEmulator(address: string): Promise<{ stop(): Promise<void> }> {
  const headers = { 'content-type': 'application/json', 'x-api-key': stack.tatumApiKey };
  const created = await fetch(`${stack.tatumApiUrl}subscription`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      type: 'ADDRESS_EVENT',
      attr: { chain: 'ETH', address, url: `${stack.url}/functions/v1/process-payments` },
    }),
  });
  const { id } = (await created.json()) as { id?: string };
  if (!created.ok || !id) throw new Error(`could not watch ${address}: ${created.status}`);
  return {
    stop: async () => {
      await fetch(`${stack.tatumApiUrl}subscription/${id}`, { method: 'DELETE', headers });
    },
  };
}
