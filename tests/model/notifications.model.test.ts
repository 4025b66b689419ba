import { describe, expect } from 'vitest';
import type { EventObject } from 'xstate';
import { notificationCopy } from '../../src/copy/index.ts';
import { notificationsMachine, type ReadBatch } from '../../src/machines/notifications.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import type { NotificationRow } from '../../src/domain/notifications.ts';
import { authUser } from '../support/fixtures.ts';
import { errorOf } from '../support/model/recorders.ts';
import { describeModel, type EventAssertion } from '../support/model/index.ts';

const alice = authUser('alice');
const unread: NotificationRow = {
  id: 'n1',
  user_id: 'alice',
  title: 'Payment received',
  message: 'You received 5 DDEX from 0x1111111111111111111111111111111111111111.',
  is_read: false,
  read_at: null,
  created_at: '2025-01-01T00:00:00Z',
};
/** A row without a title gets the generic one. */
const untitled: NotificationRow = { ...unread, id: 'n2', title: '', message: 'Hello' };
const read: NotificationRow = { ...unread, id: 'n0', is_read: true, read_at: '2025-01-01T00:00:00Z' };

/** The feed's back-off (docs/product.md#constants): 1, 2, 5, then every 10 s. */
const FEED_RETRY_MS = [1000, 2000, 5000, 10_000];
/** How long the first list waits for the feed. */
const LIST_WITHOUT_FEED_MS = 5000;

type Snapshot = ReturnType<typeof notificationsMachine.transition>;

const destructive = (title: string, error: unknown): ToastRequest => ({
  title,
  description: (error as Error).message,
  variant: 'destructive',
});

/** The toast a step's event must show, given the snapshot before it. */
function expectedToast(event: EventObject, before: Snapshot): ToastRequest {
  switch (event.type) {
    case 'notifications.changed': {
      // Only a new row is announced; an update or a delete only refreshes the list.
      const { row, eventType } = event as EventObject & { row: NotificationRow; eventType: string };
      if (eventType !== 'INSERT') throw new Error(`no toast expected for ${eventType}`);
      return {
        title: row.title === '' ? notificationCopy.newFallbackTitle : row.title,
        description: notificationCopy.preview(row.message),
      };
    }
    case 'xstate.error.actor.listNotifications':
      return destructive(notificationCopy.fetchError, errorOf(event));
    case 'xstate.error.actor.markRead':
      return destructive(
        before.context.sendingReads?.all ? notificationCopy.markError : notificationCopy.markOneError,
        errorOf(event),
      );
    case 'xstate.done.actor.clearNotifications':
      return notificationCopy.cleared;
    case 'xstate.error.actor.clearNotifications':
      return destructive(notificationCopy.clearError, errorOf(event));
    default:
      throw new Error(`no toast expected for ${event.type}`);
  }
}

const idsOf = (batch: ReadBatch | null) => batch?.ids ?? [];
const readIds = (rows: NotificationRow[]) => rows.filter((row) => row.is_read).map((row) => row.id);

const isUnread = (rows: NotificationRow[], id: string) => rows.some((row) => row.id === id && !row.is_read);
const pending = (snapshot: Snapshot) => [snapshot.context.queuedReads, snapshot.context.sendingReads];

