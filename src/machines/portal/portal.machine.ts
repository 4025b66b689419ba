import { assign } from 'xstate';
import { appCopy } from '../../copy/index.ts';
import { portalSetup, tell, type PortalChildId } from './portal.setup.ts';
import { sessionRegion } from './portal.session.ts';
import { tabActorsRegion } from './portal.tabs.ts';
import { toastDurations } from '../toast.machine.ts';

// The root of the portal's actor system. It owns one child per concern (each with a system id, so
// the journal names it and views find it as `snapshot.children.<id>`), receives the facts the
// children report and tells the children that react to each one (the table in README.md), always
// through `tell` or a typed ref, so every message down is checked by the compiler. Its setup is
// portal.setup.ts; its regions: `boot` here, `session` (portal.session.ts) and `tabActors`
// (portal.tabs.ts: the Trading and Bots tabs' actors).

export type {
  BotsLogic,
  FaucetLogic,
  PortalChildId,
  PortalContext,
  PortalEvent,
  PortalInbox,
  PortalInput,
  TabsAvailable,
  TradingLogic,
} from './portal.setup.ts';

/** The children that live as long as the portal; each is found by its system id. */
export const PORTAL_CHILDREN = [
  'toast', 'tab', 'theme', 'auth', 'wallet', 'balances', 'send', 'webhooks', 'dialogs', 'unsubscribe',
] as const satisfies readonly PortalChildId[]; // prettier-ignore

/** The children that live as long as a signed-in session. */
export const SESSION_CHILDREN = [
  'profile',
  'notifications',
  'transactions',
] as const satisfies readonly PortalChildId[];

export const portalMachine = portalSetup.createMachine({
  id: 'portal',
  context: ({ input }) => ({
    config: input,
    user: null,
    walletAddress: null,
    walletChainId: null,
    authReady: false,
    walletReady: false,
    trading: null,
    bots: null,
    faucet: null,
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
      input: ({ context }) => ({
        expectedChain: context.config.expectedChain,
        offersLocalWallet: context.config.offersLocalWallet ?? false,
      }),
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
    // An email alert's unsubscribe link opened the page: it asks before turning that email off.
    {
      id: 'unsubscribe',
      systemId: 'unsubscribe',
      src: 'unsubscribe',
      input: ({ context }) => ({ token: context.config.unsubscribeToken ?? null }),
    },
  ],
  type: 'parallel',
  on: {
    // Every toast a child asks for goes through here to the one toast actor.
    'toast.requested': {
      actions: tell('toast', ({ event }) => ({ type: 'toast.show', toast: event.toast })),
    },
    // A toast's action button asks the machine that showed it to act again.
    'toast.actionPressed': { actions: tell('wallet', ({ event }) => event.action) },
    // A swap mined, or a faucet claim paid, moves the balances.
    'trading.swapConfirmed': { actions: 'refreshBalances' },
    'faucet.claimed': { actions: 'refreshBalances' },
  },
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
    session: sessionRegion,
    tabActors: tabActorsRegion,
  },
});
