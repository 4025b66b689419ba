import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { TRADES_SHOWN, type Address } from '../domain/dex.ts';
import { marketMachine, type MarketEvent } from '../machines/trading/market.machine.ts';
import { swapMachine } from '../machines/trading/swap.machine.ts';
import { tradingMachine } from '../machines/trading/trading.machine.ts';
import type { DexService } from '../services/dex/types.ts';
import type { SupabaseService } from '../services/supabase/types.ts';
import type { WalletService } from '../services/wallet/types.ts';

// The DEX Trading tab's composition root (docs/product.md#dex-trading), loaded with the tab: turns
// the DEX service, and the portal's own wallet and Supabase services, into the actors the trading
// machines declare. The wallet is the portal's instance, so its one-prompt-at-a-time rule covers a
// swap as it covers a send. The portal's root spawns the result while the tab is shown.

export type TradingServices = {
  dex: DexService;
  wallet: Pick<WalletService, 'sendTransaction'>;
  supabase: Pick<SupabaseService, 'recordTransaction'>;
  /** Milliseconds since 1970: the clock a swap's deadline counts from. */
  now?: () => number;
};

export function provideTrading({ dex, wallet, supabase, now = Date.now }: TradingServices) {
  const market = marketMachine.provide({
    actors: {
      loadMarket: fromPromise(async () => {
        const [known, pool, history] = await Promise.all([
          dex.market(),
          dex.pool(),
          dex.history(TRADES_SHOWN),
        ]);
        return { market: known, pool, history };
      }),
      watchMarket: fromCallback<EventObject>(({ sendBack }) =>
        dex.watch({
          block: (blockNumber) => sendBack({ type: 'market.block', blockNumber } satisfies MarketEvent),
          activity: (history, pool) =>
            sendBack({ type: 'market.activity', history, pool } satisfies MarketEvent),
          lost: () => sendBack({ type: 'market.lost' } satisfies MarketEvent),
        }),
      ),
    },
  });

  const swap = swapMachine.provide({
    actors: {
      quote: fromPromise(async ({ input }) => {
        const [quote, holdings] = await Promise.all([
          dex.quote({ side: input.side, amountIn: input.amountIn }),
          input.account === null ? null : dex.holdings(input.account as Address),
        ]);
        return { quote, holdings };
      }),
      approvalCall: fromPromise(({ input }) => dex.approvalCall(input)),
      swapCall: fromPromise(({ input }) => {
        const { deadlineMinutes, ...order } = input;
        const deadline = BigInt(Math.floor(now() / 1000) + deadlineMinutes * 60);
        return dex.swapCall({ ...order, deadline });
      }),
      sendTransaction: fromPromise(({ input }) =>
        wallet.sendTransaction({ from: input.from, to: input.to, data: input.data, value: input.value }),
      ),
      confirmApproval: fromPromise(({ input }) => dex.confirmApproval(input.hash, input.owner)),
      confirmSwap: fromPromise(({ input }) => dex.confirmSwap(input.hash, input.side)),
      // The abort signal is ignored on purpose: a swap's outcome dismissed (or the tab closed) while
      // its row is being saved still saves it; the history reads it when it is next opened.
      recordSwap: fromPromise(({ input }) => supabase.recordTransaction(input.hash)),
    },
  });

  return tradingMachine.provide({ actors: { market, swap } });
}
