import { assign, fromPromise, setup } from 'xstate';
import { transactionCopy } from '../copy/index.ts';
import type { AuthUser } from '../domain/auth.ts';
import type { TransactionRow } from '../domain/transactions.ts';
import { notProvided, showToast } from './shared.ts';

// The transaction history (spec §2 history modal, §3 Transaction). Signed-in
// users get their 20 newest rows each time the modal opens and after each
// transfer; signed-out users get 'Login Required' instead. The modal's being
// open is the view's business: it sends `transactions.open` when it opens.
// Rows are kept as the backend returned them; `toHistoryEntry`
// (transaction-row.ts) turns one into what a line of the list shows.

export type TransactionsContext = {
  userId: string | null;
  /** Newest first, at most 20 (the service's query). */
  rows: TransactionRow[];
};

export type TransactionsEvent =
  | { type: 'session.started'; user: AuthUser }
  | { type: 'session.ended' }
  | { type: 'transactions.open' }
  | { type: 'transactions.refresh' };

function errorMessage(error: unknown): string | undefined {
  return error instanceof Error && error.message !== '' ? error.message : undefined;
}

export const transactionsMachine = setup({
  types: {} as { context: TransactionsContext; events: TransactionsEvent },
  actors: {
    listTransactions: fromPromise<TransactionRow[], { userId: string }>(notProvided('listTransactions')),
  },
  actions: {
    showToast,
  },
  guards: {
    isOtherUser: ({ context, event }) => event.type === 'session.started' && event.user.id !== context.userId,
  },
}).createMachine({
  id: 'transactions',
  context: { userId: null, rows: [] },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: {
        'session.started': {
          target: 'signedIn',
          actions: assign({ userId: ({ event }) => event.user.id }),
        },
        'transactions.open': {
          actions: {
            type: 'showToast',
            params: { ...transactionCopy.loginRequired, variant: 'destructive' },
          },
        },
      },
    },
    signedIn: {
      initial: 'idle',
      on: {
        'session.ended': { target: 'signedOut', actions: assign({ userId: null, rows: [] }) },
        // Another account signed in without a sign-out in between: forget the old rows.
        'session.started': {
          guard: 'isOtherUser',
          target: 'signedIn',
          reenter: true,
          actions: assign({ userId: ({ event }) => event.user.id, rows: [] }),
        },
        // Both restart a load already under way, so the newest answer wins.
        'transactions.open': '.loading',
        'transactions.refresh': '.loading',
      },
      states: {
        /** Signed in; nothing asked for yet. */
        idle: {},
        loading: {
          invoke: {
            id: 'listTransactions',
            src: 'listTransactions',
            input: ({ context }) => ({ userId: context.userId ?? '' }),
            onDone: { target: 'ready', actions: assign({ rows: ({ event }) => event.output }) },
            onError: {
              target: 'error',
              actions: {
                type: 'showToast',
                params: ({ event }) => ({
                  title: transactionCopy.fetchError,
                  description: errorMessage(event.error),
                  variant: 'destructive',
                }),
              },
            },
          },
        },
        ready: {},
        /** The last load failed; the rows of an earlier load (if any) stay on show. */
        error: {},
      },
    },
  },
});
