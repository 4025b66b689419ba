import { lazy, StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createActor } from 'xstate';
import { bootInput, prerenderedPortal, uiSettings } from './app/boot.ts';
import { readEmailLink } from './app/email-link.ts';
import { afterFirstCommit } from './app/first-paint.ts';
import type { PortalActor } from './ui/portal-context.tsx';
import { providePortal, THEME_KEY } from './app/provide-portal.ts';
import { readAppConfig } from './config/app-config.ts';
import { buildEnv } from './config/build-env.ts';
import type { JournalRecorder } from './devtools/journal.ts';
import type { JournalExport } from './devtools/journal-types.ts';
import type { DevtoolsOptions } from './devtools/panel/types.ts';
import { devtoolsEnabled, inspectRequested } from './devtools/panel/gate.ts';
import { onFirstUse } from './services/on-first-use.ts';
import { createDeferredSupabaseService } from './services/supabase/deferred-service.ts';
import { unavailableSupabaseService } from './services/supabase/unavailable-service.ts';
import { createDeferredTatumService } from './services/tatum/deferred-service.ts';
import { createDeferredTokenService } from './services/token/deferred-service.ts';
import { createDeferredWalletService } from './services/wallet/deferred-service.ts';
import { App } from './ui/App.tsx';
import { loadLateViews } from './ui/portal/late-views-loader.ts';

// Composition root: the only place that builds service implementations. It
// reads the configuration, makes the services, provides them to the portal's
// statecharts and starts the actor system.

const config = readAppConfig(buildEnv());
for (const problem of config.problems) console.warn(`[config] ${problem}`);

// An emailed auth link's session (`#access_token=…`) or failure (`#error=…`): taken out of the
// address before anything reads it, replacing the history entry, so no entry, bookmark or Referer
// keeps the tokens. The session goes to the backend service alone, never to a machine or the
// journal; a failure is a fact the auth chart shows (src/app/email-link.ts).
const emailLink = readEmailLink(window.location.href);
if (emailLink) window.history.replaceState(window.history.state, '', emailLink.rest);

// supabase-js, viem's RPC code and the Tatum service are imported on their first call (the session
// read, the first balance), but not before React has hydrated the page (or rendered it) and the
// browser has painted it, so none of them holds the first screen or competes with hydration.
let committed = () => {};
const painted = afterFirstCommit(new Promise((resolve) => (committed = resolve)));
const backend = config.supabase;
// One supabase-js client for the page: the Tatum service calls its functions with the same session.
const supabaseClient = backend
  ? onFirstUse(async () => {
      await painted;
      const { createSupabaseClient } = await import('./services/supabase/index.ts');
      return createSupabaseClient(backend);
    })
  : null;
const supabase =
  backend && supabaseClient
    ? createDeferredSupabaseService({
        url: backend.url,
        load: async () => {
          const { createSupabaseService } = await import('./services/supabase/index.ts');
          return createSupabaseService(await supabaseClient(), {
            siteUrl: window.location.origin,
            emailLink: emailLink?.link.kind === 'session' ? emailLink.link.session : null,
          });
        },
      })
    : unavailableSupabaseService();
const walletChain = {
  id: config.chain.id,
  name: config.chain.name,
  rpcUrl: config.rpcUrl ?? '',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
};
const wallet = createDeferredWalletService(walletChain, async () => {
  const { createWalletService } = await import('./services/wallet/wallet-service.ts');
  return createWalletService({ window, chain: walletChain });
});
const { tokenAddress, rpcUrl } = config;
// The data provider is the backend's functions, which hold the Tatum key: no backend, no provider.
const tatum = supabaseClient
  ? createDeferredTatumService(async () => {
      const { createTatumService } = await import('./services/tatum/index.ts');
      return createTatumService({ client: supabaseClient });
    })
  : null;
const token =
  tokenAddress && rpcUrl
    ? createDeferredTokenService(
        async () => {
          await painted;
          const { createTokenService } = await import('./services/token/index.ts');
          return createTokenService({ rpcUrl, chainId: config.chain.id, tokenAddress });
        },
        // The balance without viem: a reconnecting wallet's first screen needs nothing more of it.
        async () => {
          await painted;
          const { createBalanceReader } = await import('./services/token/balance-reader.ts');
          return createBalanceReader({ rpcUrl, chainId: config.chain.id, tokenAddress });
        },
      )
    : null;

