import { createDexService } from '../services/dex/index.ts';
import type { DexServiceConfig } from '../services/dex/types.ts';
import { provideTrading, type TradingServices } from './provide-trading.ts';

// The DEX Trading tab's code, loaded when the tab is first shown (src/main.tsx imports this module
// then, from the portal's `loadTrading` actor), so the DEX service and the trading machines load
// with the tab. The portal's root spawns the logic it gives.

export type TradingTabServices = Pick<TradingServices, 'wallet' | 'supabase'> & {
  /** The chain the portal is built for is the DEX service's `chainId`. */
  dex: DexServiceConfig;
};

export function tradingTabLogic({ wallet, supabase, dex }: TradingTabServices) {
  return provideTrading({ dex: createDexService(dex), wallet, supabase });
}
