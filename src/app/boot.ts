import { createActor } from 'xstate';
import type { AppConfig } from '../config/app-config.ts';
import { LOCAL_WALLET_BUILD } from '../config/local-wallet-build.ts';
import { portalMachine, type PortalInput, type TabsAvailable } from '../machines/portal/portal.machine.ts';
import type { ThemeInput } from '../machines/theme.machine.ts';
import type { PortalActor } from '../ui/portal-context.tsx';
import type { UiSettings } from '../ui/settings-context.tsx';

// What the page boots from, shared by src/main.tsx and the build's prerender (src/prerender.tsx):
// the portal actor's input and the views' settings, both read from the build's configuration. The
// HTML of the first screen is rendered at build time from a portal that never starts, and the page
// hydrates it by reading the snapshots of the same portal (src/ui/portal-context.tsx), so both
// must come from exactly these functions.

/**
 * The theme the HTML is rendered in. The inline script in index.html sets html[data-theme] before
 * anything paints, the colours hang off it, and the theme toggle draws both icons and lets CSS pick
 * one, so nothing visible in the markup depends on the theme.
 */
export const PRERENDER_THEME: ThemeInput = { stored: null, systemPrefersDark: false };

/** Whether the DDEX contract can be read: an address and an RPC node to read it through. */
export const tokenConfigured = (config: AppConfig): boolean =>
  config.tokenAddress !== null && config.rpcUrl !== null;

/**
 * Which tabs with an actor of their own this configuration has: DEX Trading needs a market (a
 * router, the DDEX contract and an RPC URL), Trading Bots a backend (bots live in its tables).
 */
export function tabsOf(config: AppConfig): TabsAvailable {
  return {
    trading: config.uniswapRouter !== null && tokenConfigured(config),
    bots: config.supabase !== null,
  };
}

/** The portal actor's input: the configuration's facts and the visitor's theme. */
export function bootInput(config: AppConfig, theme: ThemeInput): PortalInput {
  return {
    theme,
    auth: { clientAvailable: config.supabase !== null },
    expectedChain: config.chain,
    tokenConfigured: tokenConfigured(config),
    tabs: tabsOf(config),
    // Its wallet signs locally and asks the node for everything else.
    offersLocalWallet: LOCAL_WALLET_BUILD && config.rpcUrl !== null,
  };
}

/** The views' settings, read from the configuration. */
export function uiSettings(config: AppConfig): UiSettings {
  const token = tokenConfigured(config);
  return {
    contactEmail: config.contactEmail,
    productSite: config.productSite,
    explorerUrl: config.explorerUrl,
    tokenConfigured: token,
    tokenAddress: token ? config.tokenAddress : null,
    chainName: config.chain.name,
    tabs: tabsOf(config),
  };
}

/**
 * The portal as the prerendered HTML shows it: created and never started, it holds its initial
 * snapshot (its children exist, nothing has run) and runs no effect, so it needs no services.
 */
export function prerenderedPortal(config: AppConfig): PortalActor {
  return createActor(portalMachine, { systemId: 'portal', input: bootInput(config, PRERENDER_THEME) });
}
