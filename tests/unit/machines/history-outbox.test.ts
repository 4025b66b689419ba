import { describe, expect, it } from 'vitest';
import { sendCopy } from '../../../src/copy/index.ts';
import {
  HISTORY_TRIES,
  historyOutboxMachine,
  historyOutboxSavingTag,
  retryable,
  type HistoryOutboxFact,
} from '../../../src/machines/send/history-outbox.machine.ts';
import type { RecordTransactionInput } from '../../../src/machines/send/send-types.ts';
import { BackendError } from '../../../src/services/supabase/types.ts';
import { settle } from '../../support/deferred-actor.ts';
import { machineHarness } from '../../support/machines/harness.ts';

// The send machine's history outbox, on its own: which failures are tried again, the back-off,
// one save at a time in order, and what is told when rows are dropped.

const A = `0x${'a1'.repeat(32)}`;
const B = `0x${'b2'.repeat(32)}`;
const C = `0x${'c3'.repeat(32)}`;

function start() {
  // The harness's stand-in root is the outbox's parent: what it tells its parent is recorded there.
  const h = machineHarness(historyOutboxMachine);
  const { actor, clock, toasts } = h;
  const told = h.facts as HistoryOutboxFact[];
  const records = h.calls<unknown, RecordTransactionInput>('recordTransaction');
  const add = (hash: string) => actor.send({ type: 'historyOutbox.add', hash });
  const saving = () => h.snapshot().hasTag(historyOutboxSavingTag);
  const hashes = () => records.map((call) => call.input.hash);
  return { actor, clock, toasts, told, records, add, saving, hashes };
}

const notSaved = (hash: string) => ({
  title: sendCopy.historyNotSaved,
  description: sendCopy.historyNotSavedDescription(hash),
});

describe('history outbox: which failures are tried again', () => {
  it.each([
    ['no answer (network_error)', new BackendError('Failed to send a request', 'network_error'), true],
    ['a 500', new BackendError('The transfer could not be recorded', null, 500), true],
    ['a 502 (the chain could not be asked)', new BackendError('Chain unavailable', null, 502), true],
    ['a 503', new BackendError('down', null, 503), true],
    ['a 408', new BackendError('timeout', null, 408), true],
    ['a 429 (busy)', new BackendError('busy', 'busy', 429), true],
    ['an unreadable answer', new BackendError('answered without saying whether it recorded'), true],
    ['anything else thrown', new Error('boom'), true],
    ['an answer below 400 (a redirect, not a refusal)', new BackendError('moved', null, 302), true],
    ['a 400 (a malformed request)', new BackendError('Bad request', null, 400), false],
    ['a 499', new BackendError('Client closed request', null, 499), false],
    ['a 401 (not signed in)', new BackendError('Sign in first', null, 401), false],
    ['a 409 (no proven wallet)', new BackendError('Link a wallet first', null, 409), false],
    ['a 404 (not on the chain)', new BackendError('Transaction not found', null, 404), false],
    ['a 422 (reverted, or not a DDEX transfer)', new BackendError('Transaction reverted', null, 422), false],
    ['no backend configured', new BackendError('No backend', 'client_unavailable'), false],
  ])('%s: %s', (_, error, expected) => {
    expect(retryable(error)).toBe(expected);
  });
});

