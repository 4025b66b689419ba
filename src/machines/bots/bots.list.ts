import { assign } from 'xstate';
import { botsToasts } from './bots-toasts.ts';
import type { BotsContext } from './bots-types.ts';
import { botsSetup, botsTags, findBot, MAX_FAILURES } from './bots.setup.ts';

// The bots machine's `active.list` region: the list read, tried again with back-off, and the one
// operation at a time the idle list takes (bots.machine.ts holds the chart).

/**
 * What the idle list does with a press. While it is refreshing the same presses are taken (the
 * read is dropped), and `markStale` has it read again once the press is dealt with.
 */
const listPresses = (interrupts: boolean) => {
  const extra = interrupts ? (['markStale'] as const) : ([] as const);
  return {
    'bots.refresh': { target: 'refreshing', reenter: true },
    'bots.create': [
      { guard: 'belowLimit', target: 'editing', actions: [...extra, 'resetForm'] },
      { actions: { type: 'showToast', params: botsToasts.limitReached } },
    ],
    'bots.edit': { guard: 'knownBot', target: 'editing', actions: [...extra, 'openBotForm'] },
    'bots.pause': { guard: 'activeBot', target: 'toggling', actions: [...extra, 'takeTarget'] },
    'bots.resume': { guard: 'pausedBot', target: 'toggling', actions: [...extra, 'takeTarget'] },
    'bots.delete': { guard: 'knownBot', target: 'confirmingDelete', actions: [...extra, 'takeTarget'] },
  } as const;
};

export const listRegion = botsSetup.createStateConfig({
  initial: 'loading',
  on: {
    'bots.changed': { actions: 'markStale' },
    'bots.feedStatus': { guard: 'feedSubscribed', actions: 'markStale' },
  },
  states: {
    loading: {
      tags: [botsTags.loading],
      // What this read misses, a change after it, marks the list stale again.
      entry: assign({ stale: false }),
      invoke: {
        id: 'loadBots',
        src: 'loadBots',
        input: ({ context }) => ({ userId: context.userId ?? '' }),
        // 'ready.idle', not 'ready' (its initial state): the diagram's renderer cannot draw an
        // arrow into a compound state inside a parallel region.
        onDone: { target: 'ready.idle', actions: 'takeLoad' },
        onError: {
          target: 'failed',
          actions: assign({
            loadFailures: ({ context }) => Math.min(context.loadFailures + 1, MAX_FAILURES),
          }),
        },
      },
    },
    // Shown in the tab, not as a toast: a backend that is down would repeat it.
    failed: {
      tags: [botsTags.failed],
      after: { botsRetry: 'loading' },
      on: { 'bots.retry': 'loading' },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          tags: [botsTags.idle],
          entry: 'dropTarget',
          always: { guard: 'stale', target: 'refreshing' },
          on: listPresses(false),
        },
        editing: {
          tags: [botsTags.editing],
          on: {
            'bots.field': { actions: 'takeField' },
            'bots.submit': [
              { guard: 'draftValid', target: 'saving', actions: 'takeFields' },
              { actions: 'showProblems' },
            ],
            'bots.cancel': { target: 'idle', actions: 'resetForm' },
          },
        },
        saving: {
          tags: [botsTags.editing, botsTags.busy],
          invoke: {
            id: 'saveBot',
            src: 'saveBot',
            input: ({ context }) => ({
              id: context.editingId,
              fields: context.fields as NonNullable<BotsContext['fields']>,
            }),
            onDone: {
              target: 'idle',
              actions: [
                {
                  type: 'showToast',
                  params: ({ context, event }) => botsToasts.saved(event.output, context.editingId === null),
                },
                'takeBot',
                'resetForm',
              ],
            },
            // Back to the form as it was typed, to be corrected or sent again.
            onError: {
              target: 'editing',
              actions: [
                {
                  type: 'showToast',
                  params: ({ context, event }) =>
                    botsToasts.saveFailed(event.error, context.editingId === null),
                },
                assign({ fields: null }),
              ],
            },
          },
        },
        toggling: {
          tags: [botsTags.busy],
          invoke: {
            id: 'setBotStatus',
            src: 'setBotStatus',
            input: ({ context }) => ({
              id: context.targetId ?? '',
              status: context.targetStatus ?? 'active',
            }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'showToast', params: ({ event }) => botsToasts.statusSet(event.output) },
                'takeBot',
              ],
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'showToast',
                params: ({ context, event }) => botsToasts.statusFailed(event.error, context.targetStatus),
              },
            },
          },
        },
        confirmingDelete: {
          tags: [botsTags.confirmingDelete],
          on: { 'bots.confirmDelete': 'deleting', 'bots.cancel': 'idle' },
        },
        deleting: {
          tags: [botsTags.confirmingDelete, botsTags.busy],
          invoke: {
            id: 'deleteBot',
            src: 'deleteBot',
            input: ({ context }) => ({ id: context.targetId ?? '' }),
            onDone: {
              target: 'idle',
              actions: [
                {
                  type: 'showToast',
                  params: ({ context }) => botsToasts.deleted(findBot(context, context.targetId)?.name ?? ''),
                },
                'dropTargetBot',
              ],
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'showToast',
                params: ({ event }) => botsToasts.deleteFailed(event.error),
              },
            },
          },
        },
        /** Reading the list again in the background: the list stays on show and takes presses. */
        refreshing: {
          tags: [botsTags.idle],
          entry: assign({ stale: false }),
          invoke: {
            id: 'refreshBots',
            src: 'loadBots',
            input: ({ context }) => ({ userId: context.userId ?? '' }),
            onDone: { target: 'idle', actions: 'takeLoad' },
            onError: {
              target: 'idle',
              actions: {
                type: 'showToast',
                params: ({ event }) => botsToasts.refreshFailed(event.error),
              },
            },
          },
          on: listPresses(true),
        },
      },
    },
  },
});
