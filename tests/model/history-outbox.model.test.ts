import { describe, expect } from 'vitest';
import type { EventObject } from 'xstate';
import { sendCopy } from '../../src/copy/index.ts';
import {
  HISTORY_TRIES,
  historyOutboxMachine,
  historyOutboxSavingTag,
  type HistoryOutboxFact,
} from '../../src/machines/send/history-outbox.machine.ts';
import { BackendError } from '../../src/services/supabase/types.ts';
import { errorOf } from '../support/model/recorders.ts';
import { describeModel, type Recorded } from '../support/model/index.ts';

const A = `0x${'a1'.repeat(32)}`;
const B = `0x${'b2'.repeat(32)}`;

/** The failures the paths give a save, and whether another try may help (docs/product.md#send-steps). */
const failures = [
  { error: new BackendError('record-transaction is down', null, 503), retry: true, also: false },
  {
    error: new BackendError('Link a wallet to your profile before recording transfers', null, 409),
    retry: false,
    also: false,
  },
  // The paths meet one failure per branch: these second ones get a model of their own.
  { error: new BackendError('Failed to send a request', 'network_error'), retry: true, also: true },
  { error: new BackendError('busy', 'busy', 429), retry: true, also: true },
  { error: new BackendError('No backend', 'client_unavailable'), retry: false, also: true },
];
const retries = (event: EventObject) => failures.find((f) => f.error === errorOf(event))?.retry;

/** The waits between tries: 1 s, then 2 s. */
const RETRY_MS = [1000, 2000];

type Snapshot = ReturnType<typeof historyOutboxMachine.transition>;

const model = (also: boolean) =>
  describeModel({
    name: 'history-outbox',
    machine: historyOutboxMachine,
    // Every cycle-free path too (up to maxPaths): a third try, two rows in a row, leaving mid-wait.
    simplePaths: true,
    maxPaths: also ? 40 : 80,
    // Which rows wait matters only as none, one or more; the failures pick the branch and the wait.
    serializeState: (snapshot) =>
      JSON.stringify({
        value: snapshot.value,
        queued: Math.min(snapshot.context.queue.length, 2),
        failures: snapshot.context.failures,
      }),
    events: {
      'historyOutbox.add': [
        { type: 'historyOutbox.add', hash: A },
        { type: 'historyOutbox.add', hash: B },
      ],
      'xstate.done.actor.recordTransaction': [
        { type: 'xstate.done.actor.recordTransaction', output: { recorded: true } },
      ],
      'xstate.error.actor.recordTransaction': failures
        .filter((failure) => failure.also === also)
        .map(({ error }) => ({ type: 'xstate.error.actor.recordTransaction', error })),
    },
    // The product's waits, not the machine's: a longer one would leave the path waiting.
    delays: {
      historyRetry: ({ context, event }) => {
        // Only a failure another try may fix is tried again.
        if (event.type.startsWith('xstate.error.')) expect(retries(event)).toBe(true);
        return RETRY_MS[context.failures - 1] ?? Number.POSITIVE_INFINITY;
      },
    },
    states: {
      '*': (snapshot: Snapshot, { before, shown, told }) => {
        // What the parent was told: the rows that left.
        const settled = told as Recorded<HistoryOutboxFact>[];
        const { queue, failures: failed } = snapshot.context;
        expect(failed).toBeLessThan(HISTORY_TRIES);
        // Nothing waits without being saved or about to be, and nothing is saved with nothing waiting.
        expect(snapshot.hasTag(historyOutboxSavingTag)).toBe(queue.length > 0);
        // Nothing waits at first.
        if (!before) return expect(snapshot.context).toEqual({ queue: [], failures: 0 });
        // Rows leave from the front, in the order they came, each told to the parent once; the
        // rest keep their order, and an added row joins the end.
        const gone = settled.flatMap(({ params }) => params.hashes);
        expect(gone).toEqual(before.context.queue.slice(0, gone.length));
        expect(queue.slice(0, before.context.queue.length - gone.length)).toEqual(
          before.context.queue.slice(gone.length),
        );
        expect(queue.length - (before.context.queue.length - gone.length)).toBeLessThanOrEqual(1);
        for (const { params } of settled) expect(params.type).toBe('historyOutbox.settled');
        // A row that leaves unsaved says so: one toast for the lot.
        const unsaved = settled.filter(({ event }) => event.type !== 'xstate.done.actor.recordTransaction');
        expect(shown).toHaveLength(unsaved.length);
        for (const { params, event } of shown) {
          if (event.type === 'historyOutbox.abandon') {
            expect(params).toEqual({
              title: sendCopy.historyNotSaved,
              description: sendCopy.historyAbandonedDescription(before.context.queue.length),
            });
            expect(queue).toEqual([]);
          } else {
            // After a refusal, or the last try: the transfer is named.
            expect(retries(event) === false || before.context.failures === HISTORY_TRIES - 1).toBe(true);
            expect(params).toEqual({
              title: sendCopy.historyNotSaved,
              description: sendCopy.historyNotSavedDescription(before.context.queue[0] ?? ''),
            });
          }
        }
        // A new row starts with no failures.
        if (gone.length > 0) expect(snapshot.context.failures).toBe(0);
      },
      // The first row waiting is the one being saved.
      saving: (snapshot: Snapshot, { inputOf }) =>
        expect(inputOf('recordTransaction')).toEqual({ hash: snapshot.context.queue[0] }),
      idle: (snapshot: Snapshot) => expect(snapshot.context).toEqual({ queue: [], failures: 0 }),
      // A wait follows a failure another try may fix, and counts it.
      waiting: (snapshot: Snapshot, { before, shown }) => {
        expect(snapshot.context.failures).toBeGreaterThan(0);
        if (before?.matches('saving')) {
          expect(snapshot.context.failures).toBe(before.context.failures + 1);
          expect(shown).toEqual([]);
        }
      },
    },
  });

model(false);
// The second failure of each branch, in a describe of its own so that its paths are named apart.
describe('the second failure of each branch', () => model(true));
