import { expect } from 'vitest';
import { transactionCopy } from '../../src/copy/index.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { transactionsMachine } from '../../src/machines/transactions.machine.ts';
import type { AuthUser } from '../../src/domain/auth.ts';
import type { TransactionRow } from '../../src/domain/transactions.ts';
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

let toasts: ToastRequest[] = [];

describeModel({
  name: 'transactions',
  machine: transactionsMachine,
  deferredActors: ['listTransactions'],
  provide: { actions: { showToast: (_, params: ToastRequest) => void toasts.push(params) } },
  input: { user: alice },
  events: {
    'xstate.done.actor.listTransactions': [{ type: 'xstate.done.actor.listTransactions', output: [row] }],
    'xstate.error.actor.listTransactions': [
      { type: 'xstate.error.actor.listTransactions', error: new Error('permission denied') },
    ],
  },
  states: {
    '*': (snapshot) => {
      // The one toast this machine shows is the failed load's, and destructive.
      for (const toast of toasts) {
        expect(toast.title).toBe(transactionCopy.fetchError);
        expect(toast.variant).toBe('destructive');
      }
      toasts = [];
      expect(snapshot.context.userId).toBe('alice');
    },
    idle: (snapshot) => expect(snapshot.context.rows).toEqual([]),
    ready: (snapshot) => expect(snapshot.context.rows).toEqual([row]),
  },
});
