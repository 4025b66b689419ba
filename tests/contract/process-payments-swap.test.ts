import { randomUUID } from 'node:crypto';
import { FunctionsHttpError, type RealtimePostgresInsertPayload } from '@supabase/supabase-js';
import { erc20Abi, formatUnits, parseEther, parseEventLogs, parseUnits, type Address, type Hex } from 'viem';
import { afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { readerOf, sendDdex } from '../support/stack/chain.ts';
import { approveRouter, buy, sell } from '../support/stack/market.ts';
import { fileUsers, serviceClient, type TestUser } from '../support/stack/users.ts';
import { userWithWallet } from '../support/stack/wallets.ts';
import { DOC_FEE, DOC_NATIVE_SENT, docFungible } from '../support/tatum-documented.ts';
import { subscribed, WAIT_MS } from '../support/realtime.ts';

// A swap on the stack's DDEX/WETH Uniswap V2 market reaches Tatum as a DDEX transfer between the
// wallet and the pair. The user is told of it live, but the history shows the swap once: as the
// `swap` row record-transaction writes, not also as a token_received or token_sent row. The
// gateway's process-payments runs from its Deno entry point with the stack's UNISWAP_V2_ROUTER
// and RPC_URL, as deployed; the deliveries are the bodies the Tatum emulator would post.

type NotificationRow = Database['public']['Tables']['user_notifications']['Row'];

const stack = inject('gateway');
const chain = inject('chain');
const market = chain.uniswap;
const service = serviceClient(stack);
const FUNCTION_URL = `${stack.url}/functions/v1/process-payments`;

/** The signed-in user's wallet: buys, sells and is paid. */
const trader = testAccount('paymentsSwapTrader');
/** Pays the trader DDEX, and buys DDEX for it. */
const payer = testAccount('paymentsSwapPayer');

const publicClient = readerOf(chain);

let approvalHash: Hex;

beforeAll(async () => {
  // The trader lets the router spend its DDEX once, so a sell is one transaction.
  approvalHash = await approveRouter(chain, trader, market.router);
});

// Each test's user takes the trader's wallet over from the previous test's (userWithWallet).
const users = fileUsers(stack, service);
afterEach(() => users.closeChannels());

/**
 * The address event Tatum (and the emulator) posts for the one DDEX transfer of the transaction
 * that touches `wallet`, in its documented body (tests/support/tatum-documented.ts): incoming
 * positive, outgoing negative, the other side as counterAddress, no log named.
 */
async function ddexEvent(hash: Hex, wallet: Address) {
  const receipt = await publicClient.getTransactionReceipt({ hash });
  const own = wallet.toLowerCase();
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).filter(
    (log) =>
      log.address.toLowerCase() === chain.tokenAddress.toLowerCase() &&
      (log.args.from.toLowerCase() === own || log.args.to.toLowerCase() === own),
  );
  expect(transfers).toHaveLength(1);
  const [transfer] = transfers;
  if (!transfer) throw new Error('no DDEX transfer of the wallet');
  const incoming = transfer.args.to.toLowerCase() === own;
  const amount = formatUnits(transfer.args.value, 18);
  return {
    ...docFungible(chain.tokenAddress.toLowerCase()),
    address: own,
    amount: incoming ? amount : `-${amount}`,
    blockNumber: Number(receipt.blockNumber),
    counterAddress: (incoming ? transfer.args.from : transfer.args.to).toLowerCase(),
    txId: hash,
    chain: 'ethereum-sepolia',
  };
}

/** The documented `fee` (or `native`) body of the transaction for the wallet that sent it. */
async function senderEvent(
  hash: Hex,
  wallet: Address,
  type: 'fee' | 'native',
  amount: string,
  counter?: Address,
) {
  const receipt = await publicClient.getTransactionReceipt({ hash });
  return {
    ...(type === 'fee' ? DOC_FEE : DOC_NATIVE_SENT),
    address: wallet.toLowerCase(),
    amount,
    blockNumber: Number(receipt.blockNumber),
    ...(counter ? { counterAddress: counter.toLowerCase() } : {}),
    txId: hash,
    chain: 'ethereum-sepolia',
  };
}

/** A delivery of `event` as Tatum makes it: the body and its signature under `secret`. */
const request = async (event: object, secret = stack.webhookSecret) => {
  const body = JSON.stringify(event);
  return new Request(FUNCTION_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-payload-hash': await signPayload(secret, body),
    },
    body,
  });
};

