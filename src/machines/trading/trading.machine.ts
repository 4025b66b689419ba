import { setup } from 'xstate';
import { marketMachine, type MarketFact } from './market.machine.ts';
import { reportFact, type SessionChanged, type WalletChanged } from '../shared.ts';
import { swapMachine } from './swap.machine.ts';
import type { SwapEvent, SwapFact, SwapInput } from './swap-types.ts';
import { tellerOf } from '../tell.ts';

// The root of the DEX Trading tab (docs/product.md#dex-trading), spawned by the portal's root while
// the tab is shown (portal.tabs.ts). It runs the market and the swap form side by side and carries
// what one must know of the other, and of the page:
//
//   market.block (market)                   → swap: a new block, on which a quote is refreshed
//   wallet.changed, session.changed (root)  → swap
//   swap.confirmed (swap)                   → root: trading.swapConfirmed (it refreshes the balances)
//   swap.recorded (swap)                    → root: trading.swapRecorded (it refreshes the history and the profile)
//
// Neither child addresses the other: each tells this machine a typed fact with sendParent.

export type TradingInput = SwapInput;

export type TradingEvent = MarketFact | SwapFact | WalletChanged | SessionChanged;

/** What this machine reports to the root: a swap mined (with the amounts that moved), its row saved. */
export type TradingFact =
  | (Omit<Extract<SwapFact, { type: 'swap.confirmed' }>, 'type'> & { type: 'trading.swapConfirmed' })
  | { type: 'trading.swapRecorded'; hash: string };

type TradingContext = { input: TradingInput };

const tell = tellerOf<TradingContext, TradingEvent, { swap: SwapEvent }>();

/** What comes to this machine for the swap form: from the market, and from the root. */
type ForSwap = MarketFact | WalletChanged | SessionChanged;

export const tradingMachine = setup({
  types: {} as { context: TradingContext; events: TradingEvent; input: TradingInput },
  actors: { market: marketMachine, swap: swapMachine },
  actions: {
    /** Hands the event, as it came, to the swap form. */
    tellSwap: tell('swap', (_, event: ForSwap) => event),
    report: reportFact<TradingFact>(),
  },
}).createMachine({
  id: 'trading',
  context: ({ input }) => ({ input }),
  invoke: [
    { id: 'market', src: 'market' },
    { id: 'swap', src: 'swap', input: ({ context }) => context.input },
  ],
  on: {
    'market.block': { actions: { type: 'tellSwap', params: ({ event }) => event } },
    'wallet.changed': { actions: { type: 'tellSwap', params: ({ event }) => event } },
    'session.changed': { actions: { type: 'tellSwap', params: ({ event }) => event } },
    'swap.confirmed': {
      actions: {
        type: 'report',
        params: ({ event: { hash, side, amountIn, amountOut } }) => ({
          type: 'trading.swapConfirmed',
          hash,
          side,
          amountIn,
          amountOut,
        }),
      },
    },
    'swap.recorded': {
      actions: {
        type: 'report',
        params: ({ event }) => ({ type: 'trading.swapRecorded', hash: event.hash }),
      },
    },
  },
});
