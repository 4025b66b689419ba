import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor } from 'xstate';
import { browserInspector, combineInspectors, inspectRequested } from './app/inspector.ts';
import { createJournal } from './app/journal.ts';
import type { JournalExport } from './app/journal-types.ts';
import { providePortal, THEME_KEY } from './app/provide-portal.ts';
import { readAppConfig } from './config/app-config.ts';
import { createSupabaseClient, createSupabaseService } from './services/supabase/index.ts';
import { createTatumService } from './services/tatum/index.ts';
import { createTokenService } from './services/token/index.ts';
import { createWalletService } from './services/wallet/index.ts';
import { App } from './ui/App.tsx';
import { devtoolsEnabled } from './ui/devtools/gate.ts';

// Composition root: the only place that builds service implementations. It
// reads the configuration, makes the services, provides them to the portal's
// statecharts and starts the actor system.

const config = readAppConfig(import.meta.env);
for (const problem of config.problems) console.warn(`[config] ${problem}`);

const supabase = createSupabaseService(config.supabase ? createSupabaseClient(config.supabase) : null, {
  siteUrl: window.location.origin,
});
const wallet = createWalletService({
  window,
  chain: {
    id: config.chain.id,
    name: config.chain.name,
    rpcUrl: config.rpcUrl ?? '',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  },
});
const tatum = config.rpcUrl
  ? createTatumService({
      apiKey: config.tatum.apiKey,
      apiUrl: config.tatum.apiUrl,
      rpcUrl: config.rpcUrl,
      // Tatum knows mainnet and testnets; every chain but mainnet (Sepolia, the local one) is a testnet to it.
      network: config.chain.id === 1 ? 'ethereum' : 'ethereum-sepolia',
    })
  : null;
const token =
  config.tokenAddress && config.rpcUrl
    ? createTokenService({
        rpcUrl: config.rpcUrl,
        chainId: config.chain.id,
        tokenAddress: config.tokenAddress,
      })
    : null;

const darkScheme = window.matchMedia('(prefers-color-scheme: dark)');
const storedTheme = window.localStorage.getItem(THEME_KEY);

// Every event that reaches the portal's actor system, redacted and bounded (src/app/journal.ts).
const recorder = createJournal();

// `?inspect`: Stately's browser inspector. It opens stately.ai (online only) and its SDK is loaded
// on demand; without the flag nothing of it runs or downloads (src/app/inspector.ts).
const stately = inspectRequested(window.location.search) ? browserInspector() : null;

const portal = createActor(
  providePortal({
    supabase,
    wallet,
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
  }),
  {
    systemId: 'portal',
    inspect: combineInspectors(recorder.inspect, stately?.inspect),
    input: {
      theme: {
        stored: storedTheme === 'light' || storedTheme === 'dark' ? storedTheme : null,
        systemPrefersDark: darkScheme.matches,
      },
      auth: { clientAvailable: supabase.available, emailRedirectTo: window.location.origin },
      expectedChain: config.chain,
      tokenConfigured: token !== null,
      webhookCallbackUrl: config.supabase ? `${config.supabase.url}/functions/v1/process-payments` : '',
    },
  },
).start();

// The Tatum SDK keeps a load-balancer timer; let it go with the page.
window.addEventListener('pagehide', () => void tatum?.destroy());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The developer panel (a lazy chunk): development builds, or `?devtools` in production. Replay is
// loaded when a journal is imported; the replayed portal is stopped once its snapshots are taken.
const devtools = devtoolsEnabled(window.location.search, import.meta.env.DEV)
  ? {
      journal: recorder.journal,
      replay: async (recording: JournalExport) => {
        const result = (await import('./app/replay.ts')).replay(recording);
        result.portal.stop();
        return result.snapshots;
      },
    }
  : null;

createRoot(root).render(
  <StrictMode>
    <App
      portal={portal}
      devtools={devtools}
      settings={{
        contactEmail: config.contactEmail,
        productSite: config.productSite,
        explorerUrl: config.explorerUrl,
        tokenConfigured: token !== null,
        tokenAddress: token ? config.tokenAddress : null,
        chainName: config.chain.name,
      }}
    />
  </StrictMode>,
);