/** POSTs an event signed with the stack's webhook secret, as Tatum does. */
const deliver = async (event: object): Promise<Response> => fetch(await request(event));

const expectOk = async (response: Response, recorded: number) => {
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ received: true, recorded });
};

/** record-transaction, called as the portal calls it after a swap (the user's session). */
async function recordSwap(user: TestUser, txHash: Hex) {
  const { data, error } = await user.client.functions.invoke('record-transaction', { body: { txHash } });
  if (error instanceof FunctionsHttpError) {
    const answer = error.context as Response;
    return { status: answer.status, body: (await answer.json()) as unknown };
  }
  if (error) throw error;
  return { status: 200, body: data as unknown };
}

async function notificationsOf(userId: string) {
  const { data, error } = await service.from('user_notifications').select('*').eq('user_id', userId);
  expect(error).toBeNull();
  return data ?? [];
}

/** The history rows of a transaction, whoever they belong to. */
async function rowsOf(txHash: Hex) {
  const { data, error } = await service.from('transactions').select('*').ilike('tx_hash', txHash);
  expect(error).toBeNull();
  return data ?? [];
}

/** The types of a transaction's history rows, whoever they belong to, in order. */
async function historyTypes(txHash: Hex) {
  return (await rowsOf(txHash)).map((row) => row.type).sort();
}

/** The history rows of a transaction, whoever they belong to: [type, amount] each. */
async function historyOf(txHash: Hex) {
  // ilike, not eq: the local REST layer does not match a 0x… hash with eq.
  const { data, error } = await service.from('transactions').select('*').ilike('tx_hash', txHash);
  expect(error).toBeNull();
  return (data ?? []).map((row) => [row.type, row.amount]).sort();
}

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;
const tx = (hash: Hex) => `(tx ${hash.slice(0, 10)}…)`;

