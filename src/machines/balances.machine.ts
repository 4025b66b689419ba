import { assign, fromPromise, setup } from 'xstate';
import { balanceCopy, dataProviderCopy } from '../copy/index.ts';
import { messageOf, notProvided, showToast, type ToastRequest } from './shared.ts';

// The wallet panel's two balances (docs/product.md#balances).
// The native balance (data provider) and the DDEX balance (token service) are
// fetched in parallel; without a token contract the DDEX balance is
// `notConfigured` and nothing is fetched for it. Any failure marks every
// fetched balance `failed` (they read 'Error', docs/product.md#balances), even one that had
// already arrived, so the panel never mixes a fresh and a failed reading; a
// missing contract is not a fetch and stays as it is. One toast per load: the
// first failure stops the other fetch. The words and colours for each status
// are the view's (src/ui/portal/balance-text.ts). A value read can be copied,
// exactly as read, while nothing is loading.

export type BalancesInput = { tokenConfigured: boolean };

export type BalancesEvent =
  | { type: 'wallet.changed'; address: string | null; chainId: number | null }
  | { type: 'balances.refresh' }
  | { type: 'balances.copy'; balance: 'native' | 'ddex' };

/** One balance as last read: the decimal text the service returned, or why there is none. */
export type BalanceReading =
  | { status: 'none' }
  | { status: 'loaded'; value: string }
  | { status: 'failed' }
  | { status: 'notConfigured' };

export type BalancesContext = {
  tokenConfigured: boolean;
  address: string | null;
  /** The network's own coin, from the data provider. */
  native: BalanceReading;
  /** The DDEX token, from the token contract. */
  ddex: BalanceReading;
};

const NONE: BalanceReading = { status: 'none' };
const FAILED: BalanceReading = { status: 'failed' };
const NOT_CONFIGURED: BalanceReading = { status: 'notConfigured' };

/** 'Balance Fetch Error' with the failed fetch's message. */
const FAILED_TOAST = {
  type: 'showToast',
  params: ({ event }: { event: { error: unknown } }): ToastRequest => ({
    title: balanceCopy.fetchError,
    description: messageOf(event.error, dataProviderCopy.balanceUnknownError),
    variant: 'destructive',
  }),
} as const;

/** The value a balance was read as; '' when none was. */
const valueOf = (reading: BalanceReading): string => (reading.status === 'loaded' ? reading.value : '');

/** The exact value of the balance a copy asks for ('' for any other event). */
const copied = ({ context, event }: { context: BalancesContext; event: BalancesEvent }): string =>
  event.type === 'balances.copy' ? valueOf(context[event.balance]) : '';

export const balancesMachine = setup({
  types: {} as { context: BalancesContext; events: BalancesEvent; input: BalancesInput },
  actors: {
    fetchNativeBalance: fromPromise<{ balance: string; asset: string }, { address: string }>(
      notProvided('fetchNativeBalance'),
    ),
    fetchTokenBalance: fromPromise<{ formatted: string }, { address: string }>(
      notProvided('fetchTokenBalance'),
    ),
    copyBalance: fromPromise<unknown, { text: string }>(notProvided('copyBalance')),
  },
  actions: {
    showToast,
    fetchFailed: assign(({ context }) => ({
      native: FAILED,
      ddex: context.tokenConfigured ? FAILED : NOT_CONFIGURED,
    })),
  },
  guards: {
    tokenConfigured: ({ context }) => context.tokenConfigured,
    /** The balance a copy asks for has a value read: no contract or an empty answer has none. */
    hasValue: (args) => copied(args) !== '',
  },
}).createMachine({
  id: 'balances',
  context: ({ input }) => ({
    tokenConfigured: input.tokenConfigured,
    address: null,
    native: NONE,
    ddex: NONE,
  }),
  on: {
    // Also on a chain change or an account switch: the reading belongs to the new wallet state.
    'wallet.changed': [
      {
        guard: ({ event }) => event.address === null,
        target: '.idle',
        actions: assign({ address: null, native: NONE, ddex: NONE }),
      },
      { target: '.loading', reenter: true, actions: assign({ address: ({ event }) => event.address }) },
    ],
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'balances.refresh': {
          actions: {
            type: 'showToast',
            params: { ...balanceCopy.walletNotConnected, variant: 'destructive' },
          },
        },
      },
    },
    loading: {
      // The view shows 'Loading...' and disables the refresh button; a refresh here is ignored.
      tags: 'loading',
      type: 'parallel',
      onDone: 'loaded',
      states: {
        native: {
          initial: 'fetching',
          states: {
            fetching: {
              invoke: {
                id: 'fetchNativeBalance',
                src: 'fetchNativeBalance',
                input: ({ context }) => ({ address: context.address ?? '' }),
                onDone: {
                  target: 'done',
                  actions: assign({
                    native: ({ event }) => ({ status: 'loaded', value: event.output.balance }),
                  }),
                },
                onError: { target: '#balances.failed', actions: FAILED_TOAST },
              },
            },
            done: { type: 'final' },
          },
        },
        token: {
          initial: 'checking',
          states: {
            checking: {
              always: [
                { guard: 'tokenConfigured', target: 'fetching' },
                { target: 'done', actions: assign({ ddex: NOT_CONFIGURED }) },
              ],
            },
            fetching: {
              invoke: {
                id: 'fetchTokenBalance',
                src: 'fetchTokenBalance',
                input: ({ context }) => ({ address: context.address ?? '' }),
                onDone: {
                  target: 'done',
                  actions: assign({
                    ddex: ({ event }) => ({ status: 'loaded', value: event.output.formatted }),
                  }),
                },
                onError: { target: '#balances.failed', actions: FAILED_TOAST },
              },
            },
            done: { type: 'final' },
          },
        },
      },
    },
    loaded: {
      on: { 'balances.refresh': 'loading' },
      initial: 'ready',
      states: {
        ready: { on: { 'balances.copy': { guard: 'hasValue', target: 'copying' } } },
        copying: {
          invoke: {
            id: 'copyBalance',
            src: 'copyBalance',
            input: (args) => ({ text: copied(args) }),
            onDone: { target: 'ready', actions: { type: 'showToast', params: balanceCopy.copied } },
            onError: {
              target: 'ready',
              actions: { type: 'showToast', params: { ...balanceCopy.copyFailed, variant: 'destructive' } },
            },
          },
        },
      },
    },
    failed: {
      entry: 'fetchFailed',
      on: { 'balances.refresh': 'loading' },
    },
  },
});
