import { assign, sendTo, setup } from 'xstate';
import { appCopy } from '../copy/index.ts';
import type { AuthUser } from '../domain/auth.ts';
import type { Profile } from '../domain/profile.ts';
import { authMachine } from './auth.machine.ts';
import { balancesMachine } from './balances.machine.ts';
import { dialogsMachine, type DialogName } from './dialogs.machine.ts';
import { notificationsMachine } from './notifications.machine.ts';
import { profileMachine } from './profile.machine.ts';
import { sendMachine } from './send.machine.ts';
import { showToast } from './shared.ts';
import { tabMachine } from './tab.machine.ts';
import { themeMachine } from './theme.machine.ts';
import { toastDurations, toastMachine } from './toast.machine.ts';
import { transactionsMachine } from './transactions.machine.ts';
import { walletMachine } from './wallet.machine.ts';
import { webhooksMachine } from './webhooks.machine.ts';

// The root of the portal's actor system. It owns one child per concern (each
// with a system id, so views and toasts can find it), receives the facts the
// children report and forwards each to the children that react to it (the
// table in README.md). It holds only what several views need at once: the
// user, the profile, the wallet address and the unread count.

export type PortalInput = {
  theme: { stored: 'light' | 'dark' | null; systemPrefersDark: boolean };
  auth: { clientAvailable: boolean; emailRedirectTo: string };
  expectedChain: { id: number; name: string };
  tokenConfigured: boolean;
  webhookCallbackUrl: string;
};

export type PortalContext = {
  /** The portal's configuration (its input), which the children start from. */
  config: PortalInput;
  user: AuthUser | null;
  profile: Profile | null;
  walletAddress: string | null;
  unread: number;
  authReady: boolean;
  walletReady: boolean;
};

export type PortalEvent =
  | { type: 'auth.ready'; user: AuthUser | null }
  | { type: 'auth.signedIn'; user: AuthUser }
  | { type: 'auth.signedOut' }
  | { type: 'auth.userUpdated'; user: AuthUser }
  | { type: 'profile.loaded'; profile: Profile | null }
  | { type: 'wallet.ready'; address: string | null }
  | { type: 'wallet.connected'; address: string; chainId: number }
  | { type: 'wallet.accountChanged'; address: string; chainId?: number | null }
  | { type: 'wallet.disconnected' }
  | { type: 'wallet.chainChanged'; chainId: number; onExpectedChain: boolean }
  | { type: 'send.transferSubmitted'; hash: string }
  | { type: 'notifications.unread'; count: number }
  | { type: 'dialogs.opened'; dialog: DialogName }
  | { type: 'dialogs.closed'; dialog: DialogName };

