import { describe, expect, it } from 'vitest';
import { tokenCopy } from '../../../src/copy/index.ts';
import { dexCopy } from '../../../src/copy/dex.ts';
import type { MarketHistory, PoolState, PricePoint, Trade } from '../../../src/domain/dex.ts';
import {
  marketMachine,
  type MarketEvent,
  type MarketLoad,
} from '../../../src/machines/trading/market.machine.ts';
import { DexServiceError } from '../../../src/services/dex/types.ts';
import { lastCall, settle } from '../../support/deferred-actor.ts';
import { machineHarness } from '../../support/machines/harness.ts';

// The market card: loaded once, then followed block by block through the watch, as the trading
// machine runs it (its parent, the harness's root, records what it is told; the retries run on its
// simulated clock).

const E18 = 10n ** 18n;
const ROUTER = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const market = {
  router: ROUTER,
  factory: ROUTER,
  weth: ROUTER,
  pair: ROUTER,
  token: ROUTER,
  feeBps: 30,
} as const;
const pool = (blockNumber: bigint, reserveEth = 10n * E18): PoolState => ({
  reserveEth,
  reserveToken: 20_000n * E18,
  blockNumber,
});
const trade = (n: number, blockNumber = BigInt(n)): Trade => ({
  id: `0x${n.toString(16).padStart(64, '0')}:0`,
  hash: `0x${n.toString(16).padStart(64, '0')}`,
  blockNumber,
  timestamp: 1_700_000_000 + n,
  side: n % 2 === 0 ? 'buy' : 'sell',
  amountIn: E18,
  amountOut: 2000n * E18,
  price: 0.0005,
});
const point = (blockNumber: number, price = 0.0005): PricePoint => ({
  timestamp: 1_700_000_000 + blockNumber,
  blockNumber: BigInt(blockNumber),
  price,
});
const loaded = (history: MarketHistory = { trades: [], prices: [] }): MarketLoad => ({
  market,
  pool: pool(5n),
  history,
});

function start() {
  const h = machineHarness(marketMachine, { callbacks: ['watchMarket'] });
  /** The running watch's stand-in: it sends what the DEX service's watch would. */
  const watch = h.callback('watchMarket');
  return {
    actor: h.actor,
    clock: h.clock,
    /** What the market told its parent (the trading machine): here the harness's root hears it. */
    told: h.facts,
    loads: h.calls<MarketLoad>('loadMarket'),
    watch,
    state: () => h.snapshot().value,
    context: () => h.snapshot().context,
    emit: (event: MarketEvent) => watch.emit(event),
  };
}

async function live(history?: MarketHistory) {
  const h = start();
  lastCall(h.loads, 'loadMarket').resolve(loaded(history));
  await settle();
  return h;
}