/** What a step must have done with the event it took (docs/product.md#notifications). */
const afterEvent: EventAssertion<Snapshot> = (event, previous, snapshot, shown) => {
  const rows = previous.context.notifications;
  switch (event.type) {
    case 'notifications.changed': {
      // Any change fetches the list again; a new row is announced once.
      expect(snapshot.matches({ list: 'loading' })).toBe(true);
      const announced = shown.filter((toast) => toast.event === event);
      expect(announced).toHaveLength(
        (event as EventObject & { eventType: string }).eventType === 'INSERT' ? 1 : 0,
      );
      break;
    }
    case 'notifications.feedStatus': {
      const up = (event as EventObject & { status: string }).status === 'SUBSCRIBED';
      if (up) {
        // Subscribed: live, with the back-off reset, and the list fetched again.
        expect(snapshot.matches({ list: 'loading' })).toBe(true);
        if (previous.matches({ feed: 'subscribing' })) {
          expect(snapshot.matches({ feed: { subscribing: 'live' } })).toBe(true);
          expect(snapshot.context.feedFailures).toBe(0);
        }
      } else {
        // Lost: torn down to be subscribed afresh; the list moves only if it was waiting for the feed.
        if (previous.matches({ feed: 'subscribing' })) expect(snapshot.matches({ feed: 'lost' })).toBe(true);
        if (!previous.matches({ list: 'awaitingFeed' }))
          expect(snapshot.value).toMatchObject({ list: (previous.value as { list: unknown }).list });
      }
      break;
    }
    case 'notifications.open': {
      // Opening the list marks every unread row read at once, as one batch of the whole list.
      expect(snapshot.context.unreadCount).toBe(0);
      const marked = rows.filter((row) => !row.is_read).map((row) => row.id);
      if (marked.length > 0) {
        const batch = pending(snapshot).find((reads) => marked.every((id) => idsOf(reads).includes(id)));
        expect(batch?.all).toBe(true);
      } else {
        expect(pending(snapshot)).toEqual(pending(previous));
      }
      break;
    }
    case 'notifications.markOne': {
      const { id } = event as EventObject & { id: string };
      if (isUnread(rows, id)) {
        expect(isUnread(snapshot.context.notifications, id)).toBe(false);
        // One row marked on its own is not the whole list.
        if (pending(previous).every((reads) => reads === null))
          expect(pending(snapshot).find((reads) => reads !== null)).toEqual({ ids: [id], all: false });
      } else {
        // A row already read (or unknown) is not marked again.
        expect(pending(snapshot)).toEqual(pending(previous));
      }
      break;
    }
    default:
  }
};

/** The rows this step turned read. */
let nowRead: string[] = [];

/**
 * The payloads of one model. The paths meet one payload per branch, so a second payload of a
 * branch (a row without a title, another way the feed is lost, a list with a row already read)
 * gets a model of its own.
 */
const variants = {
  first: {
    changed: [
      { type: 'notifications.changed', eventType: 'INSERT', row: unread },
      { type: 'notifications.changed', eventType: 'UPDATE', row: { ...unread, is_read: true } },
    ],
    lost: 'CHANNEL_ERROR',
    lists: [[unread], []],
  },
  second: {
    changed: [
      { type: 'notifications.changed', eventType: 'INSERT', row: untitled },
      { type: 'notifications.changed', eventType: 'DELETE', row: unread },
    ],
    lost: 'TIMED_OUT',
    lists: [[read, unread], [read]],
  },
};

