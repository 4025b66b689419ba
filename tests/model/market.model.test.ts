import { beforeEach, expect } from 'vitest';
import { fromCallback, type EventObject, type SnapshotFrom } from 'xstate';
import { tokenCopy } from '../../src/copy/index.ts';
import { dexCopy } from '../../src/copy/dex.ts';
import type { Market, MarketHistory, PoolState, PricePoint, Trade } from '../../src/domain/dex.ts';
import { marketMachine, type MarketFact, type MarketLoad } from '../../src/machines/market.machine.ts';
import { DexServiceError } from '../../src/services/dex/types.ts';
import { actionRecorder, eventRecorder, withBigIntJson } from './recorders.ts';
import { describeModel } from './support/index.ts';
import { stableJson } from './support/paths.ts';

// The market card's generated paths: loading, following the chain (blocks, activity, a lost node),
// the retries of a failed load and a market that is not there. Each step checks what the card
// shows (reserves, trades, chart, the problem's words) and what the trading machine was told.

type Snapshot = SnapshotFrom<typeof marketMachine>;

const E18 = 10n ** 18n;
const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const market: Market = {
  router: ADDRESS,
  factory: ADDRESS,
  weth: ADDRESS,
  pair: ADDRESS,
  token: ADDRESS,
  feeBps: 30,
};
const pool = (blockNumber: bigint, reserveEth: bigint): PoolState => ({
  reserveEth,
  reserveToken: 20_000n * E18,
  blockNumber,
});
const trade = (n: number): Trade => ({
  id: `0x${String(n).padStart(64, '0')}:0`,
  hash: `0x${String(n).padStart(64, '0')}`,
  blockNumber: BigInt(n),
  timestamp: 1_700_000_000 + n,
  side: 'buy',
  amountIn: E18,
  amountOut: 1990n * E18,
  price: 0.0005,
});
const point = (n: number): PricePoint => ({
  timestamp: 1_700_000_000 + n,
  blockNumber: BigInt(n),
  price: 0.0005,
});

const loaded: MarketLoad = {
  market,
  pool: pool(5n, 10n * E18),
  history: { trades: [trade(4), trade(5)], prices: [point(4), point(5)] },
};
const activity: { history: MarketHistory; pool: PoolState } = {
  history: { trades: [trade(6)], prices: [point(6)] },
  pool: pool(6n, 11n * E18),
};
const failures = [
  { error: new DexServiceError({ code: 'rpc-unavailable' }), words: tokenCopy.rpcUnavailable },
  { error: new DexServiceError({ code: 'no-pair' }), words: dexCopy.noPair },
  { error: new DexServiceError({ code: 'no-router' }), words: dexCopy.noRouter },
];

const received = eventRecorder();
const told = actionRecorder<MarketFact>();
let before: Snapshot | null = null;
let latest: Snapshot | null = null;

beforeEach(() => {
  if (latest) received.take(latest);
  told.take();
  before = null;
  latest = null;
});

function everyStep(snapshot: Snapshot) {
  before = latest;
  latest = snapshot;
  const events = received.take(snapshot);
  const facts = told.take().map(({ params }) => params);
  const { context } = snapshot;
  // The trading machine hears of each block the watch reports while the market is live, and nothing else.
  const blocks = events.filter((event): event is MarketFact => event.type === 'market.block');
  expect(facts).toEqual(
    before?.matches('live') ? blocks.map(({ blockNumber }) => ({ type: 'market.block', blockNumber })) : [],
  );
  if (blocks.length > 0 && before?.matches('live'))
    expect(context.blockNumber).toBe(blocks.at(-1)?.blockNumber);
  // What the card shows: newest trades first, the chart oldest first, each once.
  const blocksOf = (list: { blockNumber: bigint }[]) => list.map(({ blockNumber }) => blockNumber);
  expect(blocksOf(context.trades)).toEqual([...blocksOf(context.trades)].sort((a, b) => Number(b - a)));
  expect(blocksOf(context.prices)).toEqual(
    [...new Set(blocksOf(context.prices))].sort((a, b) => Number(a - b)),
  );
  if (!before)
    expect(context).toMatchObject({ market: null, pool: null, trades: [], prices: [], problem: null });
}

function expectLive(snapshot: Snapshot) {
  const { context } = snapshot;
  expect(context.market).toEqual(market);
  expect(context.problem).toBeNull();
  expect(context.failures).toBe(0);
  const sawActivity = context.pool?.blockNumber === 6n;
  expect(context.pool).toEqual(sawActivity ? activity.pool : loaded.pool);
  expect(context.trades).toEqual(sawActivity ? [trade(6), trade(5), trade(4)] : [trade(5), trade(4)]);
  expect(context.prices).toEqual(sawActivity ? [point(4), point(5), point(6)] : [point(4), point(5)]);
}

withBigIntJson(() =>
  describeModel({
    name: 'market',
    machine: marketMachine,
    deferredActors: ['loadMarket'],
    provide: {
      // The paths run this machine as a root: its parent is the `told` recorder, and the watch
      // sends nothing by itself (the paths send its events).
      actions: { tellParent: told.action },
      actors: { watchMarket: fromCallback<EventObject>(() => undefined) },
    },
    // The failure count only sets the wait; the retries themselves are the unit tests'.
    // Every cycle-free path too: activity while the node is lost, a block after activity, …
    simplePaths: true,
    maxPaths: 40,
    serializeState: (snapshot) =>
      stableJson({ value: snapshot.value, context: { ...snapshot.context, failures: 0 } }),
    events: {
      'xstate.done.actor.loadMarket': [{ type: 'xstate.done.actor.loadMarket', output: loaded }],
      'xstate.error.actor.loadMarket': failures.map(({ error }) => ({
        type: 'xstate.error.actor.loadMarket',
        error,
      })),
      'market.block': [{ type: 'market.block', blockNumber: 7n }],
      'market.activity': [{ type: 'market.activity', ...activity }],
    },
    states: {
      '*': everyStep,
      live: expectLive,
      // A load that failed shows why, and waits to try again.
      failed: (snapshot) => {
        expect(snapshot.context.problem).toBe(tokenCopy.rpcUnavailable);
        expect(snapshot.context.failures).toBeGreaterThan(0);
      },
      // No pair or no router: the words say which, and nothing is tried again.
      unavailable: (snapshot) => {
        expect(snapshot.status).toBe('done');
        expect([dexCopy.noPair, dexCopy.noRouter]).toContain(snapshot.context.problem);
      },
    },
  }),
);
