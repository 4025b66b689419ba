import { beforeEach, expect } from 'vitest';
import { sendCopy } from '../../src/copy/index.ts';
import {
  HISTORY_TRIES,
  historyOutboxMachine,
  historyOutboxSavingTag,
  type HistoryOutboxFact,
} from '../../src/machines/history-outbox.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { BackendError } from '../../src/services/supabase/types.ts';
import { describeModel } from './support/index.ts';

const A = `0x${'a1'.repeat(32)}`;
const B = `0x${'b2'.repeat(32)}`;

const toasts: ToastRequest[] = [];
const told: HistoryOutboxFact[] = [];

beforeEach(() => {
  toasts.length = 0;
  told.length = 0;
});

type Snapshot = ReturnType<typeof historyOutboxMachine.transition>;

describeModel({
  name: 'history-outbox',
  machine: historyOutboxMachine,
  deferredActors: ['recordTransaction'],
  provide: {
    actions: {
      showToast: (_, params) => void toasts.push(params),
      // The paths run this machine as a root: its parent is this recorder.
      tellParent: (_, fact) => void told.push(fact),
    },
  },
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
    'xstate.error.actor.recordTransaction': [
      {
        type: 'xstate.error.actor.recordTransaction',
        error: new BackendError('record-transaction is down', null, 503),
      },
      {
        type: 'xstate.error.actor.recordTransaction',
        error: new BackendError('Link a wallet to your profile before recording transfers', null, 409),
      },
    ],
  },
  states: {
    '*': (snapshot: Snapshot) => {
      const { queue, failures } = snapshot.context;
      expect(failures).toBeLessThan(HISTORY_TRIES);
      // Nothing waits without being saved or about to be, and nothing is saved with nothing waiting.
      expect(snapshot.hasTag(historyOutboxSavingTag)).toBe(queue.length > 0);
      for (const toast of toasts) expect(toast.title).toBe(sendCopy.historyNotSaved);
      for (const fact of told) expect(fact.hashes.length).toBeGreaterThan(0);
    },
    idle: (snapshot: Snapshot) => expect(snapshot.context).toEqual({ queue: [], failures: 0 }),
    waiting: (snapshot: Snapshot) => expect(snapshot.context.failures).toBeGreaterThan(0),
  },
});
