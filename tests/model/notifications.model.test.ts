import { beforeEach, expect } from 'vitest';
import { fromCallback } from 'xstate';
import type { EventObject } from 'xstate';
import { notificationCopy } from '../../src/copy/index.ts';
import { notificationsMachine } from '../../src/machines/notifications.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import type { AuthUser, NotificationRow } from '../../src/services/supabase/types.ts';
import { describeModel } from './support/index.ts';

const user = (id: string): AuthUser => ({
  id,
  email: `${id}@example.com`,
  emailConfirmedAt: null,
  metadata: {},
});
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
const reports: EventObject[] = [];
// Each path is a new actor under a new root.
beforeEach(() => {
  reports.length = 0;
});

describeModel({
  name: 'notifications',
  machine: notificationsMachine,
  deferredActors: ['listNotifications', 'markRead', 'clearNotifications'],
  provide: {
    actions: {
      showToast: (_, params: ToastRequest) => void toasts.push(params),
      report: (_, params: EventObject) => void reports.push(params),
    },
    // The paths send the feed's events themselves; the feed only has to exist.
    actors: { notificationFeed: fromCallback<EventObject, { userId: string }>(() => () => undefined) },
  },
  events: {
    'session.started': [
      { type: 'session.started', user: user('alice') },
      { type: 'session.started', user: user('bob') },
    ],
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
      user: snapshot.context.userId,
      rows: snapshot.context.notifications.map((row) => row.is_read),
      queued: snapshot.context.queuedReads,
      sending: snapshot.context.sendingReads,
      failures: snapshot.context.feedFailures,
    }),
  states: {
    '*': (snapshot) => {
      const { notifications, unreadCount } = snapshot.context;
      expect(unreadCount).toBe(notifications.filter((row) => !row.is_read).length);
      // The root always knows the latest count (it starts at 0).
      const last = reports.at(-1) as (EventObject & { count: number }) | undefined;
      if (last) expect(last.count).toBe(unreadCount);
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
    idle: (snapshot) => {
      expect(snapshot.context.userId).toBeNull();
      expect(snapshot.context.notifications).toEqual([]);
    },
    signedIn: (snapshot) => expect(snapshot.context.userId).not.toBeNull(),
  },
});
