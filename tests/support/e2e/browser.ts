import type { Session } from '@supabase/supabase-js';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';
import type { ChainAccount } from '../../../stack/chain/index.ts';
import { mockWalletInitScript, type MockWalletControls, type MockWalletOptions } from '../mock-wallet.ts';
import { CHROMIUM_ARGS } from './chromium.ts';
import { e2e, gatewayFor, type AppVariant } from './context.ts';
import { seedSession, sessionStorageKey, storedSession } from './session.ts';

// One Chromium per e2e worker (launched on first use; the worker's files share
// it, and it ends with the worker's process) and one fresh browser context per
// openPortal(): its own storage, colour scheme and viewport, the mock wallet (and a stored session)
// injected before any page script runs, and every console message and
// uncaught error collected.

declare global {
  interface Window {
    __mockWallet?: MockWalletControls;
    __mockWalletRelease?: () => void;
  }
}

export const DESKTOP_VIEWPORT = { width: 1280, height: 800 } as const;
/** The narrowest phone the portal supports. */
export const PHONE_VIEWPORT = { width: 360, height: 780 } as const;

export type Viewport = { width: number; height: number };

export type WalletSetup = {
  /** The selected account (the first one the wallet reports). */
  account: ChainAccount | `0x${string}`;
  /** Further accounts the wallet holds, e.g. for accountsChanged. */
  otherAccounts?: (ChainAccount | `0x${string}`)[];
} & Partial<Omit<MockWalletOptions, 'accounts' | 'rpcUrl'>>;

export type PortalOptions = {
  /** Which build to open; default 'full'. */
  variant?: AppVariant;
  /** The mock EIP-6963 wallet; omitted or false: a browser without a wallet extension. */
  wallet?: WalletSetup | false;
  /** The system colour scheme the page sees; default 'light'. */
  colorScheme?: 'light' | 'dark';
  /** Default DESKTOP_VIEWPORT. */
  viewport?: Viewport;
  /** Path (and query or hash) to open on the app's origin; default '/'. */
  path?: string;
  /**
   * Installs Playwright's clock before any page script: time flows as usual until a test moves it
   * on (`page.clock.fastForward`), so a timer of the portal can be fired without waiting for it.
   */
  clock?: boolean;
  /**
   * A session the portal finds stored when it first loads, as supabase-js leaves it after a sign-in
   * (`signUpByApi` in session.ts): the portal opens signed in. Only the first document gets it; a
   * reload or another tab finds whatever the portal stored since (a refreshed token, a sign-out).
   */
  session?: Session;
  /**
   * Runs on the new page before it loads the portal: routes and listeners that must see its very
   * first requests (a portal opened signed in reads the profile and joins the feed at once).
   */
  beforeLoad?: (page: Page) => unknown;
};

export type ConsoleEntry = { type: string; text: string };

export type WalletHandle = {
  /** The selected account at start. */
  address: `0x${string}`;
  accounts: `0x${string}`[];
  /** The next request of any method fails with this EIP-1193 code (4001: the user rejected it). */
  rejectNext(code?: number, message?: string): Promise<void>;
  /** The next request of this method fails with this code (4001 by default); others are answered. */
  rejectNextOf(method: string, code?: number, message?: string): Promise<void>;
  /** The next request fails with -32002 (a prompt already open). */
  pendingNext(): Promise<void>;
  /** The next wallet_switchEthereumChain answers 4902. */
  failSwitchWith4902Once(): Promise<void>;
  /** The next eth_sendTransaction goes out with this gas limit (too little: mined, and it fails). */
  sendWithGasNext(gas: number): Promise<void>;
  /** The next transaction goes out with a nonce this far ahead of the chain's (the mock's control). */
  sendWithNonceAheadNext(ahead: number): Promise<void>;
  /** The next wallet_watchAsset answers `false`, refuses (4001) or has no such method (-32601). */
  watchAssetNext(answer: false | 4001 | -32601): Promise<void>;
  /** The parameters of every wallet_watchAsset the wallet received so far on the current page. */
  watchedAssets(): Promise<unknown[]>;
  /** The next request waits, like a prompt left open, until the returned function is awaited. */
  holdNext(): Promise<() => Promise<void>>;
  /**
   * The next request of this method waits until the returned function is awaited (or
   * `window.__mockWalletRelease()` is called); requests of other methods are answered meanwhile.
   */
  holdNextOf(method: string): Promise<() => Promise<void>>;
  setAccounts(accounts: string[]): Promise<void>;
  emitAccountsChanged(accounts: string[]): Promise<void>;
  emitChainChanged(chainId: number): Promise<void>;
  emitDisconnect(): Promise<void>;
  /** Method names of every request the wallet received so far on the current page. */
  requests(): Promise<string[]>;
  /** Method names of the requests the wallet has answered or refused so far, in that order. */
  answered(): Promise<string[]>;
  isConnected(): Promise<boolean>;
  listenerCount(event: string): Promise<number>;
};

