import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import { EMPTY_BOT_DRAFT, MAX_BOTS, type Bot, type BotStatus } from '../../domain/bots.ts';
import { checkDraft, draftOf } from './bot-checks.ts';
import { botsToasts } from './bots-toasts.ts';
import type {
  BotsContext,
  BotsEvent,
  BotsFeedInput,
  BotsInput,
  BotsLoad,
  DeleteBotInput,
  LoadBotsInput,
  SaveBotInput,
  SetBotStatusInput,
} from './bots-types.ts';
import { backoffMs, notProvided, showToast } from '../shared.ts';

// The Trading Bots tab (docs/product.md#trading-bots), started by the composition root while the
// tab is open. A signed-in user's bots watch the DDEX/WETH market on the server and notify their
// owner; here the user lists them with their newest runs, creates, edits, pauses, resumes and
// deletes them. A visitor is asked to log in.
//
//   signedOut ⇄ active (session.changed; another user starts active afresh)
//   active.list: loading → ready | failed (tries again after 1, 2, 5, then every 10 s, or at once
//                on 'Try Again'); ready: idle, editing → saving, toggling, confirmingDelete →
//                deleting, refreshing
//   active.feed: connected.subscribing → connected.live; lost → waiting (the same back-off) → again
//
// One operation at a time: a view offers the list's buttons only in `idle` (or `refreshing`, which
// a button interrupts). A change the feed announces marks the list stale; it is read again as soon
// as the list is idle, so an open form is never reset under the user. Each (re)subscribe marks it
// stale too: rows written while the feed was not up never reached it. The bots' firings reach the
// user as notifications (the portal's own feed and toast), not from here.

export type {
  BotsContext,
  BotsEvent,
  BotsFeedEvent,
  BotsInput,
  BotsLoad,
  BotFieldEvent,
} from './bots-types.ts';

/** The tags a view reads; the states' names are the chart's business. */
export const botsTags = {
  /** A visitor: ask to log in. */
  signedOut: 'signedOut',
  /** The first load of the list. */
  loading: 'loading',
  /** The list could not be loaded; `loadFailures` counts the tries. */
  failed: 'failed',
  /** The form is open (`draft`, `problems`, `editingId`). */
  editing: 'editing',
  /** A request for one bot or the form is under way: the buttons wait. */
  busy: 'busy',
  /** Asking whether to delete `targetId`. */
  confirmingDelete: 'confirmingDelete',
  /** The list's buttons take a press. */
  idle: 'idle',
  /** The live feed is down and will be subscribed again. */
  reconnecting: 'reconnecting',
} as const;

/** Failures counted in a row, at most: the back-off's last step (10 s) from there on. */
const MAX_FAILURES = 4;

const findBot = (context: BotsContext, id: string | null): Bot | undefined =>
  context.bots.find((bot) => bot.id === id);

/** The list with `bot` in place of its old row, or added at the end when it is new. */
const withBot = (bots: readonly Bot[], bot: Bot): Bot[] =>
  bots.some((known) => known.id === bot.id)
    ? bots.map((known) => (known.id === bot.id ? bot : known))
    : [...bots, bot];

/** A session's state before anything is read: nothing shown, nothing under way. */
function freshContext(userId: string | null): BotsContext {
  return {
    userId,
    bots: [],
    runs: {},
    loadFailures: 0,
    feedFailures: 0,
    draft: EMPTY_BOT_DRAFT,
    editingId: null,
    problems: {},
    fields: null,
    targetId: null,
    targetStatus: null,
    stale: false,
  };
}

const closedForm = { draft: EMPTY_BOT_DRAFT, editingId: null, problems: {}, fields: null } as const;

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

