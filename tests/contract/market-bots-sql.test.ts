import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, signedInUser, type TestUser } from '../support/stack/users.ts';
import { arrived, subscribed } from '../support/realtime.ts';

// evaluate_market_swap (migration 20261201000001) on the local stack, where PGlite runs it: the
// market-bots function's call, made here through the service role's rpc with synthetic swaps,
// fires a bot once, and its owner reads the run and the notification through their own client.
// tests/postgres/market-bots.test.ts holds the rules on a real PostgreSQL.
//
// Every bot on the stack meets every swap, so this file keeps to prices no other file's bots
// watch (thousands of ETH per DDEX) and steps too small for any move bot (under 0.1 %), on a
// market of its own.

const stack = inject('gateway');
const service = serviceClient(stack);

const PAIR = `0x${randomBytes(20).toString('hex')}`;
const LEVEL = 7777.05;

let blockNumber = 500;
/** A swap through LEVEL, mined a minute from now (after any bot of this file was armed). */
const crossing = () => ({
  p_pair: PAIR,
  p_tx_hash: `0x${randomBytes(32).toString('hex')}`,
  p_log_index: 2,
  p_block_number: blockNumber++,
  p_block_time: new Date(Date.now() + 60_000).toISOString(),
  // Decimal strings, as the function passes the exact prices it computed.
  p_price_before: '7777.04',
  p_price_after: '7777.06',
  p_ddex_amount: '0.000000000001',
  p_side: 'buy',
  p_price_before_text: '7777.04',
  p_price_after_text: '7777.06',
  p_amount_text: '0.000000000001',
});

let owner: TestUser;
let botId: string;

beforeAll(async () => {
  owner = await signedInUser(stack, 'bots-sql');
  const { data, error } = await owner.client
    .from('bots')
    .insert({ name: 'Lite breakout', kind: 'price_above', level: LEVEL })
    .select()
    .single();
  if (error) throw new Error(`creating the bot failed: ${error.message}`);
  botId = data.id;
});

const runsSeenBy = (user: TestUser) => user.client.from('bot_runs').select('*').eq('bot_id', botId);

describe('evaluate_market_swap on the local stack', () => {
  it('fires a crossing once; its owner reads the run and the notification, and hears of the run live', async () => {
    const heard: Record<string, unknown>[] = [];
    const channel = await subscribed(
      owner.client
        .channel(`bot-runs-${owner.id}`)
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'bot_runs', filter: `user_id=eq.${owner.id}` },
          (change) => heard.push(change.new),
        ),
    );
    const swap = crossing();
    // One batch, and none left after it; a repeat fires nothing.
    expect(await service.rpc('evaluate_market_swap', swap)).toMatchObject({
      error: null,
      data: [{ fired: 1, next_bot: null }],
    });
    expect(await service.rpc('evaluate_market_swap', swap)).toMatchObject({
      error: null,
      data: [{ fired: 0, next_bot: null }],
    });

    const runs = await runsSeenBy(owner);
    expect(runs.error).toBeNull();
    expect(runs.data).toHaveLength(1);
    const [run] = runs.data ?? [];
    expect(run).toMatchObject({ user_id: owner.id, tx_hash: swap.p_tx_hash, log_index: 2, side: 'buy' });
    expect(Number(run?.price_after)).toBe(7777.06);
    const notices = await owner.client.from('user_notifications').select('id, title, message');
    expect(notices.data).toEqual([
      {
        id: run?.notification_id,
        title: `DDEX above ${LEVEL} ETH`,
        message: `Lite breakout: 7777.04 → 7777.06 ETH per DDEX (tx ${swap.p_tx_hash.slice(0, 10)}…).`,
      },
    ]);
    const bot = await owner.client.from('bots').select('last_fired_at').eq('id', botId).single();
    expect(Date.parse(bot.data?.last_fired_at ?? '')).toBe(Date.parse(swap.p_block_time));

    const live = await arrived(() => heard[0], 'the run over Realtime');
    expect(live).toMatchObject({ id: run?.id, bot_id: botId });
    await owner.client.removeChannel(channel);

    const other = await signedInUser(stack, 'bots-sql-other');
    expect((await runsSeenBy(other)).data).toEqual([]);
  });

  it('refuses a client, signed in or not, and records nothing for it', async () => {
    const swap = crossing();
    for (const client of [owner.client, anonClient(stack)]) {
      const refused = await client.rpc('evaluate_market_swap', swap);
      expect(refused.error).not.toBeNull();
    }
    // Not .eq: on the local stack an eq filter on a 0x… hash finds no row (policy-matrix.ts).
    const runs = await service.from('bot_runs').select('id').ilike('tx_hash', swap.p_tx_hash);
    expect(runs.data).toEqual([]);
    const prices = await service.from('market_prices').select('tx_hash').ilike('tx_hash', swap.p_tx_hash);
    expect(prices.data).toEqual([]);
  });
});

describe('the bots’ limits on the local stack', () => {
  it('refuses a large-swap rule below the floor, with the words the portal shows', async () => {
    const refused = await owner.client
      .from('bots')
      .insert({ name: 'Minnow', kind: 'large_swap', min_ddex: 999 })
      .select()
      .single();
    // lite answers with its own code and the server's words after 'error: '; hosted PostgREST
    // with the SQLSTATE (tests/postgres/market-bots.test.ts).
    expect(refused.error?.message).toMatch(/A large-swap bot needs a swap size of at least 1000 DDEX$/);
    const bots = await owner.client.from('bots').select('name');
    expect(bots.data).toEqual([{ name: 'Lite breakout' }]);
  });

  it('keeps them to the service role: a client, signed in or not, neither reads nor changes them', async () => {
    for (const client of [owner.client, anonClient(stack)]) {
      const read = await client.from('bot_settings').select('*');
      expect(read.data ?? []).toEqual([]);
      await client.from('bot_settings').update({ max_active_bots: 1 }).eq('id', true);
    }
    const settings = await service.from('bot_settings').select('max_active_bots, large_swap_min_ddex');
    expect(settings.error).toBeNull();
    expect(settings.data).toEqual([{ max_active_bots: 10_000, large_swap_min_ddex: 1000 }]);
  });
});
