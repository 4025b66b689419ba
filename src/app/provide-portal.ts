import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { authMachine } from '../machines/auth/auth.machine.ts';
import { unsubscribeMachine } from '../machines/unsubscribe.machine.ts';
import { balancesMachine } from '../machines/balances.machine.ts';
import { historyOutboxMachine } from '../machines/send/history-outbox.machine.ts';
import { notificationsMachine, type NotificationFeedEvent } from '../machines/notifications.machine.ts';
import {
  portalMachine,
  type BotsLogic,
  type FaucetLogic,
  type TradingLogic,
} from '../machines/portal/portal.machine.ts';
import { profileLoadMachine } from '../machines/profile/profile-load.machine.ts';
import { profileMachine } from '../machines/profile/profile.machine.ts';
import { sendMachine } from '../machines/send/send.machine.ts';
import { themeMachine, type Theme, type ThemeStoreEvent } from '../machines/theme.machine.ts';
import { transactionsMachine } from '../machines/transactions.machine.ts';
import { walletProofMachine } from '../machines/profile/wallet-proof.machine.ts';
import { walletSendMachine } from '../machines/send/wallet-send.machine.ts';
import {
  walletMachine,
  type WalletAccount,
  type WalletProviderEvent,
} from '../machines/wallet/wallet.machine.ts';
import type { TakenLocalWallet } from '../machines/wallet/wallet-types.ts';
import { webhooksMachine, type WebhookSummary } from '../machines/webhooks.machine.ts';
import type { Profile, ProfileUpsert } from '../domain/profile.ts';
import type { SupabaseService } from '../services/supabase/types.ts';
import type { TatumService } from '../services/tatum/types.ts';
import type { TokenService } from '../services/token/types.ts';
import type { WalletService } from '../services/wallet/types.ts';

// Turns the services into the actors each machine declares, and the machines
// into the portal. It takes service *interfaces*: src/main.tsx passes the real
// implementations, headless tests may pass the same ones against the local
// stack. Every effect of the portal goes through one of these actors.

export type PortalServices = {
  supabase: SupabaseService;
  wallet: WalletService;
  /** null without a backend (its functions hold the Tatum key): balances then fail with the service's message. */
  tatum: TatumService | null;
  /** null when no DDEX contract is configured (the spec's 'Configuration Error' demo). */
  token: TokenService | null;
  /** Where the chosen theme is kept (localStorage in the browser). */
  themeStorage: { setItem(key: string, value: string): void };
  /** Follows the system's dark-mode preference; returns the unsubscribe. */
  watchSystemTheme(onChange: (prefersDark: boolean) => void): () => void;
  /** Where failures the spec says are "only logged" go, and the webhook list ("check console"). */
  log: { failure(what: string, error: unknown): void; webhooks(list: unknown[]): void };
  /** The page's origin: the domain and URI of the messages a wallet signs to prove itself. */
  siteUrl: string;
  /** The DDEX contract the wallet is asked to list (EIP-747); absent or null when none is configured. */
  tokenAddress?: string | null;
  /**
   * Load the Trading and Bots tabs' code and give their root logic, which the portal spawns while
   * the tab is shown; a tab the configuration does not provide has none.
   */
  tabs?: { loadTrading?: () => Promise<TradingLogic>; loadBots?: () => Promise<BotsLogic> };
  /** The local test wallet, in a build for the local chain only (src/app/local-wallet.ts). */
  localWallet?: { take(): Promise<TakenLocalWallet> };
  /** Load the faucet's code and give its logic, which the portal spawns for a signed-in session. */
  loadFaucet?: () => Promise<FaucetLogic>;
};

export const THEME_KEY = 'theme';

function unavailable(what: string): Promise<never> {
  return Promise.reject(new Error(`${what} is not configured for this portal.`));
}

/** viem's EIP-4361 code, loaded with a wallet's first proof rather than with the page. */
const loadSiwe = () => import('../services/wallet/siwe.ts');
/** Asking the wallet to list DDEX, with the words of its answers: loaded on the first press. */
const loadWatchToken = () => import('./watch-token.ts');

