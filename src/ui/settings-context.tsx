import { createContext, useContext, type ReactNode } from 'react';
import type { Actor } from 'xstate';
import type { botsMachine } from '../machines/bots.machine.ts';
import type { tradingMachine } from '../machines/trading.machine.ts';

// Configuration the views show as is (footer links, explorer links), and the
// Trading and Trading Bots tabs' starters, handed down from the composition root.
export type UiSettings = {
  contactEmail: string;
  productSite: string;
  explorerUrl: string | null;
  tokenConfigured: boolean;
  /** The DDEX contract, when one is configured. */
  tokenAddress: string | null;
  /** The network the wallet must be on, for the wrong-network banner. */
  chainName: string;
  /**
   * Starts the DEX Trading tab's actor, loading its code on the first call (src/app/trading-tab.ts);
   * null when no market is configured (no router, DDEX contract or RPC URL).
   */
  startTrading: (() => Promise<TradingTab>) | null;
  /**
   * Starts the Trading Bots tab's actor, loading its code (src/app/bots-tab.ts) and supabase-js on
   * the first call; null when no Supabase project is configured (bots live in its tables).
   */
  startBots: (() => Promise<BotsTab>) | null;
};

/** The DEX Trading tab's running actor; `stop` ends it and what feeds it. */
export type TradingTab = { actor: Actor<typeof tradingMachine>; stop(): void };

/** The Trading Bots tab's running actor; `stop` ends it and what feeds it. */
export type BotsTab = { actor: Actor<typeof botsMachine>; stop(): void };

const SettingsContext = createContext<UiSettings | null>(null);

export function SettingsProvider({ settings, children }: { settings: UiSettings; children: ReactNode }) {
  return <SettingsContext.Provider value={settings}>{children}</SettingsContext.Provider>;
}

export function useSettings(): UiSettings {
  const settings = useContext(SettingsContext);
  if (!settings) throw new Error('useSettings needs a <SettingsProvider> above it');
  return settings;
}
