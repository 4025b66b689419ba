import { assign, fromPromise, setup } from 'xstate';
import { transactionCopy } from '../copy/index.ts';
import type { AuthUser } from '../domain/auth.ts';
import type { TransactionRow } from '../domain/transactions.ts';
import { messageOf, notProvided, showToast } from './shared.ts';

// The signed-in user's transaction history (docs/product.md#history). The root
// invokes this machine for the length of a session, with its user: the 20
// newest rows load each time the modal opens and after each transfer. The
// modal's being open is the view's business: it sends `transactions.open`
// when it opens. Rows are kept as the backend returned them; the history
// view turns each one into what a line of the list shows.

export type TransactionsInput = { user: AuthUser };

export type TransactionsContext = {
  userId: string;
  /** Newest first, at most 20 (the service's query). */
  rows: TransactionRow[];
};

export type TransactionsEvent = { type: 'transactions.open' } | { type: 'transactions.refresh' };

export const transactionsMachine = setup({
  types: {} as { context: TransactionsContext; events: TransactionsEvent; input: TransactionsInput },
  actors: {
    listTransactions: fromPromise<TransactionRow[], { userId: string }>(notProvided('listTransactions')),
  },
  actions: {
    showToast,
  },
}).createMachine({
  id: 'transactions',
  context: ({ input }) => ({ userId: input.user.id, rows: [] }),
  initial: 'idle',
  on: {
    // Both restart a load already under way, so the newest answer wins.
    'transactions.open': '.loading',
    'transactions.refresh': '.loading',
  },
  states: {
    /** Nothing asked for yet. */
    idle: {},
    loading: {
      invoke: {
        id: 'listTransactions',
        src: 'listTransactions',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'ready', actions: assign({ rows: ({ event }) => event.output }) },
        onError: {
          target: 'error',
          actions: {
            type: 'showToast',
            params: ({ event }) => ({
              title: transactionCopy.fetchError,
              description: messageOf(event.error),
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
});