describe('process-payments and swaps on the DDEX/WETH market', () => {
  it('records a buy made straight on the router as one swap row with both legs, told live once', async () => {
    const user = await userWithWallet(users, 'pp-swap-buy', trader.address);
    const live: RealtimePostgresInsertPayload<NotificationRow>[] = [];
    const channel = user.client
      .channel(`pp-swap-${randomUUID()}`)
      .on<NotificationRow>(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${user.id}` },
        (payload) => live.push(payload),
      );
    await subscribed(channel, WAIT_MS);

    // A script, not the portal: nobody calls record-transaction. The server watches the proven
    // wallet and hears of it too; this delivery and the emulator's meet on one row.
    const hash = await buy(chain, market, trader, parseEther('0.02'));
    const event = await ddexEvent(hash, trader.address);
    expect(event.counterAddress).toBe(market.pair.toLowerCase());
    expect((await deliver(event)).status).toBe(200);

    const notification = {
      user_id: user.id,
      title: 'DDEX Bought',
      message: `You bought ${event.amount} DDEX for 0.02 ETH ${tx(hash)}.`,
    };
    await vi.waitFor(
      () => expect(live.map((payload) => payload.new)).toContainEqual(expect.objectContaining(notification)),
      { timeout: WAIT_MS, interval: 20 },
    );
    expect(await historyOf(hash)).toContainEqual(['swap', event.amount]);
    expect((await rowsOf(hash)).find((row) => row.type === 'swap')).toMatchObject({
      counter_amount: '-0.02',
      counter_symbol: 'ETH',
      status: 'confirmed',
    });

    // Tatum redelivers until it sees a 2xx, and the ETH the wallet paid and its fee arrive as
    // events of their own: still one swap row, told once, and the fee as a row of its own.
    await expectOk(await deliver(event), 0);
    expect(
      (await deliver(await senderEvent(hash, trader.address, 'native', '-0.02', market.router))).status,
    ).toBe(200);
    expect((await deliver(await senderEvent(hash, trader.address, 'fee', '-0.0001'))).status).toBe(200);
    expect(await historyTypes(hash)).toEqual(['fee', 'swap']);
    expect((await notificationsOf(user.id)).filter((row) => row.title === 'DDEX Bought')).toHaveLength(1);

    // A portal that records the swap after the server did meets the same row.
    expect(await recordSwap(user, hash)).toMatchObject({ status: 200, body: { recorded: false } });
    expect(await historyTypes(hash)).toEqual(['fee', 'swap']);
  });

  it('tells of a sell the portal records once, and writes no token_sent row', async () => {
    const user = await userWithWallet(users, 'pp-swap-sell', trader.address);
    const hash = await sell(chain, market, trader, parseUnits('25', 18));
    const event = await ddexEvent(hash, trader.address);
    expect([event.amount, event.counterAddress]).toEqual(['-25', market.pair.toLowerCase()]);

    // The portal records its swap right after the receipt; the server's watch may be first.
    expect(await recordSwap(user, hash)).toMatchObject({ status: 200 });
    expect((await deliver(event)).status).toBe(200);
    await expectOk(await deliver(event), 0);

    const row = (await rowsOf(hash)).find((saved) => saved.type === 'swap');
    expect(Number(row?.counter_amount)).toBeGreaterThan(0);
    await vi.waitFor(
      async () =>
        expect((await notificationsOf(user.id)).filter((n) => n.title === 'DDEX Sold')).toEqual([
          expect.objectContaining({
            message: `You sold 25 DDEX for ${row?.counter_amount} ETH ${tx(hash)}.`,
          }),
        ]),
      { timeout: WAIT_MS, interval: 20 },
    );
    expect(await historyOf(hash)).toContainEqual(['swap', '-25']);
    expect((await historyTypes(hash)).filter((type) => type !== 'fee')).toEqual(['swap']);
  });
});

describe('process-payments records what the wallet sent, whichever app sent it', () => {
  it('records the approval the wallet gave the router from its fee event, saying it is unlimited', async () => {
    const user = await userWithWallet(users, 'pp-approval', trader.address);
    for (let round = 0; round < 2; round += 1) {
      expect((await deliver(await senderEvent(approvalHash, trader.address, 'fee', '-0.00005'))).status).toBe(
        200,
      );
    }

    // This user's rows: the stack's own watch may have told an earlier owner of the wallet of the
    // approval too, when its watcher reached the approval's block only after that owner's link.
    const rows = (await rowsOf(approvalHash)).filter((row) => row.user_id === user.id);
    expect(rows.map((row) => row.type).sort()).toEqual(['approval', 'fee']);
    expect(rows.find((row) => row.type === 'approval')).toMatchObject({
      token_symbol: 'DDEX',
      counterparty: market.router.toLowerCase(),
      unlimited: true,
      user_id: user.id,
    });
    expect((await notificationsOf(user.id)).filter((n) => n.title === 'DDEX Approval')).toEqual([
      expect.objectContaining({
        message: `You allowed ${short(market.router.toLowerCase())} to spend unlimited DDEX ${tx(approvalHash)}.`,
      }),
    ]);
  });
});

describe('process-payments still records DDEX transfers that are not the wallet’s swaps', () => {
  it('records a plain DDEX payment to the wallet as token_received, with its notification', async () => {
    const user = await userWithWallet(users, 'pp-swap-paid', trader.address);
    const hash = await sendDdex(chain, payer, trader, parseUnits('3', 18));
    expect((await deliver(await ddexEvent(hash, trader.address))).status).toBe(200);

    expect(await historyOf(hash)).toEqual([['token_received', '3']]);
    expect(await notificationsOf(user.id)).toContainEqual(
      expect.objectContaining({
        title: 'DDEX Received',
        message: `You received 3 DDEX from ${short(payer.address.toLowerCase())} ${tx(hash)}.`,
      }),
    );
  });

  it('records DDEX another wallet bought for this one as token_received: no swap row will hold it', async () => {
    const user = await userWithWallet(users, 'pp-swap-gift', trader.address);
    const hash = await buy(chain, market, payer, parseEther('0.01'), { to: trader.address });
    const event = await ddexEvent(hash, trader.address);
    expect(event.counterAddress).toBe(market.pair.toLowerCase());
    expect((await deliver(event)).status).toBe(200);

    // record-transaction refuses a swap the wallet did not make, so this row is the only record.
    expect(await recordSwap(user, hash)).toMatchObject({ status: 422 });
    expect(await historyOf(hash)).toEqual([['token_received', event.amount]]);
    expect(
      (await notificationsOf(user.id))
        .filter((n) => n.message.includes(hash.slice(0, 10)))
        .map((n) => n.title),
    ).toEqual(['DDEX Received']);
  });
});
