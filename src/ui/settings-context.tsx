import { createContext, useContext, type ReactNode } from 'react';
import type { TabsAvailable } from '../machines/portal/portal.machine.ts';

// Configuration the views show as is (footer links, explorer links, which tabs this portal has),
// handed down from the composition root.
export type UiSettings = {
  contactEmail: string;
  productSite: string;
  explorerUrl: string | null;
  tokenConfigured: boolean;
  /** The DDEX contract, when one is configured. */
  tokenAddress: string | null;
  /** The network the wallet must be on, for the wrong-network banner. */
  chainName: string;
  /** Which of the Trading and Bots tabs this configuration has (src/app/boot.ts tabsOf). */
  tabs: TabsAvailable;
};

const SettingsContext = createContext<UiSettings | null>(null);

export function SettingsProvider({ settings, children }: { settings: UiSettings; children: ReactNode }) {
  return <SettingsContext.Provider value={settings}>{children}</SettingsContext.Provider>;
}

export function useSettings(): UiSettings {
  const settings = useContext(SettingsContext);
  if (!settings) throw new Error('useSettings needs a <SettingsProvider> above it');
  return settings;
}
