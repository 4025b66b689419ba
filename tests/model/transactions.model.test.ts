import { beforeEach, expect } from 'vitest';
import { transactionCopy } from '../../src/copy/index.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { transactionsMachine } from '../../src/machines/transactions.machine.ts';
import type { AuthUser } from '../../src/domain/auth.ts';
import type { TransactionRow } from '../../src/domain/transactions.ts';
import { actionRecorder, errorOf, inputOf, type Recorded } from './recorders.ts';
import { describeModel } from './support/index.ts';

const alice: AuthUser = {
  id: 'alice',
  email: 'alice@example.com',
  emailConfirmedAt: null,
  web3Address: null,
  metadata: {},
};
const row: TransactionRow = {
  id: 't1',
  user_id: 'alice',
  created_at: '2025-01-01T00:00:00Z',
  type: 'token_transfer',
  status: 'submitted',
  amount: '1',
  asset_amount: null,
  token_symbol: 'DDEX',
  asset_symbol: null,
  tx_hash: '0xabc',
  transaction_hash: null,
};

type Snapshot = ReturnType<typeof transactionsMachine.transition>;

const toasts = actionRecorder<ToastRequest>();
/** This step's toasts, and the rows on show before it. */
let shown: Recorded<ToastRequest>[] = [];
let rowsBefore: TransactionRow[] = [];

beforeEach(() => {
  toasts.take();
  rowsBefore = [];
});

describeModel({
  name: 'transactions',
  machine: transactionsMachine,
  deferredActors: ['listTransactions'],
  provide: { actions: { showToast: toasts.action } },
  input: { user: alice },
  // Every cycle-free path too: a failure after rows were shown, a reload over a failure.
  simplePaths: true,
  events: {
    'xstate.done.actor.listTransactions': [{ type: 'xstate.done.actor.listTransactions', output: [row] }],
    'xstate.error.actor.listTransactions': [
      { type: 'xstate.error.actor.listTransactions', error: new Error('permission denied') },
    ],
  },
  states: {
    '*': (snapshot: Snapshot) => {
      shown = toasts.take();
      // The one toast this machine shows is the failed load's: its title, the failure's words.
      for (const { params, event } of shown) {
        expect(params).toEqual({
          title: transactionCopy.fetchError,
          description: (errorOf(event) as Error).message,
          variant: 'destructive',
        });
      }
      expect(snapshot.context.userId).toBe(alice.id);
    },
    // Nothing is loaded before the history is opened.
    idle: (snapshot: Snapshot) => expect(snapshot.context.rows).toEqual([]),
    // The session's own user's rows are asked for; the rows on show stay meanwhile.
    loading: (snapshot: Snapshot) => {
      expect(inputOf(snapshot, 'listTransactions')).toEqual({ userId: alice.id });
      expect(snapshot.context.rows).toEqual(rowsBefore);
      expect(shown).toEqual([]);
    },
    // The rows are the answer, as the backend returned them.
    ready: (snapshot: Snapshot) => {
      expect(shown).toEqual([]);
      expect(snapshot.context.rows).toEqual([row]);
      rowsBefore = snapshot.context.rows;
    },
    // A failed load says so once and keeps the rows of an earlier load.
    error: (snapshot: Snapshot) => {
      expect(shown).toHaveLength(1);
      expect(snapshot.context.rows).toEqual(rowsBefore);
    },
  },
});
