import { randomUUID } from 'node:crypto';
import type { RealtimePostgresInsertPayload } from '@supabase/supabase-js';
import { erc20Abi, formatUnits, http, parseEther, parseEventLogs, parseUnits, type Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import { deployUniswap } from '../../stack/chain/uniswap.ts';
import { startDenoFunction, type DenoFunction } from '../../stack/functions/deno.ts';
import { SWAP_TOPIC } from '../../supabase/functions/_shared/swap-log.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { subscribed, WAIT_MS } from '../support/realtime.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { readerOf } from '../support/stack/chain.ts';
import { approveRouter, buy, priceAt, sell, type Market } from '../support/stack/market.ts';
import { sellAndBuyBack } from '../support/stack/sell-and-buy-back.ts';
import { fileUsers, serviceClient, type TestUser } from '../support/stack/users.ts';

// market-bots and the bots its owners create: a swap on a Uniswap V2 market of this file's own
// (the canonical contracts' published artifacts, priced 50 times the stack's pool, so no other
// file's swap crosses these levels) is delivered as Tatum delivers it, both of the pair's token
// transfers, signed; the function, from its real Deno entry point, reads the receipt and fires
// each bot the swap crosses, once.

type NotificationRow = Database['public']['Tables']['user_notifications']['Row'];

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);
const SECRET = 'market-bots-contract-secret';

/** Deploys the market and provides its liquidity. */
const provider = testAccount('botsProvider');
/** Buys and sells on it. */
const trader = testAccount('botsTrader');

const publicClient = readerOf(chain);

let market: Market;
let marketBots: DenoFunction;

beforeAll(async () => {
  // 10 ETH for 1,000 DDEX: 0.01 ETH per DDEX, where the stack's pool is at 0.0002.
  market = await deployUniswap(http(chain.rpcUrl), provider.address, chain.tokenAddress, {
    eth: parseEther('10'),
    ddex: parseUnits('1000', 18),
  });
  const { router } = market;
  await approveRouter(chain, trader, router);
  marketBots = await startDenoFunction('market-bots', {
    SUPABASE_URL: stack.url,
    SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
    TATUM_WEBHOOK_SECRET: SECRET,
    TATUM_CHAIN: 'ethereum-sepolia',
    RPC_URL: chain.rpcUrl,
    UNISWAP_V2_ROUTER: router,
    DDEX_TOKEN_ADDRESS: chain.tokenAddress,
  });
});

afterAll(async () => {
  await marketBots?.stop();
});

const users = fileUsers(stack, service);
afterEach(() => users.closeChannels());

/**
 * The address events the pair's subscription gets for a transaction, as the emulator builds them:
 * one per token transfer to or from the pair, incoming positive, the other side as counterAddress;
 * and the pair's Swap logs, in order.
 */
async function pairEvents(hash: Hex) {
  const receipt = await publicClient.getTransactionReceipt({ hash });
  const pair = market.pair.toLowerCase();
  const swaps = receipt.logs.filter(
    (log) => log.topics[0] === SWAP_TOPIC && log.address.toLowerCase() === pair,
  );
  const [swap] = swaps;
  if (!swap) throw new Error('no Swap log of the pair');
  const events = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
    .filter((log) => log.args.from.toLowerCase() === pair || log.args.to.toLowerCase() === pair)
    .map((log) => {
      const incoming = log.args.to.toLowerCase() === pair;
      const amount = formatUnits(log.args.value, 18);
      return {
        address: pair,
        amount: incoming ? amount : `-${amount}`,
        asset: log.address.toLowerCase(),
        blockNumber: Number(receipt.blockNumber),
        counterAddress: (incoming ? log.args.from : log.args.to).toLowerCase(),
        txId: hash,
        type: 'fungible',
        chain: 'ethereum-sepolia',
        subscriptionType: 'ADDRESS_EVENT',
      };
    });
  // Each swap moves one of each token through the pair.
  expect(events.map((event) => event.asset).sort()).toEqual(
    swaps.flatMap(() => [market.weth.toLowerCase(), chain.tokenAddress.toLowerCase()]).sort(),
  );
  return {
    events,
    swapLogIndex: swap.logIndex,
    lastSwapLogIndex: swaps.at(-1)?.logIndex,
    swaps: swaps.length,
    blockNumber: receipt.blockNumber,
  };
}

/** A delivery as Tatum makes it: the body, signed under `secret` (null: unsigned). */
async function deliver(body: string | object, secret: string | null = SECRET): Promise<Response> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return fetch(marketBots.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(secret === null ? {} : { 'x-payload-hash': await signPayload(secret, text) }),
    },
    body: text,
  });
}

async function answerOf(response: Response) {
  expect(response.status).toBe(200);
  return (await response.json()) as { received: boolean; swaps: number; fired: number };
}

async function notificationsOf(userId: string) {
  const { data, error } = await service.from('user_notifications').select('*').eq('user_id', userId);
  expect(error).toBeNull();
  return data ?? [];
}

