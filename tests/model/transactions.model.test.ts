import { beforeEach, expect } from 'vitest';
import { transactionCopy } from '../../src/copy/index.ts';
import { transactionsMachine } from '../../src/machines/transactions.machine.ts';
import type { TransactionRow } from '../../src/domain/transactions.ts';
import { authUser, transactionRow } from '../support/fixtures.ts';
import { errorOf } from '../support/model/recorders.ts';
import { describeModel } from '../support/model/index.ts';

const alice = authUser('alice');
const row = transactionRow('t1');

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
