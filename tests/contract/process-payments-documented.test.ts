import { randomBytes } from 'node:crypto';
import { parseEther, parseUnits, type Hex } from 'viem';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { createProcessPaymentsHandler } from '../../supabase/functions/process-payments/handler.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { sendDdexTwiceInOneTransaction } from '../support/stack/batch-transfer.ts';
import { readerOf, sendDdex, sendEth } from '../support/stack/chain.ts';
import { fileUsers, seenBy, seenOf, serviceClient } from '../support/stack/users.ts';
import { userWithWallet } from '../support/stack/wallets.ts';
import {
  DOC_FEE,
  DOC_INTERNAL,
  DOC_MULTITOKEN,
  DOC_NATIVE_RECEIVED,
  DOC_NATIVE_SENT,
  DOC_NFT,
  DOC_REORG,
  SDK_DELIVERY_EXTRAS,
  docFungible,
} from '../support/tatum-documented.ts';

// process-payments fed Tatum's address-event bodies as its documentation prints them (each
// constant in tests/support/tatum-documented.ts names its page), with this chain's addresses,
// hashes and amounts put in: every documented kind is recorded, set aside or corrected as a user
// of a real token portal expects, and the chain's receipts, not the body, decide DDEX rows.

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);
const FUNCTION_URL = `${stack.url}/functions/v1/process-payments`;
const CHAIN = 'ethereum-sepolia';

const sender = testAccount('documentedSender');
const recipient = testAccount('documentedRecipient');
const publicClient = readerOf(chain);

const users = fileUsers(stack, service);
afterEach(() => users.closeChannels());

const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;
const randomTxId = () => `0x${randomBytes(32).toString('hex')}`;

/** POSTs a body signed with the stack's webhook secret, as Tatum does. */
async function deliver(body: object): Promise<Response> {
  const text = JSON.stringify(body);
  return fetch(FUNCTION_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-payload-hash': await signPayload(stack.webhookSecret, text),
    },
    body: text,
  });
}

async function expectRecorded(response: Response, recorded: number) {
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ received: true, recorded });
}

/** What the user sees (seenBy, seenOf), their history in log order. */
const inLogOrder = { inLogOrder: true };

const blockOf = async (hash: Hex) => Number((await publicClient.getTransactionReceipt({ hash })).blockNumber);

