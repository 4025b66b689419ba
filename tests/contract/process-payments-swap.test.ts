import { randomUUID } from 'node:crypto';
import { FunctionsHttpError, type RealtimePostgresInsertPayload } from '@supabase/supabase-js';
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  formatUnits,
  http,
  maxUint256,
  parseEther,
  parseEventLogs,
  parseUnits,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import { routerAbi } from '../../src/services/dex/abi.ts';
import type { ChainAccount } from '../../stack/chain/index.ts';
import { createProcessPaymentsHandler } from '../../supabase/functions/process-payments/handler.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { testAccount } from '../support/accounts.ts';
import { serviceClient, signedInUser, type Client, type TestUser } from '../support/clients.ts';
import { subscribed, WAIT_MS } from '../support/realtime.ts';
import { releaseWalletAsServer, setWalletAsServer } from '../support/wallet-proof.ts';

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

const publicClient = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
const walletOf = (who: ChainAccount) =>
  createWalletClient({
    account: privateKeyToAccount(who.privateKey),
    transport: http(chain.rpcUrl, { retryCount: 0 }),
  });

async function mined(hash: Hex): Promise<Hex> {
  expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
  return hash;
}

const deadline = async () => (await publicClient.getBlock()).timestamp + 1200n;

beforeAll(async () => {
  // The trader lets the router spend its DDEX once, so a sell is one transaction.
  await mined(
    await walletOf(trader).writeContract({
      address: chain.tokenAddress,
      abi: erc20Abi,
      functionName: 'approve',
      args: [market.router, maxUint256],
      chain: null,
    }),
  );
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
});

/** A signed-in user whose proven wallet is the trader's (taken over from the previous test's user). */
async function traderUser(label: string): Promise<TestUser> {
  const user = await signedInUser(stack, label);
  clients.push(user.client);
  const { error } = await user.client.from('profiles').upsert({ id: user.id, email: user.email });
  if (error) throw new Error(`profile upsert failed: ${error.message}`);
  await releaseWalletAsServer(service, trader.address);
  await setWalletAsServer(service, user.id, trader.address, true);
  return user;
}

async function buy(from: ChainAccount, eth: bigint, to: Address = from.address): Promise<Hex> {
  return mined(
    await walletOf(from).writeContract({
      address: market.router,
      abi: routerAbi,
      functionName: 'swapExactETHForTokens',
      args: [0n, [market.weth, chain.tokenAddress], to, await deadline()],
      value: eth,
      chain: null,
    }),
  );
}

async function sell(from: ChainAccount, ddex: bigint): Promise<Hex> {
  return mined(
    await walletOf(from).writeContract({
      address: market.router,
      abi: routerAbi,
      functionName: 'swapExactTokensForETH',
      args: [ddex, 0n, [chain.tokenAddress, market.weth], from.address, await deadline()],
      chain: null,
    }),
  );
}

