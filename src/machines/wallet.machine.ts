import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { walletCopy } from '../copy/index.ts';
import type { AuthUser } from '../domain/auth.ts';
import { isWalletError, type WalletAccount, type WalletError } from '../domain/wallet.ts';
import { messageOf, notProvided, reportFact, showToast } from './shared.ts';

// The browser wallet (docs/product.md#wallet, #wallet-toasts), plus
// what wagmi/RainbowKit users expect beyond the spec: following the provider's
// account, chain and disconnect events, a silent reconnect on reload, a
// wrong-network state with a switch, and one wallet request at a time (a
// connect while connecting, or a switch while switching, is ignored).
//
// Tags: `busy` while any wallet request runs; `connecting` only while the
// portal is finding or connecting the wallet (the connect buttons' label).
//
// Toasts are one at a time, so after a connect without a signed-in user
// 'Wallet Connected!' is shown first and 'Login Recommended' replaces it after
// `loginHintDelay` (the default toast duration, so the first is read in full);
// the hint is dropped when the user signs in or the wallet goes away first.

export type WalletInput = { expectedChain: { id: number; name: string } };

export type { WalletAccount };

/** Events the `providerEvents` callback actor sends back while connected. */
export type WalletProviderEvent =
  | { type: 'wallet.accountsChanged'; accounts: string[] }
  | { type: 'wallet.chainChanged'; chainId: number }
  | { type: 'wallet.providerDisconnected' };

export type WalletEvent =
  | { type: 'wallet.connect' }
  | { type: 'wallet.disconnect' }
  | { type: 'wallet.copy' }
  | { type: 'wallet.switchNetwork' }
  | { type: 'session.changed'; user: AuthUser | null }
  | WalletProviderEvent;

/** The facts this machine reports to the root (README table). */
export type WalletFact =
  | { type: 'wallet.ready'; address: string | null }
  | { type: 'wallet.connected'; address: string; chainId: number }
  | { type: 'wallet.accountChanged'; address: string; chainId: number | null }
  | { type: 'wallet.disconnected' }
  | { type: 'wallet.chainChanged'; chainId: number; onExpectedChain: boolean };

export type WalletContext = {
  expectedChain: WalletInput['expectedChain'];
  address: string | null;
  chainId: number | null;
  /** Learnt from `session.changed`; decides the 'Login Recommended' hint. */
  signedIn: boolean;
};

/**
 * The service's failures keep their code; anything else a wallet actor threw is 'unknown'. The
 * message is what error-words.ts says of it: the wording of a coded failure, or what was said.
 */
function failureOf(error: unknown): WalletError {
  return { code: isWalletError(error) ? error.code : 'unknown', message: messageOf(error) ?? null };
}

/** The description under 'Wallet Connection Failed' (docs/product.md#wallet-toasts). */
function connectFailureText(error: unknown): string {
  const failure = failureOf(error);
  switch (failure.code) {
    case 'not-installed':
      return walletCopy.notInstalled;
    case 'rejected':
      return walletCopy.denied;
    case 'pending':
      return walletCopy.pending;
    default:
      return failure.message || walletCopy.connectFallback;
  }
}

function switchFailureText(error: unknown, chainName: string): string {
  const failure = failureOf(error);
  switch (failure.code) {
    case 'not-installed':
      return walletCopy.notInstalled;
    case 'rejected':
      return walletCopy.switchRejected;
    case 'pending':
      return walletCopy.switchPending;
    case 'unrecognized-chain':
      return failure.message || walletCopy.chainNotAdded(chainName);
    default:
      return failure.message || walletCopy.switchFallback;
  }
}

/** Clears the account, tells the user, and reports it (the root clears balances and the profile wallet). */
const WENT_AWAY = [
  'clearAccount',
  { type: 'showToast', params: walletCopy.disconnected },
  { type: 'report', params: { type: 'wallet.disconnected' } },
] as const;

function sameAddress(a: string | null, b: string): boolean {
  return a !== null && a.toLowerCase() === b.toLowerCase();
}