const model = ({ changed, lost, lists }: (typeof variants)[keyof typeof variants]) =>
  describeModel({
    name: 'notifications',
    machine: notificationsMachine,
    // The paths send the feed's events themselves; the feed only has to exist.
    callbacks: ['notificationFeed'],
    // The root starts this machine when a session begins, with its user.
    input: { user: alice },
    events: {
      'notifications.markOne': [{ type: 'notifications.markOne', id: 'n1' }],
      'notifications.changed': changed,
      'notifications.feedStatus': [
        { type: 'notifications.feedStatus', status: 'SUBSCRIBED' },
        { type: 'notifications.feedStatus', status: lost },
      ],
      'xstate.error.actor.notificationFeed': [
        { type: 'xstate.error.actor.notificationFeed', error: new Error('realtime client not available') },
      ],
      'xstate.done.actor.listNotifications': lists.map((output) => ({
        type: 'xstate.done.actor.listNotifications',
        output,
      })),
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
    // The product's waits, not the machine's: a longer one would leave the path waiting.
    delays: {
      feedRetry: ({ context }) => FEED_RETRY_MS[context.feedFailures - 1] ?? Number.POSITIVE_INFINITY,
      listWithoutFeed: LIST_WITHOUT_FEED_MS,
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
      '*': (snapshot: Snapshot, { before, events, shown }) => {
        const { notifications, unreadCount, userId, queuedReads, sendingReads } = snapshot.context;
        // The header's dot reads this count: it is always that of the rows on show.
        expect(unreadCount).toBe(notifications.filter((row) => !row.is_read).length);
        expect(userId).toBe(alice.id);
        // A row marked read here stays read, whatever a fetch answers, until its call fails.
        for (const id of [...idsOf(queuedReads), ...idsOf(sendingReads)]) {
          expect(notifications.find((row) => row.id === id)?.is_read ?? true).toBe(true);
        }
        // A session starts with nothing shown, marked or failed.
        if (!before) {
          expect(snapshot.context).toEqual({
            userId: alice.id,
            notifications: [],
            unreadCount: 0,
            queuedReads: null,
            sendingReads: null,
            feedFailures: 0,
          });
          return;
        }
        for (const { params, event } of shown) expect(params).toEqual(expectedToast(event, before));
        // A row turns read here only with its id on the way to the backend.
        const readBefore = readIds(before.context.notifications);
        nowRead = readIds(notifications).filter((id) => !readBefore.includes(id));
        const fetched = before.matches({ list: 'loading' }) && !snapshot.matches({ list: 'loading' });
        if (!fetched) {
          for (const id of nowRead) expect([...idsOf(queuedReads), ...idsOf(sendingReads)]).toContain(id);
        }
        for (const event of events) afterEvent(event, before, snapshot, shown);
      },
      // The first list waits for the feed's first word: nothing is shown yet.
      'list.awaitingFeed': (snapshot: Snapshot) => expect(snapshot.context.notifications).toEqual([]),
      // The user's own rows are fetched, subscribed to and cleared.
      'list.loading': (_, { inputOf }) => expect(inputOf('listNotifications')).toEqual({ userId: alice.id }),
      'feed.subscribing': (_, { inputOf }) =>
        expect(inputOf('notificationFeed')).toEqual({ userId: alice.id }),
      'clear.clearing': (_, { inputOf }) =>
        expect(inputOf('clearNotifications')).toEqual({ userId: alice.id }),
      // The marks go in one call, all those made since the last one.
      'reads.sending': (snapshot: Snapshot, { before, inputOf }) => {
        const { sendingReads, queuedReads } = snapshot.context;
        expect(inputOf('markRead')).toEqual({ ids: idsOf(sendingReads) });
        expect(idsOf(sendingReads).length).toBeGreaterThan(0);
        // Marked from an idle queue: the call carries the rows this step turned read.
        if (before?.matches({ reads: 'idle' })) {
          expect(idsOf(sendingReads)).toEqual(nowRead);
          expect(queuedReads).toBeNull();
        }
      },
      'reads.idle': (snapshot: Snapshot, { before, shown }) => {
        expect(snapshot.context).toMatchObject({ queuedReads: null, sendingReads: null });
        // A failed mark turns its rows unread again, and the list is fetched again.
        const failed = shown.find(({ event }) => event.type === 'xstate.error.actor.markRead');
        if (failed && before) {
          for (const id of idsOf(before.context.sendingReads)) {
            expect(snapshot.context.notifications.find((row) => row.id === id)?.is_read).toBe(false);
          }
          expect(snapshot.matches({ list: 'loading' })).toBe(true);
        }
      },
      // A clear empties the list once the delete succeeded, then fetches it again.
      'clear.idle': (snapshot: Snapshot, { before, shown }) => {
        const cleared = shown.some(({ event }) => event.type === 'xstate.done.actor.clearNotifications');
        if (cleared) {
          expect(snapshot.context.notifications).toEqual([]);
          expect(snapshot.matches({ list: 'loading' })).toBe(true);
        } else if (before?.matches({ clear: 'clearing' })) {
          expect(snapshot.context.notifications).toEqual(before.context.notifications);
        }
      },
      // Waiting to resubscribe: one more failure counted, and never past the 10 s step.
      'feed.lost': (snapshot: Snapshot, { before }) => {
        const { feedFailures } = snapshot.context;
        if (before?.matches({ feed: 'subscribing' })) {
          expect(feedFailures).toBe(Math.min(before.context.feedFailures + 1, FEED_RETRY_MS.length));
        }
        expect(feedFailures).toBeGreaterThan(0);
      },
      'feed.subscribing.live': (snapshot: Snapshot) => expect(snapshot.context.feedFailures).toBe(0),
    },
  });

model(variants.first);
// In a describe of its own, so that its paths are named apart from the first model's.
describe('a row without a title, a feed timing out, a row already read', () => model(variants.second));
