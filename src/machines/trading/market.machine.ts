import { assign, fromCallback, fromPromise, sendParent, setup, type EventObject } from 'xstate';
import {
  PRICE_POINTS_KEPT,
  TRADES_SHOWN,
  dexProblemOf,
  type Market,
  type MarketHistory,
  type PoolState,
  type PricePoint,
  type Trade,
} from '../../domain/dex.ts';
import { dexFailureWords } from './dex-words.ts';
import { backoffMs, notProvided } from '../shared.ts';

// The DDEX/WETH market of the Trading tab (docs/product.md#dex-trading), invoked by the trading
// machine: the pair, its reserves, the last trades and the price chart. It loads them once, then
// follows the chain: each new block is told to the parent (the swap form re-quotes on it), and the
// pair's Swap and Sync events of that block update the reserves, the trades and the chart.
//
//   loading → live.following ⇄ live.lost (the node stopped answering; the watch keeps trying)
//          ↘ failed (tries again after 1, 2, 5, then every 10 s, or at once on 'Try Again')
//          ↘ unavailable (no pair or no router: nothing to try again)
//
// Failures show in the market card, not as toasts: a node that is down would repeat them.

export type MarketLoad = { market: Market; pool: PoolState; history: MarketHistory };

export type MarketEvent =
  // From the watch (watchMarket).
  | { type: 'market.block'; blockNumber: bigint }
  | { type: 'market.activity'; history: MarketHistory; pool: PoolState }
  | { type: 'market.lost' }
  // From the view.
  | { type: 'market.retry' };

/** What this machine tells the trading machine: a new block, on which the swap form re-quotes. */
export type MarketFact = { type: 'market.block'; blockNumber: bigint };

export type MarketContext = {
  market: Market | null;
  pool: PoolState | null;
  /** Newest first, at most TRADES_SHOWN. */
  trades: Trade[];
  /** Oldest first, at most PRICE_POINTS_KEPT. */
  prices: PricePoint[];
  blockNumber: bigint | null;
  /** Why the market is failed or unavailable, in plain words. */
  problem: string | null;
  /** Failed loads in a row; sets the wait before the next. */
  failures: number;
};

/** The newest trades first: the new ones (oldest first in `history`) ahead of those already shown. */
export function mergeTrades(shown: readonly Trade[], arrived: readonly Trade[]): Trade[] {
  const known = new Set(shown.map((trade) => trade.id));
  const fresh = arrived.filter((trade) => !known.has(trade.id)).reverse();
  return [...fresh, ...shown].slice(0, TRADES_SHOWN);
}

/** The chart's points, oldest first; a block already drawn (a watch that replays it) is not drawn again. */
export function mergePrices(kept: readonly PricePoint[], arrived: readonly PricePoint[]): PricePoint[] {
  const last = kept.at(-1)?.blockNumber ?? -1n;
  return [...kept, ...arrived.filter((point) => point.blockNumber > last)].slice(-PRICE_POINTS_KEPT);
}

export const marketMachine = setup({
  types: {} as { context: MarketContext; events: MarketEvent },
  actors: {
    loadMarket: fromPromise<MarketLoad>(notProvided('loadMarket')),
    /** Sends `market.block`, `market.activity` and `market.lost` until it is stopped. */
    watchMarket: fromCallback<EventObject>(notProvided('watchMarket')),
  },
  actions: {
    /** Tells the trading machine a fact. */
    tellParent: sendParent((_, fact: MarketFact) => fact),
  },
  guards: {
    /** No pair or no router: trying again cannot help. */
    unavailable: ({ event }) => {
      const code = 'error' in event ? dexProblemOf(event.error)?.code : undefined;
      return code === 'no-pair' || code === 'no-router';
    },
  },
  delays: {
    marketRetry: ({ context }) => backoffMs(context.failures),
  },
}).createMachine({
  id: 'market',
  context: {
    market: null,
    pool: null,
    trades: [],
    prices: [],
    blockNumber: null,
    problem: null,
    failures: 0,
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadMarket',
        src: 'loadMarket',
        onDone: {
          target: 'live',
          actions: assign(({ event }) => ({
            market: event.output.market,
            pool: event.output.pool,
            trades: mergeTrades([], event.output.history.trades),
            prices: mergePrices([], event.output.history.prices),
            blockNumber: event.output.pool.blockNumber,
            problem: null,
            failures: 0,
          })),
        },
        onError: [
          {
            guard: 'unavailable',
            target: 'unavailable',
            actions: assign({ problem: ({ event }) => dexFailureWords(event.error) }),
          },
          {
            target: 'failed',
            actions: assign({
              problem: ({ event }) => dexFailureWords(event.error),
              failures: ({ context }) => context.failures + 1,
            }),
          },
        ],
      },
    },
    failed: {
      after: { marketRetry: 'loading' },
      on: { 'market.retry': 'loading' },
    },
    live: {
      invoke: { id: 'watchMarket', src: 'watchMarket' },
      initial: 'following',
      on: {
        'market.block': {
          actions: [
            assign({ blockNumber: ({ event }) => event.blockNumber }),
            {
              type: 'tellParent',
              params: ({ event }) => ({ type: 'market.block', blockNumber: event.blockNumber }),
            },
          ],
        },
        'market.activity': {
          actions: assign(({ context, event }) => ({
            pool: event.pool,
            trades: mergeTrades(context.trades, event.history.trades),
            prices: mergePrices(context.prices, event.history.prices),
          })),
        },
      },
      states: {
        following: {
          on: { 'market.lost': 'lost' },
        },
        /** The node stopped answering; what is shown is as of the last block. */
        lost: {
          on: {
            'market.block': {
              target: 'following',
              actions: [
                assign({ blockNumber: ({ event }) => event.blockNumber }),
                {
                  type: 'tellParent',
                  params: ({ event }) => ({ type: 'market.block', blockNumber: event.blockNumber }),
                },
              ],
            },
          },
        },
      },
    },
    /** No DDEX/WETH pair, or no router at the configured address: `problem` says which. */
    unavailable: { type: 'final' },
  },
});