export const botsMachine = setup({
  types: {} as { context: BotsContext; events: BotsEvent; input: BotsInput },
  actors: {
    /** The user's bots and the newest runs of each. */
    loadBots: fromPromise<BotsLoad, LoadBotsInput>(notProvided('loadBots')),
    /** Creates or updates a bot; resolves with the row saved. */
    saveBot: fromPromise<Bot, SaveBotInput>(notProvided('saveBot')),
    setBotStatus: fromPromise<Bot, SetBotStatusInput>(notProvided('setBotStatus')),
    deleteBot: fromPromise<unknown, DeleteBotInput>(notProvided('deleteBot')),
    /** Subscribes to the user's bots and runs; sends back BotsFeedEvent; unsubscribes when stopped. */
    botsFeed: fromCallback<EventObject, BotsFeedInput>(notProvided('botsFeed')),
  },
  actions: {
    showToast,
    /** A new session (or another user's): nothing of the last one is kept. */
    takeUser: assign(({ event }) =>
      freshContext(event.type === 'session.changed' ? (event.user?.id ?? null) : null),
    ),
    forget: assign(() => freshContext(null)),
    takeLoad: assign(({ event }) => {
      if (!('output' in event)) return {};
      const { bots, runs } = event.output as BotsLoad;
      return { bots, runs, loadFailures: 0 };
    }),
    markStale: assign({ stale: true }),
    /** The form empties for a new bot, and again when it closes. */
    resetForm: assign({ ...closedForm }),
    openBotForm: assign(({ context, event }) => {
      const bot = findBot(context, event.type === 'bots.edit' ? event.id : null);
      return { ...closedForm, draft: bot ? draftOf(bot) : EMPTY_BOT_DRAFT, editingId: bot?.id ?? null };
    }),
    takeField: assign(({ context, event }) => {
      if (event.type !== 'bots.field') return {};
      const { [event.name]: _answered, ...problems } = context.problems;
      return { draft: { ...context.draft, [event.name]: event.value }, problems };
    }),
    showProblems: assign(({ context }) => {
      const checked = checkDraft(context.draft);
      return { problems: 'problems' in checked ? checked.problems : {} };
    }),
    takeFields: assign(({ context }) => {
      const checked = checkDraft(context.draft);
      return { fields: 'fields' in checked ? checked.fields : null, problems: {} };
    }),
    takeTarget: assign(({ event }) => {
      const id = 'id' in event ? event.id : null;
      const status: BotStatus | null =
        event.type === 'bots.pause' ? 'paused' : event.type === 'bots.resume' ? 'active' : null;
      return { targetId: id, targetStatus: status };
    }),
    dropTarget: assign({ targetId: null, targetStatus: null }),
    /** The row the backend answered with, in place of the old one (or added). */
    takeBot: assign({
      bots: ({ context, event }) =>
        'output' in event ? withBot(context.bots, event.output as Bot) : context.bots,
    }),
    dropTargetBot: assign(({ context }) => {
      const { [context.targetId ?? '']: _deleted, ...runs } = context.runs;
      return { bots: context.bots.filter((bot) => bot.id !== context.targetId), runs };
    }),
  },
  guards: {
    signsIn: ({ event }) => event.type === 'session.changed' && event.user !== null,
    signsOut: ({ event }) => event.type === 'session.changed' && event.user === null,
    otherUser: ({ context, event }) => event.type === 'session.changed' && event.user?.id !== context.userId,
    hasUser: ({ context }) => context.userId !== null,
    belowLimit: ({ context }) => context.bots.length < MAX_BOTS,
    knownBot: ({ context, event }) => 'id' in event && findBot(context, event.id) !== undefined,
    activeBot: ({ context, event }) => 'id' in event && findBot(context, event.id)?.status === 'active',
    pausedBot: ({ context, event }) => 'id' in event && findBot(context, event.id)?.status === 'paused',
    draftValid: ({ context }) => 'fields' in checkDraft(context.draft),
    stale: ({ context }) => context.stale,
    feedSubscribed: ({ event }) => event.type === 'bots.feedStatus' && event.status === 'SUBSCRIBED',
    feedLost: ({ event }) => event.type === 'bots.feedStatus' && event.status !== 'SUBSCRIBED',
  },
  delays: {
    // The back-off of docs/product.md#constants: 1, 2, 5, then every 10 s.
    botsRetry: ({ context }) => backoffMs(context.loadFailures),
    feedRetry: ({ context }) => backoffMs(context.feedFailures),
  },
}).createMachine({
  id: 'bots',
  context: ({ input }) => freshContext(input.userId),
  initial: 'routing',
  states: {
    routing: { always: [{ guard: 'hasUser', target: 'active' }, { target: 'signedOut' }] },
    signedOut: {
      tags: [botsTags.signedOut],
      entry: 'forget',
      on: { 'session.changed': { guard: 'signsIn', target: 'active', actions: 'takeUser' } },
    },
    active: {
      type: 'parallel',
      on: {
        'session.changed': [
          { guard: 'signsOut', target: 'signedOut' },
          { guard: 'otherUser', target: 'active', reenter: true, actions: 'takeUser' },
        ],
      },
      states: {
        list: {
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
                          params: ({ context, event }) =>
                            botsToasts.saved(event.output, context.editingId === null),
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
                        params: ({ context, event }) =>
                          botsToasts.statusFailed(event.error, context.targetStatus),
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
                          params: ({ context }) =>
                            botsToasts.deleted(findBot(context, context.targetId)?.name ?? ''),
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
        },
        feed: {
          initial: 'connected',
          states: {
            connected: {
              invoke: {
                id: 'botsFeed',
                src: 'botsFeed',
                input: ({ context }) => ({ userId: context.userId ?? '' }),
                onError: 'waiting',
              },
              on: { 'bots.feedStatus': { guard: 'feedLost', target: 'waiting' } },
              initial: 'subscribing',
              states: {
                subscribing: {
                  on: {
                    'bots.feedStatus': {
                      guard: 'feedSubscribed',
                      target: 'live',
                      actions: assign({ feedFailures: 0 }),
                    },
                  },
                },
                live: {},
              },
            },
            /** Leaving `connected` stopped the feed (it unsubscribes); it is subscribed afresh after the wait. */
            waiting: {
              tags: [botsTags.reconnecting],
              entry: assign({
                feedFailures: ({ context }) => Math.min(context.feedFailures + 1, MAX_FAILURES),
              }),
              after: { feedRetry: 'connected' },
            },
          },
        },
      },
    },
  },
});
