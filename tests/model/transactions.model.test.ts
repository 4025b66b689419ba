import { expect } from 'vitest';
import { transactionCopy } from '../../src/copy/index.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { transactionsMachine } from '../../src/machines/transactions.machine.ts';
import type { AuthUser, TransactionRow } from '../../src/services/supabase/types.ts';
import { describeModel } from './support/index.ts';

const user = (id: string): AuthUser => ({
  id,
  email: `${id}@example.com`,
  emailConfirmedAt: null,
  metadata: {},
});
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
  events: {
    'session.started': [
      { type: 'session.started', user: user('alice') },
      { type: 'session.started', user: user('bob') },
    ],
    'xstate.done.actor.listTransactions': [{ type: 'xstate.done.actor.listTransactions', output: [row] }],
    'xstate.error.actor.listTransactions': [
      { type: 'xstate.error.actor.listTransactions', error: new Error('permission denied') },
    ],
  },
  states: {
    '*': () => {
      // Every toast this machine shows is one of its two, and destructive.
      for (const toast of toasts) {
        expect([transactionCopy.loginRequired.title, transactionCopy.fetchError]).toContain(toast.title);
        expect(toast.variant).toBe('destructive');
      }
      toasts = [];
    },
    signedOut: (snapshot) => expect(snapshot.context).toEqual({ userId: null, rows: [] }),
    signedIn: (snapshot) => expect(snapshot.context.userId).not.toBeNull(),
    'signedIn.ready': (snapshot) => expect(snapshot.context.rows).toEqual([row]),
  },
});