/**
 * The address event Tatum (and the emulator) posts for the one DDEX transfer of the transaction
 * that touches `wallet`: incoming positive, outgoing negative, the other side as counterAddress.
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
    address: own,
    amount: incoming ? amount : `-${amount}`,
    asset: chain.tokenAddress.toLowerCase(),
    blockNumber: Number(receipt.blockNumber),
    counterAddress: (incoming ? transfer.args.from : transfer.args.to).toLowerCase(),
    txId: hash,
    logIndex: transfer.logIndex,
    type: 'token',
    chain: 'ethereum-sepolia',
    subscriptionType: 'ADDRESS_EVENT',
    mempool: false,
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

/** The same function without UNISWAP_V2_ROUTER, in this process. */
const NO_MARKET_SECRET = 'no-market-secret';
const withoutMarket = createProcessPaymentsHandler({
  webhookSecret: NO_MARKET_SECRET,
  supabase: service,
  tokenAddress: chain.tokenAddress,
  rpcUrl: chain.rpcUrl,
});

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
  it('notifies a buy’s DDEX from the pair live and leaves the history to the swap row', async () => {
    const user = await traderUser('pp-swap-buy');
    const live: RealtimePostgresInsertPayload<NotificationRow>[] = [];
    const channel = user.client
      .channel(`pp-swap-${randomUUID()}`)
      .on<NotificationRow>(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${user.id}` },
        (payload) => live.push(payload),
      );
    await subscribed(channel, WAIT_MS);

    const hash = await buy(trader, parseEther('0.02'));
    const event = await ddexEvent(hash, trader.address);
    expect(event.counterAddress).toBe(market.pair.toLowerCase());
    await expectOk(await deliver(event), 1);

    const notification = {
      user_id: user.id,
      title: 'DDEX Received',
      message: `You received ${event.amount} DDEX from ${short(market.pair.toLowerCase())} ${tx(hash)}.`,
    };
    await vi.waitFor(() => expect(live).toHaveLength(1), { timeout: WAIT_MS, interval: 20 });
    expect(live[0]?.new).toMatchObject({ ...notification, is_read: false });
    expect(await notificationsOf(user.id)).toEqual([expect.objectContaining(notification)]);
    expect(await historyOf(hash)).toEqual([]);

    // Tatum redelivers until it sees a 2xx: still one notification.
    await expectOk(await deliver(event), 0);
    expect(await notificationsOf(user.id)).toHaveLength(1);

    // The portal records the swap: the history holds it once, as the swap.
    expect(await recordSwap(user, hash)).toMatchObject({ status: 200, body: { recorded: true } });
    expect(await historyOf(hash)).toEqual([['swap', event.amount]]);
  });

  it('notifies a sell’s DDEX into the pair, recorded as a swap first, and writes no token_sent row', async () => {
    const user = await traderUser('pp-swap-sell');
    const hash = await sell(trader, parseUnits('25', 18));
    const event = await ddexEvent(hash, trader.address);
    expect([event.amount, event.counterAddress]).toEqual(['-25', market.pair.toLowerCase()]);

    expect(await recordSwap(user, hash)).toMatchObject({ status: 200, body: { recorded: true } });
    // The swap row is there already; the user is still told of the DDEX that went out.
    await expectOk(await deliver(event), 1);
    await expectOk(await deliver(event), 0);

    expect(await notificationsOf(user.id)).toEqual([
      expect.objectContaining({
        title: 'DDEX Sent',
        message: `You sent 25 DDEX to ${short(market.pair.toLowerCase())} ${tx(hash)}.`,
      }),
    ]);
    expect(await historyOf(hash)).toEqual([['swap', '-25']]);
  });
});

describe('process-payments still records DDEX transfers that are not the wallet’s swaps', () => {
  it('records a plain DDEX payment to the wallet as token_received, with its notification', async () => {
    const user = await traderUser('pp-swap-paid');
    const hash = await mined(
      await walletOf(payer).writeContract({
        address: chain.tokenAddress,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [trader.address, parseUnits('3', 18)],
        chain: null,
      }),
    );
    await expectOk(await deliver(await ddexEvent(hash, trader.address)), 1);

    expect(await historyOf(hash)).toEqual([['token_received', '3']]);
    expect(await notificationsOf(user.id)).toEqual([
      expect.objectContaining({
        title: 'DDEX Received',
        message: `You received 3 DDEX from ${short(payer.address.toLowerCase())} ${tx(hash)}.`,
      }),
    ]);
  });

  it('records DDEX another wallet bought for this one as token_received: no swap row will hold it', async () => {
    const user = await traderUser('pp-swap-gift');
    const hash = await buy(payer, parseEther('0.01'), trader.address);
    const event = await ddexEvent(hash, trader.address);
    expect(event.counterAddress).toBe(market.pair.toLowerCase());
    await expectOk(await deliver(event), 1);

    // record-transaction refuses a swap the wallet did not make, so this row is the only record.
    expect(await recordSwap(user, hash)).toMatchObject({ status: 422 });
    expect(await historyOf(hash)).toEqual([['token_received', event.amount]]);
    expect(await notificationsOf(user.id)).toEqual([expect.objectContaining({ title: 'DDEX Received' })]);
  });

  it('records a swap’s DDEX as a transfer, as before, when no market is configured', async () => {
    const user = await traderUser('pp-swap-no-market');
    const hash = await buy(trader, parseEther('0.01'));
    const event = await ddexEvent(hash, trader.address);
    await expectOk(await withoutMarket(await request(event, NO_MARKET_SECRET)), 1);

    expect(await historyOf(hash)).toEqual([['token_received', event.amount]]);
    expect(await notificationsOf(user.id)).toEqual([expect.objectContaining({ title: 'DDEX Received' })]);
  });
});