export const walletMachine = setup({
  types: {} as { context: WalletContext; events: WalletEvent; input: WalletInput },
  actors: {
    /** EIP-6963 discovery with the window.ethereum fallback. */
    discover: fromPromise<{ available: boolean }>(notProvided('discover')),
    /** eth_accounts; null when the user disconnected last time or the wallet grants no account. */
    silentReconnect: fromPromise<WalletAccount | null>(notProvided('silentReconnect')),
    /** eth_requestAccounts; clears the "user disconnected" mark on success. */
    requestAccounts: fromPromise<WalletAccount>(notProvided('requestAccounts')),
    /** wallet_switchEthereumChain, adding the chain on 4902; resolves once the wallet is on it. */
    switchChain: fromPromise<unknown, { chainId: number }>(notProvided('switchChain')),
    copyAddress: fromPromise<unknown, { address: string }>(notProvided('copyAddress')),
    /** Marks "user disconnected" so a reload does not reconnect silently. */
    forgetConnection: fromPromise<unknown>(notProvided('forgetConnection')),
    /** Subscribes to accountsChanged / chainChanged / disconnect and sends back WalletProviderEvent. */
    providerEvents: fromCallback(notProvided('providerEvents')),
  },
  actions: {
    showToast,
    report: reportFact<WalletFact>(),
    setAccount: assign((_, params: WalletAccount) => ({ address: params.address, chainId: params.chainId })),
    setChain: assign((_, params: { chainId: number }) => ({ chainId: params.chainId })),
    clearAccount: assign({ address: null, chainId: null }),
  },
  guards: {
    signedIn: ({ context }) => context.signedIn,
    onExpectedChain: ({ context }) => context.chainId === context.expectedChain.id,
  },
  delays: { loginHintDelay: 5000 },
}).createMachine({
  id: 'wallet',
  context: ({ input }) => ({
    expectedChain: input.expectedChain,
    address: null,
    chainId: null,
    signedIn: false,
  }),
  on: {
    'session.changed': { actions: assign({ signedIn: ({ event }) => event.user !== null }) },
  },
  initial: 'discovering',
  states: {
    discovering: {
      tags: ['busy', 'connecting'],
      invoke: {
        id: 'discover',
        src: 'discover',
        onDone: [
          { guard: ({ event }) => event.output.available, target: 'reconnecting' },
          {
            target: 'noProvider',
            actions: { type: 'report', params: { type: 'wallet.ready', address: null } },
          },
        ],
        onError: {
          target: 'noProvider',
          actions: { type: 'report', params: { type: 'wallet.ready', address: null } },
        },
      },
    },
    noProvider: {
      on: {
        'wallet.connect': {
          actions: {
            type: 'showToast',
            params: {
              title: walletCopy.connectionFailed,
              description: walletCopy.notInstalled,
              variant: 'destructive',
            },
          },
        },
      },
    },
    reconnecting: {
      tags: ['busy', 'connecting'],
      invoke: {
        id: 'silentReconnect',
        src: 'silentReconnect',
        onDone: [
          {
            guard: ({ event }) => event.output !== null,
            target: 'connected',
            actions: [
              { type: 'setAccount', params: ({ event }) => event.output as WalletAccount },
              {
                type: 'report',
                params: ({ event }) => ({ type: 'wallet.connected', ...(event.output as WalletAccount) }),
              },
              {
                type: 'report',
                params: ({ event }) => ({
                  type: 'wallet.ready',
                  address: (event.output as WalletAccount).address,
                }),
              },
            ],
          },
          {
            target: 'disconnected',
            actions: { type: 'report', params: { type: 'wallet.ready', address: null } },
          },
        ],
        onError: {
          target: 'disconnected',
          actions: { type: 'report', params: { type: 'wallet.ready', address: null } },
        },
      },
    },
    disconnected: {
      on: { 'wallet.connect': 'connecting' },
    },
    connecting: {
      tags: ['busy', 'connecting'],
      invoke: {
        id: 'requestAccounts',
        src: 'requestAccounts',
        onDone: {
          // The hint region drops the hint at once when a user is signed in.
          target: 'connected.loginHint.waiting',
          actions: [
            { type: 'setAccount', params: ({ event }) => event.output },
            {
              type: 'showToast',
              params: ({ event }) => ({
                title: walletCopy.connected,
                description: walletCopy.connectedDescription(event.output.address),
              }),
            },
            {
              type: 'report',
              params: ({ event }) => ({
                type: 'wallet.connected',
                address: event.output.address,
                chainId: event.output.chainId,
              }),
            },
          ],
        },
        onError: {
          target: 'disconnected',
          actions: {
            type: 'showToast',
            params: ({ event }) => ({
              title: walletCopy.connectionFailed,
              description: connectFailureText(event.error),
              variant: 'destructive',
            }),
          },
        },
      },
    },
    connected: {
      type: 'parallel',
      invoke: { id: 'providerEvents', src: 'providerEvents' },
      on: {
        'wallet.accountsChanged': [
          {
            guard: ({ event }) => event.accounts.length === 0,
            target: 'disconnected',
            actions: WENT_AWAY,
          },
          {
            guard: ({ context, event }) => !sameAddress(context.address, event.accounts[0] ?? ''),
            actions: [
              assign({ address: ({ event }) => event.accounts[0] ?? null }),
              {
                type: 'showToast',
                params: ({ event }) => ({
                  title: walletCopy.accountChanged,
                  description: walletCopy.connectedDescription(event.accounts[0] ?? ''),
                }),
              },
              {
                type: 'report',
                params: ({ context, event }) => ({
                  type: 'wallet.accountChanged',
                  address: event.accounts[0] ?? '',
                  chainId: context.chainId,
                }),
              },
            ],
          },
        ],
        'wallet.providerDisconnected': { target: 'disconnected', actions: WENT_AWAY },
        // The address and balances are cleared at once (docs/product.md#wallet); persisting follows.
        'wallet.disconnect': { target: 'disconnecting', actions: WENT_AWAY },
      },
      states: {
        network: {
          initial: 'checking',
          states: {
            checking: {
              always: [{ guard: 'onExpectedChain', target: 'rightNetwork' }, { target: 'wrongNetwork' }],
            },
            rightNetwork: {
              on: { 'wallet.chainChanged': chainChangedTo('checking') },
            },
            wrongNetwork: {
              on: {
                'wallet.chainChanged': chainChangedTo('checking'),
                'wallet.switchNetwork': 'switching',
              },
            },
            switching: {
              tags: 'busy',
              invoke: {
                id: 'switchChain',
                src: 'switchChain',
                input: ({ context }) => ({ chainId: context.expectedChain.id }),
                onDone: [
                  { guard: 'onExpectedChain', target: 'checking' },
                  // The wallet resolved the switch before (or without) its chainChanged event.
                  {
                    target: 'checking',
                    actions: [
                      { type: 'setChain', params: ({ context }) => ({ chainId: context.expectedChain.id }) },
                      {
                        type: 'report',
                        params: ({ context }) => ({
                          type: 'wallet.chainChanged',
                          chainId: context.expectedChain.id,
                          onExpectedChain: true,
                        }),
                      },
                    ],
                  },
                ],
                onError: {
                  target: 'checking',
                  actions: {
                    type: 'showToast',
                    params: ({ context, event }) => ({
                      title: walletCopy.switchFailed,
                      description: switchFailureText(event.error, context.expectedChain.name),
                      variant: 'destructive',
                    }),
                  },
                },
              },
              // The switch request stays the one in flight until it settles.
              on: { 'wallet.chainChanged': chainChangedTo(undefined) },
            },
          },
        },
        clipboard: {
          initial: 'idle',
          states: {
            idle: { on: { 'wallet.copy': 'copying' } },
            copying: {
              invoke: {
                id: 'copyAddress',
                src: 'copyAddress',
                input: ({ context }) => ({ address: context.address ?? '' }),
                onDone: { target: 'idle', actions: { type: 'showToast', params: walletCopy.copied } },
                onError: {
                  target: 'idle',
                  actions: {
                    type: 'showToast',
                    params: { ...walletCopy.copyFailed, variant: 'destructive' },
                  },
                },
              },
            },
          },
        },
        loginHint: {
          initial: 'off',
          states: {
            off: {},
            waiting: {
              always: { guard: 'signedIn', target: 'off' },
              after: {
                loginHintDelay: {
                  target: 'off',
                  actions: { type: 'showToast', params: walletCopy.loginRecommended },
                },
              },
            },
          },
        },
      },
    },
    disconnecting: {
      tags: 'busy',
      // A failed write only means the next reload reconnects silently; the wallet is disconnected either way.
      invoke: {
        id: 'forgetConnection',
        src: 'forgetConnection',
        onDone: 'disconnected',
        onError: 'disconnected',
      },
    },
  },
});

/** A chain change the machine did not know yet: record it, report it, and optionally re-check the network. */
function chainChangedTo(target: 'checking' | undefined) {
  return {
    guard: ({ context, event }: { context: WalletContext; event: { chainId: number } }) =>
      event.chainId !== context.chainId,
    target,
    actions: [
      {
        type: 'setChain',
        params: ({ event }: { event: { chainId: number } }) => ({ chainId: event.chainId }),
      },
      {
        type: 'report',
        params: ({ context, event }: { context: WalletContext; event: { chainId: number } }) => ({
          type: 'wallet.chainChanged' as const,
          chainId: event.chainId,
          onExpectedChain: event.chainId === context.expectedChain.id,
        }),
      },
    ],
  } as const;
}
