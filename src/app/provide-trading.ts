import { fromCallback, fromPromise, type AnyActorRef, type EventObject } from 'xstate';
import { TRADES_SHOWN, type Address } from '../domain/dex.ts';
import { marketMachine, type MarketEvent } from '../machines/market.machine.ts';
import type { ToastRequest } from '../machines/shared.ts';
import { swapMachine } from '../machines/swap.machine.ts';
import { tradingMachine } from '../machines/trading.machine.ts';
import type { DexService } from '../services/dex/types.ts';
import type { SupabaseService } from '../services/supabase/types.ts';
import type { WalletService } from '../services/wallet/types.ts';

// The DEX Trading tab's composition root (docs/product.md#dex-trading), loaded with the tab: turns
// the DEX service, and the portal's own wallet and Supabase services, into the actors the trading
// machines declare. The wallet is the portal's instance, so its one-prompt-at-a-time rule covers a
// swap as it covers a send. The trading actor has a system of its own: what must reach the
// portal's actors (toasts, the refreshes after a swap) is sent to them through the portal's system.

export type TradingServices = {
  dex: DexService;
  wallet: Pick<WalletService, 'sendTransaction'>;
  supabase: Pick<SupabaseService, 'recordTransaction'>;
  /** The portal's system, where the toast, balances and transactions actors live. */
  portal: { get(systemId: string): AnyActorRef | undefined };
  /** Milliseconds since 1970: the clock a swap's deadline counts from. */
  now?: () => number;
};

export function provideTrading({ dex, wallet, supabase, portal, now = Date.now }: TradingServices) {
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
      // its row is being saved still saves it, and the history is read again once it is there.
      recordSwap: fromPromise(async ({ input }) => {
        const recorded = await supabase.recordTransaction(input.hash);
        portal.get('transactions')?.send({ type: 'transactions.refresh' });
        return recorded;
      }),
    },
    actions: {
      // Straight to the portal's toast actor, so its journal records the toast as any other.
      showToast: (_, params: ToastRequest) =>
        portal.get('toast')?.send({ type: 'toast.show', toast: params }),
    },
  });

  return tradingMachine.provide({ actors: { market, swap } });
}