export function providePortal(services: PortalServices) {
  const { supabase, wallet, tatum, token } = services;

  const theme = themeMachine.provide({
    actors: {
      themeStore: fromCallback<ThemeStoreEvent>(({ receive, sendBack }) => {
        receive((event) => services.themeStorage.setItem(THEME_KEY, event.theme satisfies Theme));
        return services.watchSystemTheme((prefersDark) =>
          sendBack({ type: 'theme.systemChanged', prefersDark }),
        );
      }),
    },
  });

  const auth = authMachine.provide({
    actors: {
      getSession: fromPromise(() => supabase.getSession()),
      authChanges: fromCallback(({ sendBack }) =>
        supabase.onAuthChange((change) => sendBack({ type: 'auth.change', change })),
      ),
      signIn: fromPromise(({ input }) => supabase.signIn({ email: input.email, password: input.password })),
      signUp: fromPromise(({ input }) => supabase.signUp({ email: input.email, password: input.password })),
      // The wallet signs through the wallet service, one prompt at a time like every other, and a
      // signature that comes after the dialog closed (the actor stopped) signs nobody in.
      signInWithWallet: fromPromise(async ({ input, signal }) => {
        const { siweMessage, siweNonce } = await loadSiwe();
        const message = siweMessage({
          url: services.siteUrl,
          chainId: wallet.chain.id,
          address: input.address,
          nonce: siweNonce(),
          now: new Date(),
          statement: input.statement,
        });
        const signature = await wallet.signMessage(input.address, message);
        if (signal.aborted) throw new Error('The wallet sign-in was closed before the wallet signed');
        return supabase.signInWithWallet({ message, signature });
      }),
      signOut: fromPromise<unknown>(() => supabase.signOut()),
      requestPasswordReset: fromPromise(({ input }) => supabase.requestPasswordReset(input.email)),
      updatePassword: fromPromise(({ input }) => supabase.updatePassword(input.password)),
    },
  });

  const upsertProfile = fromPromise<Profile, ProfileUpsert>(({ input }) => supabase.upsertProfile(input));
  const profile = profileMachine.provide({
    actors: {
      profileLoad: profileLoadMachine.provide({
        actors: {
          fetchProfile: fromPromise(({ input }) => supabase.fetchProfile(input.userId)),
          upsertProfile,
        },
      }),
      walletProof: walletProofMachine.provide({
        actors: {
          requestWalletNonce: fromPromise(({ input }) => supabase.requestWalletNonce(input.address)),
          signProof: fromPromise(async ({ input }) => {
            const { siweMessage } = await loadSiwe();
            const message = siweMessage({
              url: services.siteUrl,
              chainId: wallet.chain.id,
              address: input.address,
              nonce: input.nonce,
              now: new Date(),
              statement: input.statement,
              notAfter: new Date(input.expiresAt),
            });
            return { message, signature: await wallet.signMessage(input.address, message) };
          }),
          linkWallet: fromPromise(({ input }) => supabase.linkWallet(input)),
        },
      }),
      upsertProfile,
      clearWallet: fromPromise(({ input }) => supabase.clearWallet(input.userId)),
      setEmailAlert: fromPromise(({ input }) => supabase.setEmailAlert(input.kind, input.on)),
      updateMetadata: fromPromise(({ input }) => supabase.updateUserMetadata(input)),
      uploadAvatar: fromPromise(async ({ input }) =>
        supabase.avatarPublicUrl(await supabase.uploadAvatar(input.userId, input.file)),
      ),
      removeAvatar: fromPromise(({ input }) => supabase.removeAvatar(input.userId, input.avatarUrl)),
    },
    actions: { logFailure: (_, params) => services.log.failure(params.what, params.error) },
  });

  const walletChart = walletMachine.provide({
    actors: {
      discover: fromPromise<{ available: boolean }>(() => wallet.discover()),
      silentReconnect: fromPromise<WalletAccount | null>(() => wallet.silentReconnect()),
      requestAccounts: fromPromise<WalletAccount>(() => wallet.requestAccounts()),
      switchChain: fromPromise<unknown, { chainId: number }>(({ input }) =>
        wallet.switchChain(input.chainId),
      ),
      copyAddress: fromPromise<unknown, { address: string }>(({ input }) =>
        wallet.copyAddress(input.address),
      ),
      forgetConnection: fromPromise<unknown>(() => wallet.forgetConnection()),
      takeLocalWallet: fromPromise<TakenLocalWallet>(() =>
        services.localWallet ? services.localWallet.take() : unavailable('The local test wallet'),
      ),
      watchToken: fromPromise(async () =>
        (await loadWatchToken()).watchDdex(wallet, services.tokenAddress ?? null),
      ),
      providerEvents: fromCallback<EventObject>(({ sendBack }) =>
        wallet.watch({
          accountsChanged: (accounts) =>
            sendBack({ type: 'provider.accountsChanged', accounts } satisfies WalletProviderEvent),
          chainChanged: (chainId) =>
            sendBack({ type: 'provider.chainChanged', chainId } satisfies WalletProviderEvent),
          disconnect: () => sendBack({ type: 'provider.disconnected' } satisfies WalletProviderEvent),
        }),
      ),
    },
  });

  const balances = balancesMachine.provide({
    actors: {
      fetchNativeBalance: fromPromise(({ input }) =>
        tatum ? tatum.getNativeBalance(input.address) : unavailable('The backend'),
      ),
      fetchTokenBalance: fromPromise(({ input }) =>
        token ? token.readBalance(input.address) : unavailable('The DDEX token'),
      ),
      // The wallet service's clipboard write takes any text, here a balance's exact value.
      copyBalance: fromPromise(({ input }) => wallet.copyAddress(input.text)),
    },
  });

  const send = sendMachine.provide({
    actors: {
      prepareTransfer: fromPromise(({ input }) =>
        token
          ? token.prepareTransfer({
              privateKey: input.privateKey.reveal(),
              to: input.to,
              amount: input.amount,
              expectedFrom: input.expectedFrom,
            })
          : unavailable('The DDEX token'),
      ),
      signTransfer: fromPromise(({ input }) =>
        token
          ? token.signTransfer({ privateKey: input.privateKey.reveal(), prepared: input.prepared })
          : unavailable('The DDEX token'),
      ),
      broadcastTransfer: fromPromise(({ input }) =>
        token ? token.broadcastTransfer(input) : unavailable('The DDEX token'),
      ),
      historyOutbox: historyOutboxMachine.provide({
        actors: {
          recordTransaction: fromPromise(({ input }) => supabase.recordTransaction(input.hash)),
        },
      }),
      confirmTransfer: fromPromise(({ input }) =>
        token ? token.confirmTransfer(input) : unavailable('The DDEX token'),
      ),
      walletSend: walletSendMachine.provide({
        actors: {
          prepareWalletTransfer: fromPromise(({ input }) =>
            token ? token.prepareWalletTransfer(input) : unavailable('The DDEX token'),
          ),
          requestWalletTransfer: fromPromise(({ input }) => wallet.sendTransaction(input)),
          confirmTransfer: fromPromise(({ input }) =>
            token ? token.confirmTransfer(input) : unavailable('The DDEX token'),
          ),
        },
      }),
    },
  });

  const notifications = notificationsMachine.provide({
    actors: {
      listNotifications: fromPromise(({ input }) => supabase.listNotifications(input.userId)),
      markRead: fromPromise(({ input }) => supabase.markNotificationsRead(input.ids)),
      clearNotifications: fromPromise(({ input }) => supabase.clearNotifications(input.userId)),
      notificationFeed: fromCallback<EventObject, { userId: string }>(({ input, sendBack }) =>
        supabase.subscribeNotifications(input.userId, {
          onChange: (change) =>
            sendBack({ type: 'notifications.changed', ...change } satisfies NotificationFeedEvent),
          onStatus: (status) =>
            sendBack({ type: 'notifications.feedStatus', status } satisfies NotificationFeedEvent),
        }),
      ),
    },
  });

  const transactions = transactionsMachine.provide({
    actors: {
      listTransactions: fromPromise(({ input }) => supabase.listTransactions(input.userId)),
    },
  });

  const webhooks = webhooksMachine.provide({
    actors: {
      createWebhook: fromPromise(({ input }) =>
        tatum ? tatum.createAddressWebhook(input) : unavailable('Tatum'),
      ),
      listWebhooks: fromPromise<WebhookSummary[]>(() =>
        tatum ? tatum.listWebhooks() : unavailable('Tatum'),
      ),
      deleteWebhook: fromPromise(({ input }) =>
        tatum ? tatum.deleteWebhook(input.id) : unavailable('Tatum'),
      ),
    },
    actions: { logWebhooks: (_, params) => services.log.webhooks(params.webhooks) },
  });

  const { loadTrading, loadBots } = services.tabs ?? {};

  return portalMachine.provide({
    actors: {
      loadTrading: fromPromise(() => (loadTrading ? loadTrading() : unavailable('The DEX market'))),
      loadBots: fromPromise(() => (loadBots ? loadBots() : unavailable('Trading bots'))),
      loadFaucet: fromPromise(() => services.loadFaucet?.() ?? unavailable('The faucet')),
      theme,
      auth,
      profile,
      wallet: walletChart,
      balances,
      send,
      notifications,
      transactions,
      webhooks,
      unsubscribe: unsubscribeMachine.provide({
        actors: { unsubscribeEmail: fromPromise(({ input }) => supabase.unsubscribeEmail(input.token)) },
      }),
    },
  });
}