export type Portal = {
  page: Page;
  context: BrowserContext;
  /** The app's origin for this variant. */
  appUrl: string;
  /** null when opened without a wallet. */
  wallet: WalletHandle | null;
  /** Every console message of every page of this context, in order. */
  console: ConsoleEntry[];
  /** Uncaught errors and unhandled rejections in the pages. */
  pageErrors: Error[];
  /** Requests that tried to leave 127.0.0.1 (the browser refuses them; a test can assert there were none). */
  externalRequests: string[];
  /** Everything logged to the console, one message a line: for asserting that no secret is printed. */
  consoleText(): string;
  close(): Promise<void>;
};

let browserPromise: Promise<Browser> | null = null;

export function launchBrowser(): Promise<Browser> {
  browserPromise ??= chromium
    .launch({ executablePath: e2e().chromiumPath, headless: true, args: CHROMIUM_ARGS })
    .then((browser) => {
      // A crashed browser is launched again by the next openPortal.
      browser.on('disconnected', () => {
        browserPromise = null;
      });
      return browser;
    });
  return browserPromise;
}

/**
 * Closes what a test file left open in the worker's browser (a context opened in `beforeAll`), so
 * that the next file of the worker starts from the bare browser.
 */
export async function closeContexts(): Promise<void> {
  const browser = await browserPromise?.catch(() => null);
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close().catch(() => undefined)));
}

/**
 * Opens the built portal in a fresh browser context. Closed automatically when the current test
 * finishes (when called from a test), and in any case with the browser after the file.
 */
export async function openPortal(options: PortalOptions = {}): Promise<Portal> {
  const context = e2e();
  const variant = options.variant ?? 'full';
  const appUrl = context.apps[variant].url;
  const browser = await launchBrowser();
  const browserContext = await browser.newContext({
    viewport: options.viewport ?? DESKTOP_VIEWPORT,
    deviceScaleFactor: 1,
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: 'UTC',
    // navigator.clipboard for the copy-address button.
    permissions: ['clipboard-read', 'clipboard-write'],
  });

  const consoleEntries: ConsoleEntry[] = [];
  const pageErrors: Error[] = [];
  const externalRequests: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => consoleEntries.push({ type: message.type(), text: message.text() }));
    page.on('pageerror', (error) => pageErrors.push(error));
  };
  browserContext.on('page', watch);
  browserContext.on('request', (request) => {
    if (!isLocal(request.url())) externalRequests.push(request.url());
  });

  let wallet: WalletHandle | null = null;
  if (options.wallet) {
    const { account, otherAccounts = [], ...walletOptions } = options.wallet;
    const accounts = [account, ...otherAccounts].map(addressOf);
    const script = mockWalletInitScript({
      rpcUrl: context.chain.rpcUrl,
      chainId: context.chain.chainId,
      ...walletOptions,
      accounts,
    });
    await browserContext.addInitScript({ content: script });
  }

  const seed = options.session
    ? await browserContext.addInitScript(seedSession, {
        origin: appUrl,
        // The portal's client is made for the URL it was built with.
        key: sessionStorageKey(context.apps[variant].env['VITE_SUPABASE_URL'] ?? gatewayFor(variant).url),
        value: storedSession(options.session),
      })
    : null;

  if (options.clock) await browserContext.clock.install();
  const page = await browserContext.newPage();
  if (options.wallet) wallet = walletHandle(page, options.wallet);

  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= browserContext.close().catch(() => undefined);
    return closed;
  };
  try {
    onTestFinished(close);
  } catch {
    // Opened outside a test (e.g. in beforeAll): closed with the browser after the file.
  }

  await options.beforeLoad?.(page);
  await page.goto(`${appUrl}${options.path ?? '/'}`, { waitUntil: 'load' });
  await seed?.dispose();
  return {
    page,
    context: browserContext,
    appUrl,
    wallet,
    console: consoleEntries,
    pageErrors,
    externalRequests,
    consoleText: () => consoleEntries.map((entry) => `[${entry.type}] ${entry.text}`).join('\n'),
    close,
  };
}