describe('history outbox', () => {
  it('saves a row, tells its parent, and is idle again', async () => {
    const o = start();
    expect(o.saving()).toBe(false);
    o.add(A);
    expect(o.saving()).toBe(true);
    expect(o.hashes()).toEqual([A]);
    o.records[0]?.resolve({ recorded: true });
    await settle();
    expect(o.told).toEqual([{ type: 'historyOutbox.settled', hashes: [A] }]);
    expect(o.toasts).toEqual([]);
    expect(o.saving()).toBe(false);
    expect(o.actor.getSnapshot().value).toBe('idle');
  });

  it(`tries ${HISTORY_TRIES} times in all, waiting 1 s then 2 s, then shows the toast once`, async () => {
    const o = start();
    o.add(A);
    o.records[0]?.reject(new BackendError('down', null, 503));
    await settle();
    expect(o.actor.getSnapshot().value).toBe('waiting');
    expect(o.saving()).toBe(true);
    o.clock.increment(999);
    expect(o.records).toHaveLength(1);
    o.clock.increment(1);
    expect(o.records).toHaveLength(2);
    o.records[1]?.reject(new BackendError('offline', 'network_error'));
    await settle();
    o.clock.increment(1999);
    expect(o.records).toHaveLength(2);
    o.clock.increment(1);
    expect(o.hashes()).toEqual([A, A, A]);
    expect(o.toasts).toEqual([]);
    o.records[2]?.reject(new BackendError('down', null, 503));
    await settle();
    expect(o.toasts).toEqual([notSaved(A)]);
    expect(o.told).toEqual([{ type: 'historyOutbox.settled', hashes: [A] }]);
    expect(o.saving()).toBe(false);
    o.clock.increment(60_000);
    expect(o.records).toHaveLength(3);
  });

  it('a refusal is not tried again: the toast at once, and the next row goes', async () => {
    const o = start();
    o.add(A);
    o.add(B);
    o.records[0]?.reject(new BackendError('Transaction not found', null, 404));
    await settle();
    expect(o.toasts).toEqual([notSaved(A)]);
    expect(o.hashes()).toEqual([A, B]);
    expect(o.told).toEqual([{ type: 'historyOutbox.settled', hashes: [A] }]);
  });

  it('saves one row at a time, in order, each with a fresh count of tries', async () => {
    const o = start();
    o.add(A);
    o.add(B);
    expect(o.hashes()).toEqual([A]);
    o.records[0]?.reject(new BackendError('down', null, 503));
    await settle();
    // Added while the first waits to be tried again: queued behind it.
    o.add(C);
    o.clock.increment(1000);
    o.records[1]?.reject(new BackendError('down', null, 503));
    await settle();
    o.clock.increment(2000);
    o.records[2]?.resolve({ recorded: false });
    await settle();
    expect(o.hashes()).toEqual([A, A, A, B]);
    o.records[3]?.reject(new BackendError('down', null, 503));
    await settle();
    // B's first failure waits 1 s, not A's third 5 s.
    o.clock.increment(1000);
    expect(o.hashes()).toEqual([A, A, A, B, B]);
    o.records[4]?.resolve({ recorded: true });
    await settle();
    o.records[5]?.resolve({ recorded: true });
    await settle();
    expect(o.hashes()).toEqual([A, A, A, B, B, C]);
    expect(o.told.map((fact) => fact.hashes)).toEqual([[A], [B], [C]]);
    expect(o.toasts).toEqual([]);
    expect(o.saving()).toBe(false);
  });

  it('abandoning drops every row waiting with one toast that counts them, and ignores a late answer', async () => {
    const o = start();
    o.add(A);
    o.add(B);
    o.actor.send({ type: 'historyOutbox.abandon' });
    expect(o.toasts).toEqual([
      { title: sendCopy.historyNotSaved, description: sendCopy.historyAbandonedDescription(2) },
    ]);
    expect(o.told).toEqual([{ type: 'historyOutbox.settled', hashes: [A, B] }]);
    expect(o.saving()).toBe(false);
    o.records[0]?.resolve({ recorded: true });
    await settle();
    expect(o.told).toHaveLength(1);
    // A new row afterwards starts afresh.
    o.add(C);
    expect(o.hashes()).toEqual([A, C]);
  });

  it('abandoning while waiting to try again cancels the try', async () => {
    const o = start();
    o.add(A);
    o.records[0]?.reject(new BackendError('down', null, 503));
    await settle();
    o.actor.send({ type: 'historyOutbox.abandon' });
    o.clock.increment(60_000);
    expect(o.records).toHaveLength(1);
    expect(o.toasts).toEqual([
      { title: sendCopy.historyNotSaved, description: sendCopy.historyAbandonedDescription(1) },
    ]);
  });

  it('abandoning with nothing waiting says nothing', () => {
    const o = start();
    o.actor.send({ type: 'historyOutbox.abandon' });
    expect(o.toasts).toEqual([]);
    expect(o.told).toEqual([]);
  });
});
