import { assign } from 'xstate';
import { walletCopy } from '../../copy/index.ts';
import { localWalletOfferCopy } from '../../copy/local-wallet-offer.ts';
import type { WalletAccount } from '../../domain/wallet.ts';
import { connectFailureText } from './wallet-toasts.ts';
import { connectedState } from './wallet.connected.ts';
import { walletSetup } from './wallet.setup.ts';

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
//
// Its shapes are wallet-types.ts and its failure words wallet-toasts.ts; its setup (actors,
// actions, guards, delay) wallet.setup.ts; the `connected` state wallet.connected.ts.

export type {
  WalletAccount,
  WalletContext,
  WalletEvent,
  WalletFact,
  WalletInput,
  WalletProviderEvent,
} from './wallet-types.ts';

export const walletMachine = walletSetup.createMachine({
  id: 'wallet',
  context: ({ input }) => ({
    expectedChain: input.expectedChain,
    address: null,
    chainId: null,
    signedIn: false,
    offersLocalWallet: input.offersLocalWallet ?? false,
    localWallet: null,
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
        // The spec's toast, word for word; a build for the local chain adds an action to it.
        'wallet.connect': {
          actions: {
            type: 'showToast',
            params: ({ context }) => ({
              title: walletCopy.connectionFailed,
              description: walletCopy.notInstalled,
              variant: 'destructive' as const,
              ...(context.offersLocalWallet
                ? {
                    action: {
                      label: localWalletOfferCopy.offer,
                      event: { type: 'wallet.useLocalWallet' as const },
                    },
                  }
                : {}),
            }),
          },
        },
        'wallet.useLocalWallet': { guard: 'offersLocalWallet', target: 'takingLocalWallet' },
      },
    },
    // Taking it is the person's consent to connect: the wallet is announced connected, and asks
    // for every signature and transaction from then on.
    takingLocalWallet: {
      tags: ['busy', 'connecting'],
      invoke: {
        id: 'takeLocalWallet',
        src: 'takeLocalWallet',
        onDone: {
          target: 'connecting',
          actions: assign({
            localWallet: ({ event, spawn }) =>
              spawn(event.output.logic, {
                systemId: 'localWallet',
                input: { address: event.output.address },
              }),
          }),
        },
        onError: {
          target: 'noProvider',
          actions: {
            type: 'showToast',
            params: ({ event }) => ({
              title: localWalletOfferCopy.takeFailed,
              description: event.error instanceof Error ? event.error.message : String(event.error),
              variant: 'destructive' as const,
            }),
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
    connected: connectedState,
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
