import { and, assign, fromPromise, setup, stateIn } from 'xstate';
import { balanceCopy, dataProviderCopy } from '../copy/index.ts';
import { notProvided, showToast, type ToastRequest } from './shared.ts';

// The wallet panel's two balances (spec §2 point 4, §8 'Balance Fetch Error').
// The native balance (data provider) and the DDEX balance (token service) are
// fetched in parallel; without a token contract the DDEX value is
// 'N/A (Config Error)' and nothing is fetched for it. Any failure makes every
// fetched value 'Error' (spec §8 "balances show 'Error'"), even one that had
// already arrived, so the panel never mixes a fresh and a failed reading; a
// config error is not a fetch and stays as it is. One toast per load: the
// first failure stops the other fetch.

export type BalancesInput = { tokenConfigured: boolean };

export type BalancesEvent =
  { type: 'wallet.changed'; address: string | null; chainId: number | null } | { type: 'balances.refresh' };

export type BalancesContext = {
  tokenConfigured: boolean;
  address: string | null;
  /** '' until known: the view shows balanceCopy.empty ('N/A'); while loading it shows balanceCopy.loading. */
  nativeBalance: string;
  ddexBalance: string;
};

function errorText(error: unknown): string {
  return (error instanceof Error && error.message) || dataProviderCopy.balanceUnknownError;
}

/** 'Balance Fetch Error' with the failed fetch's message. */
const FAILED_TOAST = {
  type: 'showToast',
  params: ({ event }: { event: { error: unknown } }): ToastRequest => ({
    title: balanceCopy.fetchError,
    description: errorText(event.error),
    variant: 'destructive',
  }),
} as const;

export const balancesMachine = setup({
  types: {} as { context: BalancesContext; events: BalancesEvent; input: BalancesInput },
  actors: {
    fetchNativeBalance: fromPromise<{ balance: string; asset: string }, { address: string }>(
      notProvided('fetchNativeBalance'),
    ),
    fetchTokenBalance: fromPromise<{ formatted: string }, { address: string }>(
      notProvided('fetchTokenBalance'),
    ),
  },
  actions: {
    showToast,
    fetchFailed: assign(({ context }) => ({
      nativeBalance: balanceCopy.error,
      ddexBalance: context.tokenConfigured ? balanceCopy.error : balanceCopy.configError,
    })),
  },
  guards: {
    tokenConfigured: ({ context }) => context.tokenConfigured,
  },
}).createMachine({
  id: 'balances',
  context: ({ input }) => ({
    tokenConfigured: input.tokenConfigured,
    address: null,
    nativeBalance: '',
    ddexBalance: '',
  }),
  on: {
    // Also on a chain change or an account switch: the reading belongs to the new wallet state.
    'wallet.changed': [
      {
        guard: ({ event }) => event.address === null,
        target: '.idle',
        actions: assign({ address: null, nativeBalance: '', ddexBalance: '' }),
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
      // Not `onDone` with final states: the model paths would then send `xstate.done.state.*` themselves.
      always: {
        guard: and([stateIn('#balances.loading.native.done'), stateIn('#balances.loading.token.done')]),
        target: 'loaded',
      },
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
                  actions: assign({ nativeBalance: ({ event }) => event.output.balance }),
                },
                onError: { target: '#balances.failed', actions: FAILED_TOAST },
              },
            },
            done: {},
          },
        },
        token: {
          initial: 'checking',
          states: {
            checking: {
              always: [
                { guard: 'tokenConfigured', target: 'fetching' },
                { target: 'done', actions: assign({ ddexBalance: balanceCopy.configError }) },
              ],
            },
            fetching: {
              invoke: {
                id: 'fetchTokenBalance',
                src: 'fetchTokenBalance',
                input: ({ context }) => ({ address: context.address ?? '' }),
                onDone: {
                  target: 'done',
                  actions: assign({ ddexBalance: ({ event }) => event.output.formatted }),
                },
                onError: { target: '#balances.failed', actions: FAILED_TOAST },
              },
            },
            done: {},
          },
        },
      },
    },
    loaded: {
      on: { 'balances.refresh': 'loading' },
    },
    failed: {
      entry: 'fetchFailed',
      on: { 'balances.refresh': 'loading' },
    },
  },
});
