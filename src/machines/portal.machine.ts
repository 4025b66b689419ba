import { assign, enqueueActions, sendTo, setup } from 'xstate';
import { appCopy, transactionCopy } from '../copy/index.ts';
import type { AuthUser } from '../domain/auth.ts';
import { authMachine, type AuthFact, type AuthInput } from './auth.machine.ts';
import { balancesMachine } from './balances.machine.ts';
import { dialogsMachine, type DialogsFact } from './dialogs.machine.ts';
import { notificationsMachine } from './notifications.machine.ts';
import { profileMachine } from './profile.machine.ts';
import { sendMachine, type SendFact } from './send.machine.ts';
import { showToast } from './shared.ts';
import { tabMachine } from './tab.machine.ts';
import { themeMachine, type ThemeInput } from './theme.machine.ts';
import { toastDurations, toastMachine, type ToastFact } from './toast.machine.ts';
import { transactionsMachine } from './transactions.machine.ts';
import { walletMachine, type WalletFact } from './wallet.machine.ts';
import { webhooksMachine } from './webhooks.machine.ts';

// The root of the portal's actor system. It owns one child per concern (each
// with a system id, so views and toasts can find it), receives the facts the
// children report and tells the children that react to each one (the table in
// README.md). Profile, notifications and transactions exist only while a user
// is signed in: they are invoked in `session.signedIn` with that user and
// stopped on sign-out, so nothing of one session survives into the next.

export type PortalInput = {
  theme: ThemeInput;
  auth: AuthInput;
  expectedChain: { id: number; name: string };
  tokenConfigured: boolean;
};

export type PortalContext = {
  /** The portal's configuration (its input), which the children start from. */
  config: PortalInput;
  user: AuthUser | null;
  walletAddress: string | null;
  walletChainId: number | null;
  authReady: boolean;
  walletReady: boolean;
};

/** Everything the root hears: the facts its children report, and nothing else. */
export type PortalEvent = AuthFact | WalletFact | SendFact | DialogsFact | ToastFact;

/** The children that live as long as the portal; each is found by its system id. */
export const PORTAL_CHILDREN = [
  'toast', 'tab', 'theme', 'auth', 'wallet', 'balances', 'send', 'webhooks', 'dialogs',
] as const; // prettier-ignore

/** The children that live as long as a signed-in session. */
export const SESSION_CHILDREN = ['profile', 'notifications', 'transactions'] as const;

export type PortalChildId = (typeof PORTAL_CHILDREN)[number] | (typeof SESSION_CHILDREN)[number];

