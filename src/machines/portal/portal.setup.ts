import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type EventFromLogic } from 'xstate';
import type { AuthUser } from '../../domain/auth.ts';
import { authMachine, type AuthFact, type AuthInput } from '../auth/auth.machine.ts';
import { balancesMachine } from '../balances.machine.ts';
import type { botsMachine } from '../bots/bots.machine.ts';
import { dialogsMachine, type DialogsFact } from '../dialogs.machine.ts';
import type { FaucetFact, faucetMachine } from '../faucet/faucet.machine.ts';
import { notificationsMachine } from '../notifications.machine.ts';
import { profileMachine } from '../profile/profile.machine.ts';
import { sendMachine, type SendFact } from '../send/send.machine.ts';
import { notProvided, type ToastRequest, type ToastRequested } from '../shared.ts';
import { tabMachine, type TabFact } from '../tab.machine.ts';
import { tellerOf } from '../tell.ts';
import { themeMachine, type ThemeInput } from '../theme.machine.ts';
import { toastMachine, type ToastFact } from '../toast.machine.ts';
import type { TradingFact, tradingMachine } from '../trading/trading.machine.ts';
import { transactionsMachine } from '../transactions.machine.ts';
import { unsubscribeMachine, type UnsubscribeFact } from '../unsubscribe.machine.ts';
import { walletMachine, type WalletFact } from '../wallet/wallet.machine.ts';
import { webhooksMachine } from '../webhooks.machine.ts';

// The root's setup: its types, its children and the actions its states share. The states are
// portal.machine.ts (the chart) and its regions (portal.session.ts, portal.tabs.ts).

/** Which of the tabs with an actor of their own the configuration provides (src/app/boot.ts tabsOf). */
export type TabsAvailable = { trading: boolean; bots: boolean };

export type PortalInput = {
  theme: ThemeInput;
  auth: AuthInput;
  expectedChain: { id: number; name: string };
  tokenConfigured: boolean;
  tabs: TabsAvailable;
  /** A build for the local chain offers its own test wallet (src/config/local-wallet-build.ts). */
  offersLocalWallet?: boolean;
  /** The token of the email alert unsubscribe link the page was opened with, if any. */
  unsubscribeToken?: string | null;
};

/** The Trading and Bots tabs' root logic: it loads with its tab, so only its type is known here. */
export type TradingLogic = typeof tradingMachine;
export type BotsLogic = typeof botsMachine;
/** The faucet's logic: it loads with a signed-in session, so only its type is known here. */
export type FaucetLogic = typeof faucetMachine;

export type PortalContext = {
  /** The portal's configuration (its input), which the children start from. */
  config: PortalInput;
  user: AuthUser | null;
  walletAddress: string | null;
  walletChainId: number | null;
  authReady: boolean;
  walletReady: boolean;
  /** The DEX Trading tab's actor while that tab is shown and its code has loaded. */
  trading: ActorRefFrom<TradingLogic> | null;
  /** The Trading Bots tab's actor while that tab is shown and its code has loaded. */
  bots: ActorRefFrom<BotsLogic> | null;
  /** The faucet's actor while a user is signed in and its code has loaded. */
  faucet: ActorRefFrom<FaucetLogic> | null;
};

/** Everything the root hears: the facts its children report, and nothing else. */
export type PortalEvent =
  | AuthFact
  | WalletFact
  | SendFact
  | DialogsFact
  | ToastFact
  | ToastRequested
  | TabFact
  | TradingFact
  | FaucetFact
  | UnsubscribeFact;

const children = {
  tab: tabMachine,
  theme: themeMachine,
  toast: toastMachine,
  auth: authMachine,
  profile: profileMachine,
  wallet: walletMachine,
  balances: balancesMachine,
  send: sendMachine,
  notifications: notificationsMachine,
  transactions: transactionsMachine,
  webhooks: webhooksMachine,
  dialogs: dialogsMachine,
  unsubscribe: unsubscribeMachine,
};

type Children = typeof children;

/** Each child's id, the same as its actor's name and its system id. */
export type PortalChildId = keyof Children;

