import { beforeEach, expect } from 'vitest';
import { transactionCopy } from '../../src/copy/index.ts';
import { transactionsMachine } from '../../src/machines/transactions.machine.ts';
import type { AuthUser } from '../../src/domain/auth.ts';
import type { TransactionRow } from '../../src/domain/transactions.ts';
import { errorOf } from '../support/model/recorders.ts';
import { describeModel } from '../support/model/index.ts';

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

/** The rows on show before the step. */
let rowsBefore: TransactionRow[] = [];

beforeEach(() => {
  rowsBefore = [];
});

describeModel({
  name: 'transactions',
  machine: transactionsMachine,
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
    '*': (snapshot: Snapshot, { shown }) => {
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
    loading: (snapshot: Snapshot, { shown, inputOf }) => {
      expect(inputOf('listTransactions')).toEqual({ userId: alice.id });
      expect(snapshot.context.rows).toEqual(rowsBefore);
      expect(shown).toEqual([]);
    },
    // The rows are the answer, as the backend returned them.
    ready: (snapshot: Snapshot, { shown }) => {
      expect(shown).toEqual([]);
      expect(snapshot.context.rows).toEqual([row]);
      rowsBefore = snapshot.context.rows;
    },
    // A failed load says so once and keeps the rows of an earlier load.
    error: (snapshot: Snapshot, { shown }) => {
      expect(shown).toHaveLength(1);
      expect(snapshot.context.rows).toEqual(rowsBefore);
    },
  },
});
