import { describe, expect, it } from 'vitest';
import { transactionCopy } from '../../../src/copy/index.ts';
import { transactionsMachine } from '../../../src/machines/transactions.machine.ts';
import type { AuthUser } from '../../../src/domain/auth.ts';
import type { TransactionRow } from '../../../src/domain/transactions.ts';
import { lastCall, settle } from '../../support/deferred-actor.ts';
import { authUser, transactionRow } from '../../support/fixtures.ts';
import { machineHarness } from '../../support/machines/harness.ts';

const alice = authUser('alice');
const bob = authUser('bob');

function setup(user: AuthUser = alice) {
  const h = machineHarness(transactionsMachine, { input: { user } });
  const calls = h.calls<TransactionRow[], { userId: string }>('listTransactions');
  return { actor: h.actor, toasts: h.toasts, calls, lastCall: () => lastCall(calls, 'listTransactions') };
}

describe('transactions machine', () => {
  it('does not load when the session starts, only when the history opens', async () => {
    const { actor, calls, lastCall } = setup();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toEqual({ userId: 'alice', rows: [] });
    expect(calls).toHaveLength(0);

    actor.send({ type: 'transactions.open' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(lastCall().input).toEqual({ userId: 'alice' });
    lastCall().resolve([transactionRow('t2'), transactionRow('t1')]);
    await settle();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual(['t2', 't1']);
  });

  it("loads the rows of the session's own user", () => {
    const { actor, lastCall } = setup(bob);
    actor.send({ type: 'transactions.open' });
    expect(lastCall().input).toEqual({ userId: 'bob' });
  });

  it('shows the fetch error with the message and keeps the rows it had', async () => {
    const { actor, toasts, lastCall } = setup();
    actor.send({ type: 'transactions.open' });
    lastCall().resolve([transactionRow('t1')]);
    await settle();

    actor.send({ type: 'transactions.open' });
    lastCall().reject(new Error('permission denied for table transactions'));
    await settle();
    expect(actor.getSnapshot().value).toBe('error');
    expect(toasts).toEqual([
      {
        title: transactionCopy.fetchError,
        description: 'permission denied for table transactions',
        variant: 'destructive',
      },
    ]);
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual(['t1']);
  });

  it('shows the fetch error without a description when the failure has no message', async () => {
    const { actor, toasts, lastCall } = setup();
    actor.send({ type: 'transactions.open' });
    lastCall().reject('offline');
    await settle();
    expect(toasts).toEqual([
      { title: transactionCopy.fetchError, description: undefined, variant: 'destructive' },
    ]);
  });

  it('reloads on refresh (after a transfer) from every state', async () => {
    const { actor, calls, lastCall } = setup();
    actor.send({ type: 'transactions.refresh' });
    expect(calls).toHaveLength(1);
    lastCall().resolve([transactionRow('t1')]);
    await settle();

    actor.send({ type: 'transactions.refresh' });
    expect(calls).toHaveLength(2);
    lastCall().reject(new Error('x'));
    await settle();
    expect(actor.getSnapshot().value).toBe('error');

    actor.send({ type: 'transactions.refresh' });
    expect(calls).toHaveLength(3);
    lastCall().resolve([transactionRow('t2'), transactionRow('t1')]);
    await settle();
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual(['t2', 't1']);
  });

  it('restarts a load under way, so a stale answer never lands', async () => {
    const { actor, calls } = setup();
    actor.send({ type: 'transactions.open' });
    actor.send({ type: 'transactions.refresh' });
    expect(calls).toHaveLength(2);
    calls[1]?.resolve([transactionRow('new')]);
    calls[0]?.resolve([transactionRow('old')]);
    await settle();
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual(['new']);
  });
});