/** Each child's id with the events it takes: what `tell` checks a send against. */
export type PortalInbox = { [K in PortalChildId]: EventFromLogic<Children[K]> };

/** The root's typed `sendTo` by child id (tell.ts). */
export const tell = tellerOf<PortalContext, PortalEvent, PortalInbox>();

export const portalSetup = setup({
  types: {} as {
    context: PortalContext;
    events: PortalEvent;
    input: PortalInput;
    children: { [K in PortalChildId]: K } & {
      loadTrading: 'loadTrading';
      loadBots: 'loadBots';
      loadFaucet: 'loadFaucet';
    };
  },
  actors: {
    ...children,
    /** Loads the DEX Trading tab's code and gives its root logic, provided by the composition root. */
    loadTrading: fromPromise<TradingLogic>(notProvided('loadTrading')),
    /** Loads the Trading Bots tab's code and gives its root logic, provided by the composition root. */
    loadBots: fromPromise<BotsLogic>(notProvided('loadBots')),
    /** Loads the faucet's code and gives its logic, provided by the composition root. */
    loadFaucet: fromPromise<FaucetLogic>(notProvided('loadFaucet')),
  },
  actions: {
    showToast: tell('toast', (_, toast: ToastRequest) => ({ type: 'toast.show', toast })),
    /** The children that follow the session are told who is signed in (one shape for all). */
    tellSessionWatchers: enqueueActions(({ context, enqueue }) => {
      const session = { type: 'session.changed', user: context.user } as const;
      enqueue(tell('wallet', session));
      enqueue(tell('send', session));
      if (context.trading) enqueue.sendTo(context.trading, session);
      if (context.bots) enqueue.sendTo(context.bots, session);
    }),
    /** The root's own record of the wallet, which its watchers are then told. */
    followWallet: assign(({ event }) => {
      switch (event.type) {
        case 'wallet.connected':
        case 'wallet.accountChanged':
          return { walletAddress: event.address, walletChainId: event.chainId };
        case 'wallet.chainChanged':
          return { walletChainId: event.chainId };
        case 'wallet.disconnected':
          return { walletAddress: null, walletChainId: null };
        default:
          return {};
      }
    }),
    /** Balances, send, webhooks and the trading tab follow the connected wallet and its chain. */
    tellWalletWatchers: enqueueActions(({ context, enqueue }) => {
      const wallet = {
        type: 'wallet.changed',
        address: context.walletAddress,
        chainId: context.walletChainId,
      } as const;
      enqueue(tell('balances', wallet));
      enqueue(tell('send', wallet));
      enqueue(tell('webhooks', wallet));
      if (context.trading) enqueue.sendTo(context.trading, wallet);
    }),
    refreshBalances: tell('balances', { type: 'balances.refresh' }),
    /** The profile keeps the connected wallet linked, or unlinks it. */
    tellProfileWallet: tell('profile', ({ event }) =>
      event.type === 'wallet.connected' || event.type === 'wallet.accountChanged'
        ? { type: 'wallet.linked', address: event.address }
        : { type: 'wallet.unlinked' },
    ),
  },
  guards: {
    // "Loading has finished" (docs/product.md#loading): both the session and the wallet's
    // silent reconnect have settled, and neither found anybody.
    nobodyAfterLoading: ({ context }) =>
      context.authReady && context.walletReady && context.user === null && context.walletAddress === null,
    loadingFinished: ({ context }) => context.authReady && context.walletReady,
    isOtherUser: ({ context, event }) => event.type === 'auth.signedIn' && event.user.id !== context.user?.id,
    /** The tab shown is `tab`, and the configuration provides its actor. */
    opens: ({ context, event }, params: { tab: keyof TabsAvailable }) =>
      event.type === 'tab.shown' && event.tab === params.tab && context.config.tabs[params.tab],
    /** Another tab than `tab` is shown. */
    leaves: ({ event }, params: { tab: keyof TabsAvailable }) =>
      event.type === 'tab.shown' && event.tab !== params.tab,
  },
});
