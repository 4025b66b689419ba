import { assign } from 'xstate';
import { shellCopy, walletCopy } from '../../copy/index.ts';
import type { WalletContext } from './wallet-types.ts';
import { switchFailureText } from './wallet-toasts.ts';
import { walletSetup } from './wallet.setup.ts';

// The wallet machine's `connected` state: the provider's account, chain and disconnect events, and
// four parallel regions: the network (right, wrong, switching), the clipboard, adding DDEX to the
// wallet, and the 'Login Recommended' hint after a connect.

/** Clears the account, tells the user, and reports it (the root clears balances and the profile wallet). */
const WENT_AWAY = [
  'clearAccount',
  { type: 'showToast', params: walletCopy.disconnected },
  { type: 'report', params: { type: 'wallet.disconnected' } },
] as const;

function sameAddress(a: string | null, b: string): boolean {
  return a !== null && a.toLowerCase() === b.toLowerCase();
}

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

export const connectedState = walletSetup.createStateConfig({
  type: 'parallel',
  invoke: { id: 'providerEvents', src: 'providerEvents' },
  on: {
    'provider.accountsChanged': [
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
    'provider.disconnected': { target: 'disconnected', actions: WENT_AWAY },
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
          on: { 'provider.chainChanged': chainChangedTo('checking') },
        },
        wrongNetwork: {
          on: {
            'provider.chainChanged': chainChangedTo('checking'),
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
          on: { 'provider.chainChanged': chainChangedTo(undefined) },
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
    // A wallet lists a token on the chain it is on, so only the portal's will do; one request at a
    // time, as every wallet request. Its actor answers with the toast (src/app/watch-token.ts).
    // Not named `token`: the event journal redacts whatever sits under a key of that name.
    listing: {
      initial: 'idle',
      states: {
        idle: { on: { 'wallet.watchToken': { guard: 'onExpectedChain', target: 'asking' } } },
        asking: {
          tags: 'busy',
          invoke: {
            id: 'watchToken',
            src: 'watchToken',
            onDone: { target: 'idle', actions: { type: 'showToast', params: ({ event }) => event.output } },
            onError: {
              target: 'idle',
              actions: {
                type: 'showToast',
                params: {
                  title: walletCopy.tokenNotAdded,
                  description: shellCopy.partLoadFailed,
                  variant: 'destructive',
                },
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
});
