import { emit, sendTo, setup } from 'xstate';
import { marketMachine, type MarketFact } from './market.machine.ts';
import { swapMachine, type SwapFact, type SwapInput } from './swap.machine.ts';

// The root of the DEX Trading tab (docs/product.md#dex-trading), started by the composition root
// when the tab opens and stopped when it closes. It runs the market and the swap form side by side
// and carries what one must know of the other, and of the page:
//
//   market.block (market)        → swap: a new block, on which a quote is refreshed
//   wallet.changed, session.changed (page) → swap
//   swap.confirmed (swap)        → emitted as trading.swapConfirmed: the composition root listens
//                                   (actor.on) and refreshes the portal's balances and history
//
// Neither child addresses the other: each tells this machine a typed fact with sendParent.

export type TradingInput = SwapInput;

export type TradingEvent =
  | MarketFact
  | SwapFact
  // From the page.
  | { type: 'wallet.changed'; address: string | null; chainId: number | null }
  | { type: 'session.changed'; signedIn: boolean };

/** What the composition root hears (actor.on): a swap mined, with the amounts the pair's events report. */
export type TradingEmitted = Omit<SwapFact, 'type'> & { type: 'trading.swapConfirmed' };

export const tradingMachine = setup({
  types: {} as {
    context: { input: TradingInput };
    events: TradingEvent;
    input: TradingInput;
    emitted: TradingEmitted;
  },
  actors: { market: marketMachine, swap: swapMachine },
  actions: {
    /** Hands the event, as it came, to the swap form. */
    tellSwap: sendTo('swap', ({ event }) => event),
    announceSwap: emit(({ event }) => {
      const { hash, side, amountIn, amountOut } = event as SwapFact;
      return { type: 'trading.swapConfirmed' as const, hash, side, amountIn, amountOut };
    }),
  },
}).createMachine({
  id: 'trading',
  context: ({ input }) => ({ input }),
  invoke: [
    { id: 'market', src: 'market' },
    { id: 'swap', src: 'swap', input: ({ context }) => context.input },
  ],
  on: {
    'market.block': { actions: 'tellSwap' },
    'wallet.changed': { actions: 'tellSwap' },
    'session.changed': { actions: 'tellSwap' },
    'swap.confirmed': { actions: 'announceSwap' },
  },
});