export const portalMachine = setup({
  types: {} as { context: PortalContext; events: PortalEvent; input: PortalInput },
  actors: {
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
  },
  actions: {
    showToast,
    /** Wallet and send keep who is signed in (the login hint; only a user's sends are recorded). */
    tellSessionWatchers: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo('wallet', { type: 'session.changed', user: context.user });
      enqueue.sendTo('send', { type: 'session.changed', user: context.user });
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
    /** Balances, send and webhooks follow the connected wallet and its chain. */
    tellWalletWatchers: enqueueActions(({ context, enqueue }) => {
      const wallet = { address: context.walletAddress, chainId: context.walletChainId };
      enqueue.sendTo('balances', { type: 'wallet.changed', ...wallet });
      enqueue.sendTo('send', { type: 'wallet.changed', ...wallet });
      enqueue.sendTo('webhooks', { type: 'wallet.changed', ...wallet });
    }),
    refreshBalances: sendTo('balances', { type: 'balances.refresh' }),
    /** The profile keeps the connected wallet linked, or unlinks it. */
    tellProfileWallet: sendTo('profile', ({ event }) =>
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
  },
}).createMachine({
  id: 'portal',
  context: ({ input }) => ({
    config: input,
    user: null,
    walletAddress: null,
    walletChainId: null,
    authReady: false,
    walletReady: false,
  }),
  invoke: [
    { id: 'toast', systemId: 'toast', src: 'toast' },
    { id: 'tab', systemId: 'tab', src: 'tab' },
    { id: 'dialogs', systemId: 'dialogs', src: 'dialogs' },
    { id: 'theme', systemId: 'theme', src: 'theme', input: ({ context }) => context.config.theme },
    { id: 'auth', systemId: 'auth', src: 'auth', input: ({ context }) => context.config.auth },
    {
      id: 'wallet',
      systemId: 'wallet',
      src: 'wallet',
      input: ({ context }) => ({ expectedChain: context.config.expectedChain }),
    },
    {
      id: 'balances',
      systemId: 'balances',
      src: 'balances',
      input: ({ context }) => ({ tokenConfigured: context.config.tokenConfigured }),
    },
    {
      id: 'send',
      systemId: 'send',
      src: 'send',
      input: ({ context }) => ({ tokenConfigured: context.config.tokenConfigured }),
    },
    // Its subscriptions call the backend's process-payments function, which the server names.
    { id: 'webhooks', systemId: 'webhooks', src: 'webhooks' },
  ],
  type: 'parallel',
  // A toast's action button asks the machine that showed it to act again.
  on: { 'toast.actionPressed': { actions: sendTo('wallet', ({ event }) => event.action) } },
  states: {
    // Decides once, when both the session and the wallet have settled, whether the visitor
    // gets the welcome toast.
    boot: {
      initial: 'loading',
      states: {
        loading: {
          on: {
            'auth.ready': { target: 'settling', actions: assign({ authReady: true }) },
            'wallet.ready': {
              target: 'settling',
              actions: assign({ walletReady: true, walletAddress: ({ event }) => event.address }),
            },
          },
        },
        settling: {
          always: [
            {
              guard: 'nobodyAfterLoading',
              target: 'ready',
              actions: {
                type: 'showToast',
                params: { ...appCopy.welcome, durationMs: toastDurations.welcome, onlyIfIdle: true },
              },
            },
            { guard: 'loadingFinished', target: 'ready' },
            { target: 'loading' },
          ],
        },
        ready: {},
      },
    },
    session: {
      initial: 'signedOut',
      states: {
        signedOut: {
          on: {
            // A stored session: the user is signed in from the start.
            'auth.ready': {
              guard: ({ event }) => event.user !== null,
              target: 'signedIn',
              actions: assign({ user: ({ event }) => event.user }),
            },
            'auth.signedIn': { target: 'signedIn', actions: assign({ user: ({ event }) => event.user }) },
            'wallet.connected': { actions: ['followWallet', 'tellWalletWatchers'] },
            'wallet.accountChanged': { actions: ['followWallet', 'tellWalletWatchers'] },
            'wallet.disconnected': { actions: ['followWallet', 'tellWalletWatchers'] },
            'wallet.chainChanged': { actions: ['followWallet', 'tellWalletWatchers'] },
            'send.transferSubmitted': { actions: 'refreshBalances' },
            // The history needs an account: say so instead of an empty list.
            'dialogs.opened': {
              guard: ({ event }) => event.dialog === 'transactions',
              actions: {
                type: 'showToast',
                params: { ...transactionCopy.loginRequired, variant: 'destructive' },
              },
            },
          },
        },
        signedIn: {
          entry: 'tellSessionWatchers',
          exit: [assign({ user: null }), 'tellSessionWatchers', sendTo('dialogs', { type: 'session.ended' })],
          invoke: [
            {
              id: 'profile',
              systemId: 'profile',
              src: 'profile',
              // A wallet connected before logging in is linked to the profile now.
              input: ({ context }) => ({
                user: context.user as AuthUser,
                walletAddress: context.walletAddress,
              }),
            },
            {
              id: 'notifications',
              systemId: 'notifications',
              src: 'notifications',
              input: ({ context }) => ({ user: context.user as AuthUser }),
            },
            {
              id: 'transactions',
              systemId: 'transactions',
              src: 'transactions',
              input: ({ context }) => ({ user: context.user as AuthUser }),
            },
          ],
          on: {
            'auth.signedOut': 'signedOut',
            // Another account without a sign-out in between: a new session from scratch.
            'auth.signedIn': {
              guard: 'isOtherUser',
              target: 'signedIn',
              reenter: true,
              actions: assign({ user: ({ event }) => event.user }),
            },
            'auth.userUpdated': {
              actions: [
                assign({ user: ({ event }) => event.user }),
                sendTo('profile', ({ event }) => ({ type: 'session.userUpdated', user: event.user })),
              ],
            },
            // As signed out, and the profile keeps the wallet linked.
            'wallet.connected': { actions: ['followWallet', 'tellWalletWatchers', 'tellProfileWallet'] },
            'wallet.accountChanged': { actions: ['followWallet', 'tellWalletWatchers', 'tellProfileWallet'] },
            'wallet.disconnected': { actions: ['followWallet', 'tellWalletWatchers', 'tellProfileWallet'] },
            'wallet.chainChanged': { actions: ['followWallet', 'tellWalletWatchers'] },
            'send.transferSubmitted': {
              actions: ['refreshBalances', sendTo('transactions', { type: 'transactions.refresh' })],
            },
            // Opening the notifications marks them read; opening the history loads it.
            'dialogs.opened': [
              {
                guard: ({ event }) => event.dialog === 'notifications',
                actions: sendTo('notifications', { type: 'notifications.open' }),
              },
              {
                guard: ({ event }) => event.dialog === 'transactions',
                actions: sendTo('transactions', { type: 'transactions.open' }),
              },
            ],
            // Closing the profile dialog without saving drops the edits (docs/product.md#profile).
            'dialogs.closed': {
              guard: ({ event }) => event.dialog === 'profile',
              actions: sendTo('profile', { type: 'profile.discardEdits' }),
            },
          },
        },
      },
    },
  },
});
