import { createActor, type Actor } from 'xstate';
import type { portalMachine } from '../machines/portal.machine.ts';
import { createDexService } from '../services/dex/index.ts';
import type { DexServiceConfig } from '../services/dex/types.ts';
import type { TradingTab } from '../ui/settings-context.tsx';
import { provideTrading, type TradingServices } from './provide-trading.ts';

// Starts the DEX Trading tab's actor when the tab opens (src/main.tsx imports this module then, so
// the DEX service and the trading machines load with the tab). The actor lives in a system of its
// own; this module feeds it the page's facts from the portal's snapshots and tells the portal of a
// swap mined. The view stops it when the tab closes.

export type TradingTabServices = Pick<TradingServices, 'wallet' | 'supabase'> & {
  portal: Actor<typeof portalMachine>;
  /** The chain the portal is built for is the DEX service's `chainId`. */
  dex: DexServiceConfig;
};

type PageFacts = { address: string | null; chainId: number | null; signedIn: boolean };

const factsOf = ({ context }: ReturnType<Actor<typeof portalMachine>['getSnapshot']>): PageFacts => ({
  address: context.walletAddress,
  chainId: context.walletChainId,
  signedIn: context.user !== null,
});

export function startTradingTab({ portal, wallet, supabase, dex }: TradingTabServices): TradingTab {
  const machine = provideTrading({ dex: createDexService(dex), wallet, supabase, portal: portal.system });
  let facts = factsOf(portal.getSnapshot());
  const actor = createActor(machine, {
    input: {
      expectedChainId: dex.chainId,
      account: facts.address,
      chainId: facts.chainId,
      signedIn: facts.signedIn,
    },
  });
  // The history is read again once the swap's row is saved (provideTrading's recordSwap).
  const swaps = actor.on('trading.swapConfirmed', () =>
    portal.system.get('balances')?.send({ type: 'balances.refresh' }),
  );
  const page = portal.subscribe((snapshot) => {
    const next = factsOf(snapshot);
    if (next.address !== facts.address || next.chainId !== facts.chainId) {
      actor.send({ type: 'wallet.changed', address: next.address, chainId: next.chainId });
    }
    if (next.signedIn !== facts.signedIn) actor.send({ type: 'session.changed', signedIn: next.signedIn });
    facts = next;
  });
  actor.start();
  return {
    actor,
    stop: () => {
      page.unsubscribe();
      swaps.unsubscribe();
      actor.stop();
    },
  };
}