const CHILDREN = [
  'toast', 'tab', 'theme', 'auth', 'profile', 'wallet', 'balances', 'send', 'notifications', 'transactions', 'webhooks',
  'dialogs',
] as const; // prettier-ignore
const SESSION_CHILDREN = ['profile', 'notifications', 'transactions', 'dialogs'] as const;
const SESSION_WATCHERS = ['wallet', 'send', 'webhooks'] as const;
const WALLET_WATCHERS = ['balances', 'send', 'webhooks'] as const;

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
    sessionStarted: ({ context, system }, params: { user: AuthUser }) => {
      for (const id of SESSION_CHILDREN) system.get(id)?.send({ type: 'session.started', user: params.user });
      for (const id of SESSION_WATCHERS) system.get(id)?.send({ type: 'session.changed', user: params.user });
      // A wallet connected before logging in is linked to the profile now.
      if (context.walletAddress)
        system.get('profile')?.send({ type: 'wallet.linked', address: context.walletAddress });
    },
    sessionEnded: ({ system }) => {
      for (const id of SESSION_CHILDREN) system.get(id)?.send({ type: 'session.ended' });
      for (const id of SESSION_WATCHERS) system.get(id)?.send({ type: 'session.changed', user: null });
    },
    // A toast's action button (and any view that talks to the root) sends an
    // event named for the machine that handles it, e.g. `wallet.switchNetwork`.
    forwardToOwner: ({ event, system }) => {
      const { type } = event as { type: string };
      // Facts a child reported that no state is waiting for (a late `*.ready`) go nowhere.
      if (type.endsWith('.ready')) return;
      const owner = type.split('.')[0];
      if ((CHILDREN as readonly string[]).includes(owner ?? '')) system.get(owner ?? '')?.send(event);
    },
    walletChanged: ({ system }, params: { address: string | null; chainId: number | null }) => {
      for (const id of WALLET_WATCHERS) system.get(id)?.send({ type: 'wallet.changed', ...params });
    },
  },
  guards: {
    // "Loading has finished" (spec §2): both the session and the wallet's
    // silent reconnect have settled, and neither found anybody.
    nobodyAfterLoading: ({ context }) =>
      context.authReady && context.walletReady && context.user === null && context.walletAddress === null,
    loadingFinished: ({ context }) => context.authReady && context.walletReady,
  },
}).createMachine({
  id: 'portal',
  context: ({ input }) => ({
    config: input,
    user: null,
    profile: null,
    walletAddress: null,
    unread: 0,
    authReady: false,
    walletReady: false,
  }),
  invoke: [
    { id: 'toast', systemId: 'toast', src: 'toast' },
    { id: 'tab', systemId: 'tab', src: 'tab' },
    { id: 'dialogs', systemId: 'dialogs', src: 'dialogs' },
    { id: 'theme', systemId: 'theme', src: 'theme', input: ({ context }) => context.config.theme },
    { id: 'auth', systemId: 'auth', src: 'auth', input: ({ context }) => context.config.auth },
    { id: 'profile', systemId: 'profile', src: 'profile' },
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
    { id: 'notifications', systemId: 'notifications', src: 'notifications' },
    { id: 'transactions', systemId: 'transactions', src: 'transactions' },
    {
      id: 'webhooks',
      systemId: 'webhooks',
      src: 'webhooks',
      input: ({ context }) => ({ callbackUrl: context.config.webhookCallbackUrl }),
    },
  ],
  initial: 'loading',
  states: {
    loading: {
      on: {
        'auth.ready': [
          {
            // A stored session: the user is signed in from the start.
            guard: ({ event }) => event.user !== null,
            target: 'settling',
            actions: [
              assign({ authReady: true, user: ({ event }) => event.user }),
              { type: 'sessionStarted', params: ({ event }) => ({ user: event.user as AuthUser }) },
            ],
          },
          { target: 'settling', actions: assign({ authReady: true }) },
        ],
        'wallet.ready': {
          target: 'settling',
          actions: assign({ walletReady: true, walletAddress: ({ event }) => event.address }),
        },
      },
    },
    // Decides once whether the visitor gets the welcome toast.
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
  on: {
    'auth.signedIn': {
      actions: [
        assign({ user: ({ event }) => event.user }),
        { type: 'sessionStarted', params: ({ event }) => ({ user: event.user }) },
      ],
    },
    'auth.signedOut': {
      actions: [assign({ user: null, profile: null, unread: 0 }), 'sessionEnded'],
    },
    'auth.userUpdated': {
      actions: [
        assign({ user: ({ event }) => event.user }),
        sendTo('profile', ({ event }) => ({ type: 'session.userUpdated', user: event.user })),
      ],
    },
    'profile.loaded': { actions: assign({ profile: ({ event }) => event.profile }) },
    'wallet.connected': {
      actions: [
        assign({ walletAddress: ({ event }) => event.address }),
        {
          type: 'walletChanged',
          params: ({ event }) => ({ address: event.address, chainId: event.chainId }),
        },
        sendTo('profile', ({ event }) => ({ type: 'wallet.linked', address: event.address })),
      ],
    },
    'wallet.accountChanged': {
      actions: [
        assign({ walletAddress: ({ event }) => event.address }),
        {
          type: 'walletChanged',
          params: ({ event }) => ({ address: event.address, chainId: event.chainId ?? null }),
        },
        sendTo('profile', ({ event }) => ({ type: 'wallet.linked', address: event.address })),
      ],
    },
    'wallet.disconnected': {
      actions: [
        assign({ walletAddress: null }),
        { type: 'walletChanged', params: { address: null, chainId: null } },
        sendTo('profile', { type: 'wallet.unlinked' }),
      ],
    },
    'wallet.chainChanged': {
      actions: {
        type: 'walletChanged',
        params: ({ context, event }) => ({ address: context.walletAddress, chainId: event.chainId }),
      },
    },
    'send.transferSubmitted': {
      actions: [
        sendTo('balances', { type: 'balances.refresh' }),
        sendTo('transactions', { type: 'transactions.refresh' }),
      ],
    },
    'notifications.unread': { actions: assign({ unread: ({ event }) => event.count }) },
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
    // Closing the profile dialog without saving drops the edits (spec §4: persisted only on Save).
    'dialogs.closed': {
      guard: ({ event }) => event.dialog === 'profile',
      actions: sendTo('profile', { type: 'profile.discardEdits' }),
    },
    '*': { actions: 'forwardToOwner' },
  },
});
