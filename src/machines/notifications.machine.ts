import { assign, fromCallback, fromPromise, raise, setup } from 'xstate';
import type { EventObject } from 'xstate';
import { notificationCopy } from '../copy/index.ts';
import type { AuthUser } from '../domain/auth.ts';
import type { NotificationChange, NotificationRow, SubscriptionStatus } from '../domain/notifications.ts';
import { backoffMs, messageOf, notProvided, showToast } from './shared.ts';

// The signed-in user's notifications (docs/product.md#notifications). The root
// invokes this machine for the length of a session, with its user.
//
// Four things run side by side:
// - list: the 20 newest rows, fetched once the live feed first reports (or
//   after 5 s without a word from it), then again after every change the feed
//   announces (a fetch under way restarts, so the newest answer wins); a new
//   row also gets a toast. Waiting for the feed makes sign-in one fetch, not
//   two, and still misses nothing: whatever is inserted before the
//   subscription is up is in that first answer.
// - feed: the live subscription. When it reports an error or closes, it is
//   torn down and subscribed afresh after 1, 2, 5, then every 10 s; each
//   later successful subscribe resets that back-off and re-fetches the list,
//   since rows inserted while it was down never reached it.
// - reads: marking read is optimistic (the dot goes at once); the ids
//   wait in a queue and go to the backend one call at a time. If a call fails,
//   its rows turn unread again and the list is re-fetched, so it ends as the
//   backend has it. Clearing is not optimistic: the rows go when the delete
//   has succeeded.
//
// The unread count lives in context, beside the rows it counts; the header's
// dot reads it from here. Which modal is open is the view's business; it
// sends `notifications.open` when the list is shown.

/** The feed's states, as supabase-js reports them. */
export type FeedStatus = SubscriptionStatus;

/** What the `notificationFeed` callback actor sends back. */
export type NotificationFeedEvent =
  | ({ type: 'notifications.changed' } & NotificationChange)
  | { type: 'notifications.feedStatus'; status: FeedStatus };

export type NotificationsInput = { user: AuthUser };

export type NotificationsEvent =
  /** The notifications list was shown: every unread row is marked read. */
  | { type: 'notifications.open' }
  | { type: 'notifications.markOne'; id: string }
  | { type: 'notifications.clearAll' }
  /** Fetch the list again; raised after a failed mark and a clear, so the list ends as the backend has it. */
  | { type: 'notifications.refresh' }
  | NotificationFeedEvent;

/** Rows marked read locally for one backend call; `all` when they come from opening the list. */
export type ReadBatch = { ids: string[]; all: boolean };

export type NotificationsContext = {
  userId: string;
  /** Newest first, at most 20. */
  notifications: NotificationRow[];
  unreadCount: number;
  /** Marked read locally, waiting for the call under way to finish. */
  queuedReads: ReadBatch | null;
  /** Marked read locally, in the markRead call under way. */
  sendingReads: ReadBatch | null;
  /** Consecutive failed subscribes since the last good one, capped at 4 (the 10 s step). */
  feedFailures: number;
};

const MAX_FEED_FAILURES = 4;

function withRead(rows: NotificationRow[], ids: readonly string[], isRead: boolean): NotificationRow[] {
  return rows.map((row) => (ids.includes(row.id) ? { ...row, is_read: isRead } : row));
}

function merge(batch: ReadBatch | null, ids: string[], all: boolean): ReadBatch {
  return { ids: [...(batch?.ids ?? []), ...ids], all: (batch?.all ?? false) || all };
}