function walletHandle(page: Page, setup: WalletSetup): WalletHandle {
  const accounts = [setup.account, ...(setup.otherAccounts ?? [])].map(addressOf);
  const [address] = accounts;
  if (!address) throw new Error('the mock wallet needs an account');
  // Each call runs in the page the test is on now; a reload installs a fresh mock (see README.md).
  const call = <Method extends CallableControl>(
    method: Method,
    ...args: Parameters<MockWalletControls[Method]>
  ): Promise<Awaited<ReturnType<MockWalletControls[Method]>>> =>
    page.evaluate(
      ([name, values]) => {
        const wallet = window.__mockWallet;
        if (!wallet) throw new Error('the mock wallet is not installed on this page');
        if (name === 'holdNext') {
          window.__mockWalletRelease = wallet.holdNext();
          return undefined;
        }
        if (name === 'holdNextOf') {
          window.__mockWalletRelease = wallet.holdNextOf(String(values[0]));
          return undefined;
        }
        const control = wallet[name] as (...input: unknown[]) => unknown;
        return control(...values);
      },
      [method, args] as const,
    ) as Promise<Awaited<ReturnType<MockWalletControls[Method]>>>;
  return {
    address,
    accounts,
    rejectNext: (code = 4001, message) => call('rejectNext', code, message),
    rejectNextOf: (method, code = 4001, message) => call('rejectNextOf', method, code, message),
    pendingNext: () => call('pendingNext'),
    failSwitchWith4902Once: () => call('failSwitchWith4902Once'),
    sendWithGasNext: (gas) => call('sendWithGasNext', gas),
    sendWithNonceAheadNext: (ahead) => call('sendWithNonceAheadNext', ahead),
    watchAssetNext: (answer) => call('watchAssetNext', answer),
    watchedAssets: () => page.evaluate(() => window.__mockWallet?.watchedAssets.slice() ?? []),
    holdNext: async () => {
      await call('holdNext');
      return async () => {
        await page.evaluate(() => window.__mockWalletRelease?.());
      };
    },
    holdNextOf: async (method) => {
      await call('holdNextOf', method);
      return async () => {
        await page.evaluate(() => window.__mockWalletRelease?.());
      };
    },
    setAccounts: (next) => call('setAccounts', next),
    emitAccountsChanged: (next) => call('emitAccountsChanged', next),
    emitChainChanged: (chainId) => call('emitChainChanged', chainId),
    emitDisconnect: () => call('emitDisconnect'),
    requests: () => page.evaluate(() => window.__mockWallet?.requests.slice() ?? []),
    answered: () => page.evaluate(() => window.__mockWallet?.answered.slice() ?? []),
    isConnected: () => call('isConnected'),
    listenerCount: (event) => call('listenerCount', event),
  };
}

type CallableControl = Exclude<
  {
    [Key in keyof MockWalletControls]: MockWalletControls[Key] extends (...args: never[]) => unknown
      ? Key
      : never;
  }[keyof MockWalletControls],
  'emitRaw' | 'uninstall'
>;

function addressOf(account: ChainAccount | `0x${string}`): `0x${string}` {
  return typeof account === 'string' ? account : account.address;
}

function isLocal(url: string): boolean {
  if (!/^(https?|wss?):/.test(url)) return true; // data:, blob:, about:
  const { hostname } = new URL(url);
  return hostname === '127.0.0.1' || hostname === 'localhost';
}
