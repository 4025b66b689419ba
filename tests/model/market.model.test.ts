import { beforeEach, expect } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { tokenCopy } from '../../src/copy/index.ts';
import { dexCopy } from '../../src/copy/dex.ts';
import type { MarketHistory, PoolState, PricePoint, Trade } from '../../src/domain/dex.ts';
import {
  chartSeries,
  marketFigures,
  tradeRows,
  type TradeRow,
} from '../../src/machines/trading/market-figures.ts';
import {
  marketMachine,
  type MarketFact,
  type MarketLoad,
} from '../../src/machines/trading/market.machine.ts';
import { poolFeeText } from '../../src/machines/trading/swap-checks.ts';
import { DexServiceError } from '../../src/services/dex/types.ts';
import { E18, market } from '../support/machines/fixtures.ts';
import { errorOf, withBigIntJson } from '../support/model/recorders.ts';
import { describeModel, type ModelStep } from '../support/model/index.ts';
import { stableJson } from '../support/model/paths.ts';

// The market card's generated paths: loading, following the chain (blocks, activity, a replayed
// block, a lost node), the retries of a failed load and a market that is not there. Each step
// checks what the card shows (reserves, the price both ways, the trade list, the chart, the
// problem's words) and what the trading machine was told.
//
// The market loads at block 500 with more trades than the list shows and a full chart, so that a
// new block pushes the oldest of each out; the amounts have the fractions the card rounds.

type Snapshot = SnapshotFrom<typeof marketMachine>;

const T0 = 1_700_000_000;
/** The block the market loads at, and the next one, whose activity the watch reports. */
const LOADED = 500;
const NEXT = 501;
/** 10 ETH and 20000.123456789 DDEX. */
const loadedPool: PoolState = {
  reserveEth: 10n * E18,
  reserveToken: 20_000_123_456_789n * 10n ** 9n,
  blockNumber: BigInt(LOADED),
};
/** 10.5 ETH and 19047.619047619047619047 DDEX. */
const nextPool: PoolState = {
  reserveEth: 10_500_000_000_000_000_000n,
  reserveToken: 19_047_619_047_619_047_619_047n,
  blockNumber: BigInt(NEXT),
};
/** What the card shows of each pool: 10 / 20000.123456789 = 0.00049999691…, 10.5 / 19047.619… = 0.00055125. */
const poolShown = new Map([
  [
    loadedPool,
    {
      reserveEth: '10 ETH',
      reserveToken: '20000.1234 DDEX',
      ethPerDdex: '0.000499996',
      ddexPerEth: '2000.0123',
    },
  ],
  [
    nextPool,
    {
      reserveEth: '10.5 ETH',
      reserveToken: '19047.619 DDEX',
      ethPerDdex: '0.00055125',
      ddexPerEth: '1814.0589',
    },
  ],
]);

const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as const;
/** Even blocks buy 990.123456 DDEX for 0.5 ETH, odd ones sell 1000 DDEX for 0.000123456789 ETH. */
const trade = (n: number): Trade => ({
  id: `${hashOf(n)}:0`,
  hash: hashOf(n),
  blockNumber: BigInt(n),
  timestamp: T0 + n,
  side: n % 2 === 0 ? 'buy' : 'sell',
  amountIn: n % 2 === 0 ? E18 / 2n : 1000n * E18,
  amountOut: n % 2 === 0 ? 990_123_456n * 10n ** 12n : 123_456_789n * 10n ** 6n,
  price: 0.000505,
});
/** The next block's trade: 1.00001 ETH for 1995.5 DDEX. */
const nextTrade: Trade = {
  ...trade(NEXT),
  side: 'buy',
  amountIn: 1_000_010n * 10n ** 12n,
  amountOut: 19_955n * 10n ** 17n,
  price: 0.0005123456789,
};
const row = (t: Trade, amountIn: string, amountOut: string, price: string): TradeRow => ({
  id: t.id,
  hash: t.hash,
  time: t.timestamp * 1000,
  side: dexCopy.sides[t.side],
  amountIn,
  amountOut,
  price,
});
/** A trade as the list shows it: amounts rounded down, four decimals from 1 up, six significant digits below. */
const rowOf = (t: Trade): TradeRow => {
  if (t === nextTrade) return row(t, '1 ETH', '1995.5 DDEX', '0.000512346');
  return t.side === 'buy'
    ? row(t, '0.5 ETH', '990.1234 DDEX', '0.000505')
    : row(t, '1000 DDEX', '0.000123456 ETH', '0.000505');
};

/** The chart's low is at block 2, its high at block 3, the loaded block's price is 0.000505. */
const priceAt = (n: number): number =>
  n === 2 ? 0.00049 : n === 3 ? 0.00052 : n === LOADED ? 0.000505 : n === NEXT ? 0.0005123456789 : 0.0005;
const point = (n: number): PricePoint => ({ timestamp: T0 + n, blockNumber: BigInt(n), price: priceAt(n) });
const blocks = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