describe('process-payments reads every documented kind of address event', () => {
  it('records the documented native body for the receiver, with its counterparty and block', async () => {
    const address = randomAddress();
    const user = await userWithWallet(users, 'doc-native-in', address);
    const body = {
      ...DOC_NATIVE_RECEIVED,
      ...SDK_DELIVERY_EXTRAS,
      address,
      txId: randomTxId(),
      chain: CHAIN,
    };

    await expectRecorded(await deliver(body), 1);
    await expectRecorded(await deliver(body), 0);
    const { transactions, notifications } = await seenBy(user, inLogOrder);
    expect(transactions).toEqual([
      expect.objectContaining({
        type: 'native_received',
        amount: '0.0001',
        token_symbol: 'ETH',
        counterparty: DOC_NATIVE_RECEIVED.counterAddress.toLowerCase(),
        block_number: DOC_NATIVE_RECEIVED.blockNumber,
        status: 'confirmed',
      }),
    ]);
    expect(notifications).toEqual([expect.objectContaining({ title: 'ETH Received' })]);
  });

  it('records the sender’s two documented bodies of a real ETH transfer, the value and the fee, each once', async () => {
    // A wallet of nobody's on the chain, so that only these deliveries speak of it: a fee event is
    // read with the transaction's receipt, which holds nothing of DDEX for it.
    const address = randomAddress();
    const user = await userWithWallet(users, 'doc-native-out', address);
    const { transactionHash: hash } = await sendEth(chain, sender, recipient, parseEther('0.001'));
    const blockNumber = await blockOf(hash);
    const common = { address, txId: hash, blockNumber, chain: CHAIN };
    const fee = { ...DOC_FEE, ...common };
    const value = {
      ...DOC_NATIVE_SENT,
      ...common,
      amount: '-0.001',
      counterAddress: recipient.address.toLowerCase(),
    };

    await expectRecorded(await deliver(fee), 1);
    await expectRecorded(await deliver(value), 1);
    await expectRecorded(await deliver(fee), 0);
    await expectRecorded(await deliver(value), 0);
    const { transactions } = await seenBy(user, inLogOrder);
    expect(transactions.map((row) => [row.type, row.amount, row.block_number]).sort()).toEqual([
      ['fee', DOC_FEE.amount, blockNumber],
      ['native_sent', '-0.001', blockNumber],
    ]);
  });

  it('records a fungible DDEX transfer from the receipt, keyed by its log, also under Tatum’s v3 name', async () => {
    const user = await userWithWallet(users, 'doc-fungible', recipient.address);
    const hash = await sendDdex(chain, sender, recipient, parseUnits('7.5', 18));
    const receipt = await publicClient.getTransactionReceipt({ hash });
    const body = {
      ...docFungible(chain.tokenAddress.toLowerCase()),
      address: recipient.address.toLowerCase(),
      amount: '7.5',
      counterAddress: sender.address.toLowerCase(),
      txId: hash,
      blockNumber: Number(receipt.blockNumber),
      chain: CHAIN,
    };

    // The server watches the proven wallet too, so its own delivery may be first: one row either way.
    expect((await deliver(body)).status).toBe(200);
    await expectRecorded(await deliver({ ...body, type: 'token' }), 0);
    const { transactions, notifications } = await seenOf(user, hash, inLogOrder);
    expect(transactions).toEqual([
      expect.objectContaining({
        tx_hash: hash.toLowerCase(),
        type: 'token_received',
        amount: '7.5',
        token_symbol: 'DDEX',
        log_index: receipt.logs[0]?.logIndex,
        counterparty: sender.address.toLowerCase(),
      }),
    ]);
    expect(notifications.map((n) => n.title)).toEqual(['DDEX Received']);
  });

  it('records two DDEX transfers of one transaction as two rows though no body names a log, once under concurrency', async () => {
    const user = await userWithWallet(users, 'doc-two-transfers', recipient.address);
    const hash = await sendDdexTwiceInOneTransaction(chain, sender, recipient, parseUnits('2', 18));
    const receipt = await publicClient.getTransactionReceipt({ hash });
    const logs = receipt.logs.filter((log) => log.address.toLowerCase() === chain.tokenAddress.toLowerCase());
    expect(logs).toHaveLength(2);
    // Tatum sends one body per transfer; both are the same, as the body names no log.
    const body = {
      ...docFungible(chain.tokenAddress.toLowerCase()),
      address: recipient.address.toLowerCase(),
      amount: '2',
      counterAddress: sender.address.toLowerCase(),
      txId: hash,
      blockNumber: Number(receipt.blockNumber),
      chain: CHAIN,
    };

    // Three at once, beside the emulator's own deliveries to the server's watch of the wallet.
    const answers = await Promise.all([deliver(body), deliver(body), deliver(body)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    await expectRecorded(await deliver(body), 0);

    const { transactions, notifications } = await seenOf(user, hash, inLogOrder);
    expect(transactions).toEqual(
      logs.map((log) =>
        expect.objectContaining({ type: 'token_received', amount: '2', log_index: log.logIndex }),
      ),
    );
    expect(notifications.map((n) => n.title)).toEqual(['DDEX Received', 'DDEX Received']);
  });

  it('records ETH a contract sent (internal) as ETH', async () => {
    const address = randomAddress();
    const user = await userWithWallet(users, 'doc-internal', address);
    await expectRecorded(await deliver({ ...DOC_INTERNAL, address, txId: randomTxId(), chain: CHAIN }), 1);
    expect((await seenBy(user, inLogOrder)).transactions).toEqual([
      expect.objectContaining({ type: 'internal_received', amount: '0.0001', token_symbol: 'ETH' }),
    ]);
  });

  it('answers NFT, multi-token and unknown kinds 200, records nothing and logs why', async () => {
    // In this process, to read its log; the stack's own instance answers the same (below).
    const secret = 'documented-kinds-secret';
    const handler = createProcessPaymentsHandler({ webhookSecret: secret, supabase: service });
    const address = randomAddress();
    const user = await userWithWallet(users, 'doc-ignored', address);
    const bodies = [DOC_NFT, DOC_MULTITOKEN, { ...DOC_NATIVE_RECEIVED, type: 'stablecoin' }].map((body) => ({
      ...body,
      address,
      chain: CHAIN,
    }));
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      for (const body of bodies) {
        const text = JSON.stringify(body);
        const answer = await handler(
          new Request(FUNCTION_URL, {
            method: 'POST',
            headers: { 'x-payload-hash': await signPayload(secret, text) },
            body: text,
          }),
        );
        await expectRecorded(answer, 0);
      }
      expect(warned.mock.calls.map((call) => call.join(' '))).toEqual([
        expect.stringMatching(/not recorded: .*NFT \(ERC-721\)/),
        expect.stringMatching(/not recorded: .*multi-token \(ERC-1155\)/),
        expect.stringMatching(/not recorded: type "stablecoin" .* not one Tatum documents/),
      ]);
    } finally {
      warned.mockRestore();
    }
    for (const body of bodies) await expectRecorded(await deliver(body), 0);
    expect(await seenBy(user, inLogOrder)).toEqual({ transactions: [], notifications: [] });
  });
});

describe('process-payments after a chain reorganisation', () => {
  it('marks a transaction the chain no longer has as dropped and tells the user once', async () => {
    const address = randomAddress();
    const user = await userWithWallet(users, 'doc-reorg-dropped', address);
    // Recorded from its block event; the node has never heard of it, as after a re-org that dropped it.
    const txId = randomTxId();
    const body = { ...DOC_NATIVE_SENT, address, txId, chain: CHAIN };
    await expectRecorded(await deliver(body), 1);

    const reorg = { ...DOC_REORG, address, txId, chain: CHAIN };
    await expectRecorded(await deliver(reorg), 0);
    await expectRecorded(await deliver(reorg), 0);
    const { transactions, notifications } = await seenBy(user, inLogOrder);
    expect(transactions).toEqual([expect.objectContaining({ tx_hash: txId, status: 'dropped' })]);
    expect(notifications.map((n) => n.title).sort()).toEqual(['ETH Received', 'Transaction Dropped']);
  });

  it('corrects the block of a transaction the chain holds elsewhere, telling the user once', async () => {
    // A wallet of nobody's on the chain, so that only these deliveries speak of it.
    const address = randomAddress();
    const user = await userWithWallet(users, 'doc-reorg-moved', address);
    const { transactionHash: hash } = await sendEth(chain, sender, recipient, 1n);
    const blockNumber = await blockOf(hash);
    // Recorded first as Tatum saw it before the re-org: in the block before.
    const before = {
      ...DOC_NATIVE_SENT,
      address,
      amount: '-0.000000000000000001',
      counterAddress: recipient.address.toLowerCase(),
      txId: hash,
      blockNumber: blockNumber - 1,
      chain: CHAIN,
    };
    await expectRecorded(await deliver(before), 1);
    expect((await seenBy(user, inLogOrder)).transactions).toEqual([
      expect.objectContaining({ block_number: blockNumber - 1 }),
    ]);

    // The re-org follower's body names the new block; the function asks the node, which agrees.
    const after = { ...before, blockNumber, reorg: true };
    await expectRecorded(await deliver(after), 0);
    await expectRecorded(await deliver(after), 0);
    const { transactions, notifications } = await seenBy(user, inLogOrder);
    expect(transactions).toEqual([
      expect.objectContaining({ type: 'native_sent', block_number: blockNumber, status: 'confirmed' }),
    ]);
    expect(notifications.filter((n) => n.title === 'Transaction Updated')).toEqual([
      expect.objectContaining({ message: expect.stringContaining(`is in block ${blockNumber}`) }),
    ]);
  });
});
