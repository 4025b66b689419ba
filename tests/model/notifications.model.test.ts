import { expect } from 'vitest';
import { fromCallback } from 'xstate';
import type { EventObject } from 'xstate';
import { notificationCopy } from '../../src/copy/index.ts';
import { notificationsMachine } from '../../src/machines/notifications.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import type { AuthUser } from '../../src/domain/auth.ts';
import type { NotificationRow } from '../../src/domain/notifications.ts';
import { describeModel } from './support/index.ts';

const alice: AuthUser = {
  id: 'alice',
  email: 'alice@example.com',
  emailConfirmedAt: null,
  web3Address: null,
  metadata: {},
};
const unread: NotificationRow = {
  id: 'n1',
  user_id: 'alice',
  title: 'Payment received',
  message: 'You received 5 DDEX from 0x1111111111111111111111111111111111111111.',
  is_read: false,
  read_at: null,
  created_at: '2025-01-01T00:00:00Z',
};

const toasts: ToastRequest[] = [];
let checked = 0;

describeModel({
  name: 'notifications',
  machine: notificationsMachine,
  deferredActors: ['listNotifications', 'markRead', 'clearNotifications'],
  provide: {
    actions: {
      showToast: (_, params: ToastRequest) => void toasts.push(params),
    },
    // The paths send the feed's events themselves; the feed only has to exist.
    actors: { notificationFeed: fromCallback<EventObject, { userId: string }>(() => () => undefined) },
  },
  // The root starts this machine when a session begins, with its user.
  input: { user: alice },
  events: {
    'notifications.markOne': [{ type: 'notifications.markOne', id: 'n1' }],
    'notifications.changed': [
      { type: 'notifications.changed', eventType: 'INSERT', row: unread },
      { type: 'notifications.changed', eventType: 'UPDATE', row: { ...unread, is_read: true } },
    ],
    'notifications.feedStatus': [
      { type: 'notifications.feedStatus', status: 'SUBSCRIBED' },
      { type: 'notifications.feedStatus', status: 'CHANNEL_ERROR' },
    ],
    'xstate.error.actor.notificationFeed': [
      { type: 'xstate.error.actor.notificationFeed', error: new Error('realtime client not available') },
    ],
    'xstate.done.actor.listNotifications': [
      { type: 'xstate.done.actor.listNotifications', output: [unread] },
      { type: 'xstate.done.actor.listNotifications', output: [] },
    ],
    'xstate.error.actor.listNotifications': [
      { type: 'xstate.error.actor.listNotifications', error: new Error('JWT expired') },
    ],
    'xstate.done.actor.markRead': [{ type: 'xstate.done.actor.markRead', output: undefined }],
    'xstate.error.actor.markRead': [
      { type: 'xstate.error.actor.markRead', error: new Error('permission denied') },
    ],
    'xstate.done.actor.clearNotifications': [
      { type: 'xstate.done.actor.clearNotifications', output: undefined },
    ],
    'xstate.error.actor.clearNotifications': [
      { type: 'xstate.error.actor.clearNotifications', error: new Error('permission denied') },
    ],
  },
  // The rows matter to the chart only through what is unread and what is being marked.
  serializeState: (snapshot) =>
    JSON.stringify({
      value: snapshot.value,
      rows: snapshot.context.notifications.map((row) => row.is_read),
      queued: snapshot.context.queuedReads,
      sending: snapshot.context.sendingReads,
      failures: snapshot.context.feedFailures,
    }),
  states: {
    '*': (snapshot) => {
      const { notifications, unreadCount, userId } = snapshot.context;
      // The header's dot reads this count: it is always that of the rows on show.
      expect(unreadCount).toBe(notifications.filter((row) => !row.is_read).length);
      expect(userId).toBe(alice.id);
      const failures: string[] = [
        notificationCopy.fetchError,
        notificationCopy.markError,
        notificationCopy.markOneError,
        notificationCopy.clearError,
      ];
      for (const toast of toasts.slice(checked)) {
        expect(toast.variant ?? 'default').toBe(failures.includes(toast.title) ? 'destructive' : 'default');
      }
      checked = toasts.length;
    },
    'list.awaitingFeed': (snapshot) => expect(snapshot.context.notifications).toEqual([]),
    // Waiting to resubscribe: at least one failure counted, and never past the 10 s step.
    'feed.lost': (snapshot) => expect([1, 2, 3, 4]).toContain(snapshot.context.feedFailures),
    'feed.subscribing.live': (snapshot) => expect(snapshot.context.feedFailures).toBe(0),
  },
});