/** A price bot of `owner`, created through the owner's own session, as the portal creates it. */
async function priceAbove(owner: TestUser, name: string, level: number) {
  const { data, error } = await owner.client
    .from('bots')
    .insert({ name, kind: 'price_above', level })
    .select()
    .single();
  if (error) throw new Error(`creating the bot failed: ${error.message}`);
  return data;
}

/** A level 0.4 % above the price now, to six significant digits, as a user would type it. */
const levelAboveNow = async () => Number(((await priceAt(chain, market)) * 1.004).toPrecision(6));

describe('market-bots fires the bots a swap crosses, once', () => {
  it('fires a crossed bot once for both legs and repeats, tells its owner live, and no paused bot', async () => {
    const alice = await users.signIn('bots-alice');
    const bob = await users.signIn('bots-bob');
    const level = await levelAboveNow();
    const bot = await priceAbove(alice, 'Breakout', level);
    const paused = await priceAbove(bob, 'Asleep', level);
    const pausing = await bob.client.from('bots').update({ status: 'paused' }).eq('id', paused.id);
    expect(pausing.error).toBeNull();

    const live: RealtimePostgresInsertPayload<NotificationRow>[] = [];
    const channel = alice.client
      .channel(`bots-${randomUUID()}`)
      .on<NotificationRow>(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${alice.id}` },
        (payload) => live.push(payload),
      );
    await subscribed(channel, WAIT_MS);

    // 0.05 ETH moves this pool about 1 %: past the level.
    const hash = await buy(chain, market, trader, parseEther('0.05'));
    const { events, swapLogIndex, blockNumber } = await pairEvents(hash);
    const [before, after] = [
      await priceAt(chain, market, blockNumber - 1n),
      await priceAt(chain, market, blockNumber),
    ];
    expect(before < level && level <= after).toBe(true);

    // Both legs at once, as hosted Tatum may deliver them: one swap, one firing between them.
    const answers = await Promise.all(events.map(async (event) => answerOf(await deliver(event))));
    expect(answers.map((answer) => answer.swaps)).toEqual([1, 1]);
    expect(answers.reduce((sum, answer) => sum + answer.fired, 0)).toBe(1);
    // A repeat of a leg, also under Tatum's v3 type name, adds nothing.
    const [first] = events;
    if (!first) throw new Error('no event');
    for (const body of [first, { ...first, type: 'token' }]) {
      expect(await answerOf(await deliver(body))).toEqual({ received: true, swaps: 1, fired: 0 });
    }

    const title = `DDEX above ${level} ETH`;
    await vi.waitFor(() => expect(live).toHaveLength(1), { timeout: WAIT_MS, interval: 20 });
    expect(live[0]?.new).toMatchObject({ user_id: alice.id, title, is_read: false });
    const message = live[0]?.new.message ?? '';
    const shown = new RegExp(
      `^Breakout: (\\d+\\.\\d+) → (\\d+\\.\\d+) ETH per DDEX \\(tx ${hash.slice(0, 10)}…\\)\\.$`,
    ).exec(message);
    expect(shown, message).not.toBeNull();
    // The prices shown are the pair's reserves at the blocks before and after, to six digits.
    expect(Number(shown?.[1])).toBeCloseTo(before, 7);
    expect(Number(shown?.[2])).toBeCloseTo(after, 7);
    expect(await notificationsOf(alice.id)).toHaveLength(1);
    expect(await notificationsOf(bob.id)).toEqual([]);

    const runs = await alice.client.from('bot_runs').select('*');
    expect(runs.error).toBeNull();
    expect(runs.data).toEqual([
      expect.objectContaining({
        bot_id: bot.id,
        user_id: alice.id,
        tx_hash: hash.toLowerCase(),
        log_index: swapLogIndex,
        block_number: Number(blockNumber),
        side: 'buy',
        notification_id: live[0]?.new.id,
      }),
    ]);
    expect(Number(runs.data?.[0]?.price_before)).toBeCloseTo(before, 12);
    expect(Number(runs.data?.[0]?.price_after)).toBeCloseTo(after, 12);
    const fired = await alice.client.from('bots').select('last_fired_at').eq('id', bot.id).single();
    expect(fired.data?.last_fired_at).not.toBeNull();
    // Bob sees neither Alice's bot nor its run; his paused bot has none.
    expect((await bob.client.from('bot_runs').select('*')).data).toEqual([]);
    expect((await bob.client.from('bots').select('id')).data).toEqual([{ id: paused.id }]);

    // Back under the level and across it again, within the 15-minute cooldown: silent.
    const down = await sell(chain, market, trader, parseUnits('10', 18));
    expect(await priceAt(chain, market)).toBeLessThan(level);
    for (const event of (await pairEvents(down)).events) {
      expect(await answerOf(await deliver(event))).toEqual({ received: true, swaps: 1, fired: 0 });
    }
    const again = await buy(chain, market, trader, parseEther('0.1'));
    expect(await priceAt(chain, market)).toBeGreaterThanOrEqual(level);
    for (const event of (await pairEvents(again)).events) {
      expect(await answerOf(await deliver(event))).toEqual({ received: true, swaps: 1, fired: 0 });
    }
    expect(await notificationsOf(alice.id)).toHaveLength(1);
    expect((await alice.client.from('bot_runs').select('id')).data).toHaveLength(1);
    expect(await notificationsOf(bob.id)).toEqual([]);
  });
});

describe('market-bots weighs a transaction’s price move once, from before its first swap to after its last', () => {
  /** A bot of `owner` on the price, created through the owner's own session. */
  async function priceBot(owner: TestUser, name: string, kind: 'price_above' | 'price_below', level: number) {
    const { data, error } = await owner.client.from('bots').insert({ name, kind, level }).select().single();
    if (error) throw new Error(`creating the bot failed: ${error.message}`);
    return data;
  }
  /** Every leg of the transaction delivered, one after another; the answers. */
  async function deliverAll(hash: Hex) {
    const { events } = await pairEvents(hash);
    const answers = [];
    for (const event of events) answers.push(await answerOf(await deliver(event)));
    return answers;
  }
  const typed = (price: number) => Number(price.toPrecision(6));

  it('fires no price bot on a swap and a swap back in one transaction, and a bot the net move crosses once', async () => {
    const carol = await users.signIn('bots-carol');
    const trades = await sellAndBuyBack(chain, market, trader);

    // 20 DDEX sold into this 1,000-DDEX pool takes the price about 4 % down; buying back with all
    // the WETH brings it back to within the fees. Each swap alone crosses one of these levels.
    const start = await priceAt(chain, market);
    const dip = await priceBot(carol, 'Dip', 'price_below', typed(start * 0.98));
    const rebound = await priceBot(carol, 'Rebound', 'price_above', typed(start * 0.99));
    const roundTrip = await trades.trade(parseUnits('20', 18), 10_000n);
    const trip = await pairEvents(roundTrip);
    expect(trip.swaps).toBe(2);
    const [before, after] = [
      await priceAt(chain, market, trip.blockNumber - 1n),
      await priceAt(chain, market, trip.blockNumber),
    ];
    expect(after).toBeGreaterThan(typed(start * 0.99));
    expect(after).toBeLessThan(before);
    for (const answer of await deliverAll(roundTrip)) {
      expect(answer).toEqual({ received: true, swaps: 2, fired: 0 });
    }
    expect(await notificationsOf(carol.id)).toEqual([]);
    for (const bot of [dip, rebound]) {
      expect((await carol.client.from('bots').delete().eq('id', bot.id)).error).toBeNull();
    }

    // Sold 20 DDEX and bought back with a quarter of the WETH: about 3 % down in all.
    const level = typed((await priceAt(chain, market)) * 0.985);
    const net = await priceBot(carol, 'Net', 'price_below', level);
    const down = await trades.trade(parseUnits('20', 18), 2_500n);
    const move = await pairEvents(down);
    const [from, to] = [
      await priceAt(chain, market, move.blockNumber - 1n),
      await priceAt(chain, market, move.blockNumber),
    ];
    expect(from > level && level >= to).toBe(true);
    const answers = await deliverAll(down);
    expect(answers.reduce((sum, answer) => sum + answer.fired, 0)).toBe(1);

    const notices = await notificationsOf(carol.id);
    expect(notices.map(({ title }) => title)).toEqual([`DDEX below ${level} ETH`]);
    const runs = await carol.client.from('bot_runs').select('*');
    expect(runs.data).toEqual([
      expect.objectContaining({
        bot_id: net.id,
        tx_hash: down.toLowerCase(),
        // Under the transaction's last Swap, priced before its first and after its last.
        log_index: move.lastSwapLogIndex,
        side: 'sell',
        notification_id: notices[0]?.id,
      }),
    ]);
    expect(Number(runs.data?.[0]?.price_before)).toBeCloseTo(from, 12);
    expect(Number(runs.data?.[0]?.price_after)).toBeCloseTo(to, 12);
  });
});

describe('market-bots refuses what is not a signed event of its pair', () => {
  let event: Record<string, unknown>;

  beforeAll(async () => {
    const { events } = await pairEvents(await sell(chain, market, trader, parseUnits('1', 18)));
    const [first] = events;
    if (!first) throw new Error('no event');
    event = first;
  });

  it('answers an unsigned delivery, or one signed with another secret, with 401', async () => {
    for (const secret of [null, 'not-the-webhook-secret']) {
      const response = await deliver(event, secret);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'Invalid signature' });
    }
  });

  it('answers a signed body that is no address event with 400', async () => {
    for (const body of ['{"address":', { ...event, txId: '0x1234' }]) {
      const response = await deliver(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'Malformed body' });
    }
  });

  it('answers a body past 64 KB with 413', async () => {
    const response = await deliver({ ...event, padding: 'x'.repeat(70 * 1024) });
    expect(response.status).toBe(413);
  });

  it('answers an event of another address 200, evaluating nothing', async () => {
    for (const address of [trader.address.toLowerCase(), chain.uniswap.pair.toLowerCase()]) {
      expect(await answerOf(await deliver({ ...event, address }))).toEqual({
        received: true,
        swaps: 0,
        fired: 0,
      });
    }
  });
});
