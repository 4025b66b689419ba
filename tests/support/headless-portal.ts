import WebSocket from 'ws';
import { createActor, waitFor, type Actor, type AnyActorRef, type InspectionEvent } from 'xstate';
import { providePortal } from '../../src/app/provide-portal.ts';
import type { portalMachine } from '../../src/machines/portal/portal.machine.ts';
import type { ShownToast } from '../../src/machines/toast.machine.ts';
import type { ChainAccount } from '../../stack/chain/index.ts';
import { createSupabaseClient, createSupabaseService } from '../../src/services/supabase/index.ts';
import { createTatumService } from '../../src/services/tatum/index.ts';
import { createTokenService } from '../../src/services/token/index.ts';
import { createWalletService } from '../../src/services/wallet/index.ts';
import { headlessWindow } from './headless-window.ts';
import { installMockWallet, type MockWalletControls } from './mock-wallet.ts';

// The whole portal without a browser: the real statecharts with the real
// services, composed as src/main.tsx composes them, against the local stack
// of the contract tests, with the mock wallet holding `wallet`. Tests drive
// it with the events views send and read the snapshots views render.

export type HeadlessStack = { url: string; anonKey: string; tatumApiUrl: string };
export type HeadlessChain = { rpcUrl: string; chainId: number; tokenAddress: `0x${string}` };
type Snapshot = ReturnType<AnyActorRef['getSnapshot']>;

/** The page the headless portal stands for: the site URL the local stack allows wallet proofs for. */
export const HEADLESS_SITE_URL = 'http://127.0.0.1:5173';

export type HeadlessPortal = {
  portal: Actor<typeof portalMachine>;
  /** Every toast shown so far, in order. */
  toasts: ShownToast[];
  /** The mock wallet the portal finds: its requests, and refusals to script. */
  mockWallet: MockWalletControls;
  child(id: string): AnyActorRef;
  /** Resolves with the first truthy answer of `check` on `actor`'s snapshots. */
  until<T>(
    actor: AnyActorRef,
    check: (snapshot: Snapshot) => T | undefined | false,
    timeoutMs?: number,
  ): Promise<T>;
  toastTitled(title: string): Promise<ShownToast>;
  stop(): Promise<void>;
};

export function startHeadlessPortal(options: {
  stack: HeadlessStack;
  chain: HeadlessChain;
  wallet: ChainAccount;
  inspect?: (event: InspectionEvent) => void;
}): HeadlessPortal {
  const { stack, chain } = options;
  const window = headlessWindow();
  const mockWallet = installMockWallet(window, {
    rpcUrl: chain.rpcUrl,
    accounts: [options.wallet.address],
    chainId: chain.chainId,
  });
  // One client, as in the page: the Tatum service calls the functions with its session.
  const client = createSupabaseClient({
    url: stack.url,
    anonKey: stack.anonKey,
    realtimeTransport: WebSocket,
  });
  const tatum = createTatumService({ client: () => Promise.resolve(client) });
  const machine = providePortal({
    supabase: createSupabaseService(client, { siteUrl: HEADLESS_SITE_URL }),
    wallet: createWalletService({
      window,
      chain: {
        id: chain.chainId,
        name: 'Hardhat (local)',
        rpcUrl: chain.rpcUrl,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      },
      discoveryTimeoutMs: 50,
    }),
    tatum,
    token: createTokenService({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      tokenAddress: chain.tokenAddress,
    }),
    themeStorage: { setItem: (key, value) => window.localStorage?.setItem(key, value) },
    watchSystemTheme: () => () => undefined,
    log: { failure: () => undefined, webhooks: () => undefined },
    siteUrl: HEADLESS_SITE_URL,
    tokenAddress: chain.tokenAddress,
  });
  const portal = createActor(machine, {
    systemId: 'portal',
    inspect: options.inspect,
    input: {
      theme: { stored: null, systemPrefersDark: true },
      auth: { clientAvailable: true },
      expectedChain: { id: chain.chainId, name: 'Hardhat (local)' },
      tokenConfigured: true,
      tabs: { trading: false, bots: false },
    },
  });
  portal.start();

  const toasts: ShownToast[] = [];
  const child = (id: string): AnyActorRef => {
    const ref = portal.system.get(id) as AnyActorRef | undefined;
    if (!ref) throw new Error(`the portal has no ${id}`);
    return ref;
  };
  child('toast').subscribe((snapshot: { context: { toast: ShownToast | null } }) => {
    const shown = snapshot.context.toast;
    if (shown && toasts.at(-1) !== shown) toasts.push(shown);
  });

  const until: HeadlessPortal['until'] = async <T>(
    actor: AnyActorRef,
    check: (snapshot: Snapshot) => T | undefined | false,
    timeoutMs = 15_000,
  ) => {
    let found: T | undefined | false;
    try {
      await waitFor(
        actor,
        (snapshot) => {
          found = check(snapshot);
          return found !== undefined && found !== false;
        },
        { timeout: timeoutMs },
      );
    } catch (error) {
      // Which toasts came is usually what says why the snapshot never did.
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`no matching snapshot: ${reason}; toasts so far: ${JSON.stringify(toasts)}`, {
        cause: error,
      });
    }
    return found as T;
  };

  return {
    portal,
    toasts,
    mockWallet,
    child,
    until,
    toastTitled: (title) => until(child('toast'), () => toasts.find((t) => t.title === title)),
    stop: async () => {
      portal.stop();
      await tatum.destroy();
    },
  };
}
