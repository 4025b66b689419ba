import { assign, fromPromise, sendParent, setup } from 'xstate';
import { sendCopy } from '../../copy/index.ts';
import type { RecordTransactionInput } from './send-types.ts';
import { backoffMs, notProvided, showToast } from '../shared.ts';

// The send machine's outbox for history rows (docs/product.md#send-steps): each transfer a
// signed-in user sends is queued here once it is confirmed, and record-transaction saves them one
// at a time, in order, so several sends in a row each get their row and the form is free meanwhile.
//
//   idle → saving → (waiting → saving)… → idle, and on to saving while rows wait
//
// A failure a retry can fix (no answer, a 5xx, 408, 429) is tried again after 1 s, then 2 s: three
// tries in all. A refusal it cannot fix (any other 4xx: signed out, no proven wallet, not on the
// chain, not a DDEX transfer; or no backend) is not retried. After the last try, 'Transfer not
// saved to history' names the transfer. record-transaction writes at most one row per user, hash
// and type, so a try whose answer was lost never makes a second row.
//
// record-transaction runs with the session of the moment it is called, not of the send: when the
// user signs out or switches accounts the send machine abandons what is queued, with one toast
// saying how many transfers may be missing from the history. Every transfer leaves with `historyOutbox.settled` to the parent,
// saved or not, which then reports it to the root.

/** The tries of one row, the first included. */
export const HISTORY_TRIES = 3;

/** The tag of the states in which a row is waiting to be saved; the form reads 'Saving to history...'. */
export const historyOutboxSavingTag = 'saving';

export type HistoryOutboxContext = {
  /** The hashes of the transfers waiting for their rows, oldest first; the first is being saved. */
  queue: string[];
  /** Failed tries of the first; sets the wait before the next. */
  failures: number;
};

export type HistoryOutboxEvent =
  | { type: 'historyOutbox.add'; hash: string }
  /** The session that sent them is over: the rows still waiting are dropped, with a toast. */
  | { type: 'historyOutbox.abandon' };

/** What this machine tells its parent: these transfers have left the outbox, saved or not. */
export type HistoryOutboxFact = { type: 'historyOutbox.settled'; hashes: string[] };

/** Whether another try may help: not after an answered 4xx other than 408 and 429, nor without a backend. */
export function retryable(error: unknown): boolean {
  const { status, code } = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown;
    code?: unknown;
  };
  if (code === 'client_unavailable') return false;
  return typeof status !== 'number' || status < 400 || status >= 500 || status === 408 || status === 429;
}

/** The first transfer leaves the queue, and its row with it. */
const SETTLE_FIRST = [
  {
    type: 'tellParent',
    params: ({ context }: { context: HistoryOutboxContext }): HistoryOutboxFact => ({
      type: 'historyOutbox.settled',
      hashes: context.queue.slice(0, 1),
    }),
  },
  { type: 'drop', params: 1 },
] as const;

export const historyOutboxMachine = setup({
  types: {} as { context: HistoryOutboxContext; events: HistoryOutboxEvent },
  actors: {
    recordTransaction: fromPromise<unknown, RecordTransactionInput>(notProvided('recordTransaction')),
  },
  actions: {
    showToast,
    tellParent: sendParent((_, fact: HistoryOutboxFact) => fact),
    /** The first `count` rows leave the queue; the next one starts with no failures. */
    drop: assign(({ context }, count: number) => ({ queue: context.queue.slice(count), failures: 0 })),
  },
  guards: {
    queued: ({ context }) => context.queue.length > 0,
    retryable: ({ context, event }) =>
      'error' in event && retryable(event.error) && context.failures + 1 < HISTORY_TRIES,
  },
  delays: {
    historyRetry: ({ context }) => backoffMs(context.failures),
  },
}).createMachine({
  id: 'historyOutbox',
  context: { queue: [], failures: 0 },
  initial: 'idle',
  on: {
    'historyOutbox.add': {
      actions: assign({ queue: ({ context, event }) => [...context.queue, event.hash] }),
    },
    'historyOutbox.abandon': {
      guard: 'queued',
      target: '.idle',
      actions: [
        {
          type: 'showToast',
          params: ({ context }) => ({
            title: sendCopy.historyNotSaved,
            description: sendCopy.historyAbandonedDescription(context.queue.length),
          }),
        },
        {
          type: 'tellParent',
          params: ({ context }) => ({ type: 'historyOutbox.settled', hashes: context.queue }),
        },
        { type: 'drop', params: Infinity },
      ],
    },
  },
  states: {
    /** Left as soon as a row waits: after an add, or after a row is done with the next one queued. */
    idle: { always: { guard: 'queued', target: 'saving' } },
    saving: {
      tags: [historyOutboxSavingTag],
      invoke: {
        id: 'recordTransaction',
        src: 'recordTransaction',
        input: ({ context }) => ({ hash: context.queue[0] ?? '' }),
        onDone: { target: 'idle', actions: SETTLE_FIRST },
        onError: [
          {
            guard: 'retryable',
            target: 'waiting',
            actions: assign({ failures: ({ context }) => context.failures + 1 }),
          },
          {
            // The transfer went through; only its row is missing.
            target: 'idle',
            actions: [
              {
                type: 'showToast',
                params: ({ context }) => ({
                  title: sendCopy.historyNotSaved,
                  description: sendCopy.historyNotSavedDescription(context.queue[0] ?? ''),
                }),
              },
              ...SETTLE_FIRST,
            ],
          },
        ],
      },
    },
    waiting: { tags: [historyOutboxSavingTag], after: { historyRetry: 'saving' } },
  },
});