describe('market machine', () => {
  it('loads the pair, its reserves, the trades newest first and the chart, then follows the chain', async () => {
    const h = start();
    expect(h.state()).toBe('loading');
    expect(h.watch.started).toBe(0);
    lastCall(h.loads).resolve(loaded({ trades: [trade(1), trade(2)], prices: [point(1), point(2)] }));
    await settle();
    expect(h.state()).toEqual({ live: 'following' });
    expect(h.context()).toMatchObject({
      market,
      pool: pool(5n),
      blockNumber: 5n,
      problem: null,
      trades: [trade(2), trade(1)],
      prices: [point(1), point(2)],
    });
    expect(h.watch.started).toBe(1);
  });

  it('keeps the newest 20 trades and the newest 500 price points', async () => {
    const many = Array.from({ length: 30 }, (_, index) => trade(index + 1));
    const points = Array.from({ length: 520 }, (_, index) => point(index + 1));
    const h = await live({ trades: many, prices: points });
    expect(h.context().trades.map((t) => t.blockNumber)).toEqual(
      Array.from({ length: 20 }, (_, index) => BigInt(30 - index)),
    );
    expect(h.context().prices).toHaveLength(500);
    expect(h.context().prices[0]?.blockNumber).toBe(21n);
  });

  it('tells its parent each new block, so the swap form re-quotes', async () => {
    const h = await live();
    h.emit({ type: 'market.block', blockNumber: 6n });
    h.emit({ type: 'market.block', blockNumber: 7n });
    await settle();
    expect(h.told).toEqual([
      { type: 'market.block', blockNumber: 6n },
      { type: 'market.block', blockNumber: 7n },
    ]);
    expect(h.context().blockNumber).toBe(7n);
  });

  it("adds a block's trades ahead of those shown and its price points to the chart, once", async () => {
    const h = await live({ trades: [trade(1)], prices: [point(1), point(2)] });
    h.emit({
      type: 'market.activity',
      history: { trades: [trade(3), trade(4)], prices: [point(4, 0.0006)] },
      pool: pool(4n, 11n * E18),
    });
    await settle();
    expect(h.context().trades).toEqual([trade(4), trade(3), trade(1)]);
    expect(h.context().prices).toEqual([point(1), point(2), point(4, 0.0006)]);
    expect(h.context().pool).toEqual(pool(4n, 11n * E18));
    // The watch replays the block after a reconnection: nothing is shown twice.
    h.emit({
      type: 'market.activity',
      history: { trades: [trade(4)], prices: [point(4, 0.0006)] },
      pool: pool(4n, 11n * E18),
    });
    await settle();
    expect(h.context().trades).toEqual([trade(4), trade(3), trade(1)]);
    expect(h.context().prices).toEqual([point(1), point(2), point(4, 0.0006)]);
  });

  it('shows the connection lost until the next block, which it tells its parent', async () => {
    const h = await live();
    h.emit({ type: 'market.lost' });
    await settle();
    expect(h.state()).toEqual({ live: 'lost' });
    expect(h.context().pool).toEqual(pool(5n));
    h.emit({ type: 'market.block', blockNumber: 9n });
    await settle();
    expect(h.state()).toEqual({ live: 'following' });
    expect(h.told).toEqual([{ type: 'market.block', blockNumber: 9n }]);
    // The same watch goes on: it was not restarted.
    expect(h.watch.started).toBe(1);
  });

  it('tries a failed load again after 1, 2, 5, then every 10 s, with the words of the failure', async () => {
    const h = start();
    lastCall(h.loads).reject(new DexServiceError({ code: 'rpc-unavailable' }));
    await settle();
    expect(h.state()).toBe('failed');
    expect(h.context().problem).toBe(tokenCopy.rpcUnavailable);
    for (const wait of [1000, 2000, 5000, 10_000, 10_000]) {
      const before = h.loads.length;
      h.clock.increment(wait - 1);
      expect(h.loads).toHaveLength(before);
      h.clock.increment(1);
      expect(h.state()).toBe('loading');
      expect(h.loads).toHaveLength(before + 1);
      lastCall(h.loads).reject(new Error('Failed to fetch'));
      await settle();
      expect(h.context().problem).toBe('Failed to fetch');
    }
    h.clock.increment(10_000);
    lastCall(h.loads).resolve(loaded());
    await settle();
    expect(h.state()).toEqual({ live: 'following' });
    expect(h.context()).toMatchObject({ problem: null, failures: 0 });
  });

  it("loads again at once on 'Try Again'", async () => {
    const h = start();
    lastCall(h.loads).reject(new Error('boom'));
    await settle();
    h.actor.send({ type: 'market.retry' });
    expect(h.state()).toBe('loading');
    expect(h.loads).toHaveLength(2);
    // The wait is over: the timer of the failed state is gone.
    h.clock.increment(1000);
    expect(h.loads).toHaveLength(2);
  });

  it('is unavailable, for good, without a pair or a router', async () => {
    for (const [code, words] of [
      ['no-pair', dexCopy.noPair],
      ['no-router', dexCopy.noRouter],
    ] as const) {
      const h = start();
      lastCall(h.loads).reject(new DexServiceError({ code }));
      await settle();
      expect(h.state()).toBe('unavailable');
      expect(h.actor.getSnapshot().status).toBe('done');
      expect(h.context().problem).toBe(words);
      h.clock.increment(60_000);
      expect(h.loads).toHaveLength(1);
    }
  });
});