const loaded: MarketLoad = {
  market,
  pool: loadedPool,
  // Oldest first, as the service reads them: two more trades than the list shows, a full chart.
  history: { trades: blocks(LOADED - 21, LOADED).map(trade), prices: blocks(1, LOADED).map(point) },
};
const next: { history: MarketHistory; pool: PoolState } = {
  history: { trades: [nextTrade], prices: [point(NEXT)] },
  pool: nextPool,
};
/** The watch reports the loaded block again (as after a reconnection): nothing new in it. */
const replayed: { history: MarketHistory; pool: PoolState } = {
  history: { trades: [trade(LOADED)], prices: [point(LOADED)] },
  pool: loadedPool,
};
const failures = [
  { error: new DexServiceError({ code: 'rpc-unavailable' }), words: tokenCopy.rpcUnavailable },
  // The node's fetch failing outside the DEX service: its own words, and a retry.
  { error: new TypeError('Failed to fetch'), words: 'Failed to fetch' },
  { error: new DexServiceError({ code: 'no-pair' }), words: dexCopy.noPair },
  { error: new DexServiceError({ code: 'no-router' }), words: dexCopy.noRouter },
];

/** Since the last load: whether the next block's activity arrived, and the pool last reported. */
let sawNext = false;
let pool: PoolState = loadedPool;
/** The words of the last failed load. */
let failedWith: string | null = null;

beforeEach(() => {
  sawNext = false;
  pool = loadedPool;
  failedWith = null;
});

function everyStep(snapshot: Snapshot, { before, events, facts }: ModelStep<typeof marketMachine>) {
  const { context } = snapshot;
  for (const event of events) {
    if (event.type === 'xstate.done.actor.loadMarket') [sawNext, pool] = [false, loadedPool];
    if (event.type === 'xstate.error.actor.loadMarket')
      failedWith = failures.find(({ error }) => error === errorOf(event))?.words ?? null;
    if (event.type === 'market.activity' && before?.matches('live')) {
      const activity = event as EventObject & typeof next;
      sawNext ||= activity.pool === nextPool;
      pool = activity.pool;
    }
  }
  // The trading machine hears of each block the watch reports while the market is live, and nothing else.
  const newBlocks = events.filter((event): event is MarketFact => event.type === 'market.block');
  expect(facts).toEqual(
    before?.matches('live')
      ? newBlocks.map(({ blockNumber }) => ({ type: 'market.block', blockNumber }))
      : [],
  );
  if (newBlocks.length > 0 && before?.matches('live'))
    expect(context.blockNumber).toBe(newBlocks.at(-1)?.blockNumber);
  if (!before)
    expect(context).toMatchObject({ market: null, pool: null, trades: [], prices: [], problem: null });
}

function expectLive(snapshot: Snapshot) {
  const { context } = snapshot;
  expect(context.market).toEqual(market);
  expect(context.problem).toBeNull();
  expect(context.failures).toBe(0);
  expect(context.pool).toEqual(pool);
  // Newest first, at most 20, each once; the chart oldest first, at most 500 points, each block once.
  const trades = sawNext
    ? [
        nextTrade,
        ...blocks(LOADED - 18, LOADED)
          .reverse()
          .map(trade),
      ]
    : blocks(LOADED - 19, LOADED)
        .reverse()
        .map(trade);
  const prices = sawNext ? blocks(2, NEXT).map(point) : blocks(1, LOADED).map(point);
  expect(context.trades).toEqual(trades);
  expect(context.prices).toEqual(prices);
  // What the card shows of them.
  expect(marketFigures(context.pool ?? loadedPool)).toEqual(poolShown.get(pool));
  expect(poolFeeText(context.market?.feeBps ?? 0)).toBe(dexCopy.percent('0.3'));
  expect(tradeRows(context.trades)).toEqual(trades.map(rowOf));
  expect(chartSeries(context.prices)).toEqual({
    points: prices.map(({ timestamp, price }) => ({ time: timestamp * 1000, price })),
    low: 0.00049,
    high: 0.00052,
    last: sawNext ? '0.000512346' : '0.000505',
  });
}

withBigIntJson(() =>
  describeModel({
    name: 'market',
    machine: marketMachine,
    // The watch sends nothing by itself: the paths send its events.
    callbacks: ['watchMarket'],
    // The failure count only sets the wait; the retries themselves are the unit tests'.
    // Every cycle-free path too: activity while the node is lost, a block after activity, …
    simplePaths: true,
    maxPaths: 40,
    // The chart by its first and last block: its 500 points would make every vertex's key long.
    // The words of the last failure only while they show: loading again is one state, whatever failed.
    serializeState: ({ value, context }) =>
      stableJson({
        value,
        ...context,
        failures: 0,
        problem: value === 'loading' ? null : context.problem,
        trades: context.trades.map(({ id }) => id),
        prices: context.prices.length && [context.prices[0], context.prices.at(-1)],
      }),
    events: {
      'xstate.done.actor.loadMarket': [{ type: 'xstate.done.actor.loadMarket', output: loaded }],
      'xstate.error.actor.loadMarket': failures.map(({ error }) => ({
        type: 'xstate.error.actor.loadMarket',
        error,
      })),
      'market.block': [{ type: 'market.block', blockNumber: BigInt(NEXT + 1) }],
      'market.activity': [
        { type: 'market.activity', ...next },
        { type: 'market.activity', ...replayed },
      ],
    },
    states: {
      '*': everyStep,
      live: expectLive,
      // A load that failed shows why, and waits to try again.
      failed: (snapshot) => {
        expect(snapshot.context.problem).toBe(failedWith);
        expect([tokenCopy.rpcUnavailable, 'Failed to fetch']).toContain(failedWith);
        expect(snapshot.context.failures).toBeGreaterThan(0);
      },
      // No pair or no router: the words say which, and nothing is tried again.
      unavailable: (snapshot) => {
        expect(snapshot.status).toBe('done');
        expect(snapshot.context.problem).toBe(failedWith);
        expect([dexCopy.noPair, dexCopy.noRouter]).toContain(failedWith);
      },
    },
  }),
);