const darkScheme = window.matchMedia('(prefers-color-scheme: dark)');
const storedTheme = window.localStorage.getItem(THEME_KEY);

// Every event that reaches the portal's actor system, redacted and bounded (src/devtools/journal.ts),
// for the developer panel (a lazy chunk: development builds, or `?devtools` in production), which is
// all that reads it. Without the panel nothing is recorded and the journal's code never downloads.
// The portal's actors are made once it has loaded (boot, below), so it records them from the first.
const recorder = devtoolsEnabled(window.location.search, import.meta.env.DEV)
  ? import('./devtools/journal.ts').then(({ createJournal }) => createJournal())
  : null;

// `?inspect`: Stately's browser inspector. It opens stately.ai (online only) and its SDK is loaded
// on demand; without the flag nothing of it runs or downloads (src/devtools/inspector.ts).
// A production build asks the person once before anything streams (inspect-consent.ts).
const inspecting = inspectRequested(window.location.search);
const askToStream = async () =>
  (await import('./devtools/inspect-consent.ts')).askToInspect((question) => window.confirm(question));

/** The portal's `inspect`: the journal's, Stately's with `?inspect`, both, or none. */
async function inspectorOf(journal: JournalRecorder | null) {
  if (!journal && !inspecting) return undefined;
  const { browserInspector, combineInspectors } = await import('./devtools/inspector.ts');
  const stately = inspecting ? browserInspector(import.meta.env.DEV ? undefined : askToStream) : null;
  return combineInspectors(journal?.inspect, stately?.inspect);
}

// The DEX Trading tab's machines and the DEX service load with the tab, when the portal first shows
// it; a swap is sent through this page's wallet service, one prompt at a time with everything else.
const { uniswapRouter } = config;
const loadTrading =
  uniswapRouter && tokenAddress && rpcUrl
    ? async () =>
        (await import('./app/trading-tab.ts')).tradingTabLogic({
          wallet,
          supabase,
          dex: { rpcUrl, chainId: config.chain.id, routerAddress: uniswapRouter, tokenAddress },
        })
    : undefined;

// The Trading Bots tab's machine and the bots service load with the tab; the service is built from
// this page's supabase-js client, so it calls with the page's session. No backend, no bots.
const loadBots = supabaseClient
  ? async () => {
      const [{ botsTabLogic }, client] = await Promise.all([import('./app/bots-tab.ts'), supabaseClient()]);
      return botsTabLogic(client);
    }
  : undefined;

// The local test wallet, in a build for the local chain only. The chain id is compared here, at
// the import, and not through LOCAL_WALLET_BUILD: Vite writes the id in as a literal, and the
// bundler drops an import behind a comparison of literals in the same file before it makes
// chunks; one behind an imported constant would still be built into a chunk of its own.
const localWallet =
  import.meta.env.VITE_CHAIN_ID === '31337' && rpcUrl
    ? {
        take: async () =>
          (await import('./app/local-wallet.ts')).takeLocalWallet({
            window,
            rpcUrl,
            chainId: config.chain.id,
          }),
      }
    : undefined;

// Its dialog and menu load with it, and likewise exist only in a build for the local chain.
const localWalletViews =
  import.meta.env.VITE_CHAIN_ID === '31337'
    ? {
        Offer: lazy(() => import('./ui/local-wallet/LocalWalletOffer.tsx')),
        Dialog: lazy(() => import('./ui/local-wallet/LocalWalletDialog.tsx')),
        Menu: lazy(() => import('./ui/local-wallet/LocalWalletMenu.tsx')),
      }
    : null;

// The faucet ('Get test DDEX') loads with a signed-in session: its machine, its service (this page's
// supabase-js client, so it claims with the page's session) and its human check. No backend, no faucet.
const loadFaucet = supabaseClient
  ? async () =>
      (await import('./app/faucet.ts')).faucetLogic({
        client: supabaseClient,
        token,
        sitekey: config.hcaptchaSitekey,
      })
  : undefined;