export const notificationsMachine = setup({
  types: {} as { context: NotificationsContext; events: NotificationsEvent; input: NotificationsInput },
  actors: {
    listNotifications: fromPromise<NotificationRow[], { userId: string }>(notProvided('listNotifications')),
    markRead: fromPromise<unknown, { ids: string[] }>(notProvided('markRead')),
    clearNotifications: fromPromise<unknown, { userId: string }>(notProvided('clearNotifications')),
    /** Subscribes to the user's rows; sends back NotificationFeedEvent; unsubscribes when stopped. */
    notificationFeed: fromCallback<EventObject, { userId: string }>(notProvided('notificationFeed')),
  },
  actions: {
    showToast,
    /** Keeps `unreadCount` in step with the rows. */
    syncUnread: assign({
      unreadCount: ({ context }) => context.notifications.filter((row) => !row.is_read).length,
    }),
  },
  guards: {
    isInsert: ({ event }) => event.type === 'notifications.changed' && event.eventType === 'INSERT',
    feedSubscribed: ({ event }) => event.type === 'notifications.feedStatus' && event.status === 'SUBSCRIBED',
    feedLost: ({ event }) => event.type === 'notifications.feedStatus' && event.status !== 'SUBSCRIBED',
    hasUnread: ({ context }) => context.notifications.some((row) => !row.is_read),
    isUnread: ({ context, event }) =>
      event.type === 'notifications.markOne' &&
      context.notifications.some((row) => row.id === event.id && !row.is_read),
    hasQueuedReads: ({ context }) => context.queuedReads !== null,
  },
  delays: {
    // The reconnect back-off (docs/product.md#constants): 1, 2, 5, then every 10 s.
    feedRetry: ({ context }) => backoffMs(context.feedFailures),
    /** How long the first list waits for the feed before it is fetched anyway. */
    listWithoutFeed: 5000,
  },
}).createMachine({
  id: 'notifications',
  context: ({ input }) => ({
    userId: input.user.id,
    notifications: [],
    unreadCount: 0,
    queuedReads: null,
    sendingReads: null,
    feedFailures: 0,
  }),
  type: 'parallel',
  states: {
    list: {
      initial: 'awaitingFeed',
      on: {
        'notifications.changed': [
          {
            guard: 'isInsert',
            target: '.loading',
            actions: {
              type: 'showToast',
              params: ({ event }) => {
                const row = event.type === 'notifications.changed' ? event.row : null;
                return {
                  title: row?.title || notificationCopy.newFallbackTitle,
                  description: notificationCopy.preview(row?.message ?? ''),
                };
              },
            },
          },
          { target: '.loading' },
        ],
        'notifications.feedStatus': { guard: 'feedSubscribed', target: '.loading' },
        'notifications.refresh': '.loading',
      },
      states: {
        /** Signed in: the first fetch waits for the feed's first word, whatever it is. */
        awaitingFeed: {
          after: { listWithoutFeed: 'loading' },
          on: { 'notifications.feedStatus': 'loading' },
        },
        loading: {
          invoke: {
            id: 'listNotifications',
            src: 'listNotifications',
            input: ({ context }) => ({ userId: context.userId }),
            onDone: {
              target: 'ready',
              actions: [
                assign({
                  // Rows marked read here but not yet at the backend stay read.
                  notifications: ({ context, event }) =>
                    withRead(
                      event.output,
                      [...(context.queuedReads?.ids ?? []), ...(context.sendingReads?.ids ?? [])],
                      true,
                    ),
                }),
                'syncUnread',
              ],
            },
            onError: {
              target: 'ready',
              actions: {
                type: 'showToast',
                params: ({ event }) => ({
                  title: notificationCopy.fetchError,
                  description: messageOf(event.error),
                  variant: 'destructive',
                }),
              },
            },
          },
        },
        /** Showing the last answer (or, after a failed fetch, what was there before). */
        ready: {},
      },
    },
    feed: {
      initial: 'subscribing',
      states: {
        subscribing: {
          invoke: {
            id: 'notificationFeed',
            src: 'notificationFeed',
            input: ({ context }) => ({ userId: context.userId }),
            onError: 'lost',
          },
          initial: 'joining',
          states: {
            joining: {
              on: {
                'notifications.feedStatus': {
                  guard: 'feedSubscribed',
                  target: 'live',
                  actions: assign({ feedFailures: 0 }),
                },
              },
            },
            live: {},
          },
          on: {
            'notifications.feedStatus': { guard: 'feedLost', target: 'lost' },
          },
        },
        /** Leaving `subscribing` stopped the feed (it unsubscribes); pick the wait. */
        lost: {
          entry: assign({
            feedFailures: ({ context }) => Math.min(context.feedFailures + 1, MAX_FEED_FAILURES),
          }),
          after: { feedRetry: 'subscribing' },
        },
      },
    },
    reads: {
      initial: 'idle',
      on: {
        'notifications.open': {
          guard: 'hasUnread',
          actions: [
            assign(({ context }) => {
              const ids = context.notifications.filter((row) => !row.is_read).map((row) => row.id);
              return {
                notifications: withRead(context.notifications, ids, true),
                queuedReads: merge(context.queuedReads, ids, true),
              };
            }),
            'syncUnread',
          ],
        },
        'notifications.markOne': {
          guard: 'isUnread',
          actions: [
            assign(({ context, event }) => ({
              notifications: withRead(context.notifications, [event.id], true),
              queuedReads: merge(context.queuedReads, [event.id], false),
            })),
            'syncUnread',
          ],
        },
      },
      states: {
        idle: {
          always: {
            guard: 'hasQueuedReads',
            target: 'sending',
            actions: assign(({ context }) => ({ sendingReads: context.queuedReads, queuedReads: null })),
          },
        },
        sending: {
          invoke: {
            id: 'markRead',
            src: 'markRead',
            input: ({ context }) => ({ ids: context.sendingReads?.ids ?? [] }),
            onDone: { target: 'idle', actions: assign({ sendingReads: null }) },
            onError: {
              target: 'idle',
              actions: [
                {
                  type: 'showToast',
                  params: ({ context, event }) => ({
                    title: context.sendingReads?.all
                      ? notificationCopy.markError
                      : notificationCopy.markOneError,
                    description: messageOf(event.error),
                    variant: 'destructive',
                  }),
                },
                assign(({ context }) => ({
                  notifications: withRead(context.notifications, context.sendingReads?.ids ?? [], false),
                  sendingReads: null,
                })),
                'syncUnread',
                raise({ type: 'notifications.refresh' }),
              ],
            },
          },
        },
      },
    },
    clear: {
      initial: 'idle',
      states: {
        idle: { on: { 'notifications.clearAll': 'clearing' } },
        clearing: {
          invoke: {
            id: 'clearNotifications',
            src: 'clearNotifications',
            input: ({ context }) => ({ userId: context.userId }),
            onDone: {
              target: 'idle',
              actions: [
                assign({ notifications: [] }),
                'syncUnread',
                { type: 'showToast', params: notificationCopy.cleared },
                // A fetch answered before the delete may still land; this one comes after it.
                raise({ type: 'notifications.refresh' }),
              ],
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'showToast',
                params: ({ event }) => ({
                  title: notificationCopy.clearError,
                  description: messageOf(event.error),
                  variant: 'destructive',
                }),
              },
            },
          },
        },
      },
    },
  },
});