// An email alert's unsubscribe link (`?unsubscribe=<token>`): the token is taken out of the address
// at once, so no history entry, bookmark or Referer keeps it; the portal asks before it is used.
const opened = new URL(window.location.href);
const unsubscribeToken = opened.searchParams.get('unsubscribe');
if (unsubscribeToken !== null) {
  opened.searchParams.delete('unsubscribe');
  window.history.replaceState(window.history.state, '', opened);
}

// The portal's actors are made and started in tasks of their own (boot below), not in the one that
// evaluates this module: on a slow phone each of those steps is a long task, and a prerendered page
// is already on screen, so every long task after its first paint holds back a tap on it.
const createPortal = (inspect: Awaited<ReturnType<typeof inspectorOf>>) =>
  createActor(
    providePortal({
      supabase,
      wallet,
      ...(localWallet ? { localWallet } : {}),
      tatum,
      token,
      themeStorage: window.localStorage,
      watchSystemTheme: (onChange) => {
        const listener = (event: MediaQueryListEvent) => onChange(event.matches);
        darkScheme.addEventListener('change', listener);
        return () => darkScheme.removeEventListener('change', listener);
      },
      log: {
        failure: (what, error) => console.warn(`[portal] ${what} failed:`, error),
        // The spec's 'Active Webhooks' toast says "check console".
        webhooks: (list) => console.warn('[portal] active webhooks:', list),
      },
      siteUrl: window.location.origin,
      tokenAddress,
      tabs: { loadTrading, loadBots },
      loadFaucet,
    }),
    { systemId: 'portal', inspect, input: { ...portalInput, unsubscribeToken } },
  );
const booted = bootInput(config, {
  stored: storedTheme === 'light' || storedTheme === 'dark' ? storedTheme : null,
  systemPrefersDark: darkScheme.matches,
});
const portalInput = {
  ...booted,
  auth: { ...booted.auth, emailLinkFailed: emailLink?.link.kind === 'failed' },
};

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Replay is loaded when a journal is imported; the replayed portal is stopped once its snapshots
// are taken.
const replay = async (recording: JournalExport) => {
  const result = (await import('./devtools/replay.ts')).replay(recording);
  result.portal.stop();
  return result.snapshots;
};

/** Tells the services' loaders (`painted` above) that React has committed the page. */
function Committed({ children }: { children: ReactNode }) {
  useEffect(() => committed(), []);
  return children;
}

const page = (portal: PortalActor, prerendered: PortalActor | null, devtools: DevtoolsOptions | null) => (
  <StrictMode>
    <Committed>
      <App
        portal={portal}
        prerendered={prerendered}
        devtools={devtools}
        settings={uiSettings(config)}
        localWalletViews={localWalletViews}
      />
    </Committed>
  </StrictMode>
);

// A production build's #root holds the first screen, rendered at build time (src/prerender.tsx):
// React hydrates it, rendering first from the never-started portal that HTML was rendered from, then
// from the live one. The developer panel and the inspector draw what that HTML does not have, so
// with either the page is rendered anew, as it is by the dev server, whose #root is empty.
function show(portal: PortalActor, devtools: DevtoolsOptions | null): void {
  if (!root) return;
  if (root.hasChildNodes() && !devtools && !inspecting) {
    hydrateRoot(root, page(portal, prerenderedPortal(config), null), {
      onRecoverableError: (error, info) => console.error('[hydration]', error, info.componentStack ?? ''),
    });
  } else {
    root.replaceChildren();
    createRoot(root).render(page(portal, null, devtools));
  }
}

/** Lets the browser run what waits (a tap, a paint) before the next step of the boot. */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

async function boot(): Promise<void> {
  // With the developer panel, the portal is made once the journal that records it has loaded; a
  // journal that could not load leaves the portal without the panel.
  const journal = await recorder?.catch((error: unknown) => {
    console.error('[devtools] the event journal could not be loaded:', error);
    return null;
  });
  const inspect = await inspectorOf(journal ?? null);
  await nextTask();
  const portal = createPortal(inspect);
  await nextTask();
  portal.start();
  await nextTask();
  show(portal, journal ? { journal: journal.journal, replay } : null);
}
void boot();

// The send form's and the balances' chunk, asked for once the page has loaded: off the first
// paint's path, and there by the time a wallet that reconnects at start shows them
// (src/ui/portal/late-views-loader.ts).
if (document.readyState === 'complete') void loadLateViews();
else window.addEventListener('load', () => void loadLateViews(), { once: true });
