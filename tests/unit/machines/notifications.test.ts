import { describe, expect, it } from 'vitest';
import { fromCallback } from 'xstate';
import { notificationCopy } from '../../../src/copy/index.ts';
import {
  notificationsMachine,
  type FeedStatus,
  type NotificationFeedEvent,
} from '../../../src/machines/notifications.machine.ts';
import type { AuthUser } from '../../../src/domain/auth.ts';
import type { NotificationRow } from '../../../src/domain/notifications.ts';
import { settle } from '../../support/deferred-actor.ts';
import { authUser } from '../../support/fixtures.ts';
import { machineHarness, type CallbackRun } from '../../support/machines/harness.ts';

const alice = authUser('alice');
const bob = authUser('bob');

function note(id: string, isRead = false, overrides: Partial<NotificationRow> = {}): NotificationRow {
  return {
    id,
    user_id: 'alice',
    title: `Title ${id}`,
    message: `Message ${id}`,
    is_read: isRead,
    read_at: isRead ? '2025-01-01T00:00:00Z' : null,
    created_at: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

/** One subscription of the feed, as the callback stand-in saw it. */
type Feed = Omit<CallbackRun, 'input' | 'emit'> & {
  input: { userId: string };
  emit: (event: NotificationFeedEvent) => void;
};

/** Starts the machine as the root does when a session begins: with its user. */
function setup(options: { feedThrows?: boolean; user?: AuthUser } = {}) {
  const m = machineHarness(notificationsMachine, {
    input: { user: options.user ?? alice },
    // A feed that cannot start (no realtime client) throws as it starts, which no stand-in does.
    ...(options.feedThrows
      ? {
          actors: {
            notificationFeed: fromCallback(() => {
              throw new Error('realtime client not available');
            }),
          },
        }
      : { callbacks: ['notificationFeed'] }),
  });
  const { actor, clock, toasts } = m;
  const lists = m.calls<NotificationRow[], { userId: string }>('listNotifications');
  const marks = m.calls<unknown, { ids: string[] }>('markRead');
  const clears = m.calls<unknown, { userId: string }>('clearNotifications');
  const feeds = () => (options.feedThrows ? [] : (m.callback('notificationFeed').runs as Feed[]));
  // What the header's dot shows: the count each time a snapshot brings a new one.
  const unreadCounts: number[] = [];
  actor.subscribe(() => {
    const { unreadCount } = m.snapshot().context;
    if (unreadCount !== (unreadCounts.at(-1) ?? 0)) unreadCounts.push(unreadCount);
  });
  const lastFeed = () => {
    const feed = feeds().at(-1);
    if (!feed) throw new Error('no feed was started');
    return feed;
  };
  const status = (value: FeedStatus) => lastFeed().emit({ type: 'notifications.feedStatus', status: value });
  const context = () => m.snapshot().context;
  return {
    actor,
    clock,
    toasts,
    unreadCounts,
    lists,
    marks,
    clears,
    feeds,
    lastFeed,
    status,
    context,
    /** Stops the root, and with it this actor, as the root does when the session ends. */
    stop: m.stop,
  };
}

type Harness = ReturnType<typeof setup>;

/** Brings the feed up (which starts the one fetch) and answers that fetch with `rows`. */
async function signedInWith(h: Harness, rows: NotificationRow[]) {
  h.status('SUBSCRIBED');
  h.lists.at(-1)?.resolve(rows);
  await settle();
}

describe('notifications machine: list', () => {
  it('subscribes for its user and fetches their rows once, when the feed is up', async () => {
    const h = setup();
    expect(h.feeds().map((feed) => feed.input.userId)).toEqual(['alice']);
    expect(h.lists).toHaveLength(0);
    h.status('SUBSCRIBED');
    expect(h.lists.map((call) => call.input)).toEqual([{ userId: 'alice' }]);
    expect(h.actor.getSnapshot().matches({ list: 'loading' })).toBe(true);

    h.lists[0]?.resolve([note('n2'), note('n1', true)]);
    await settle();
    expect(h.actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
    expect(h.context().notifications.map((row) => row.id)).toEqual(['n2', 'n1']);
    expect(h.context().unreadCount).toBe(1);
    expect(h.unreadCounts).toEqual([1]);
  });

  it('subscribes, fetches and clears for the user it was started with', async () => {
    const h = setup({ user: bob });
    expect(h.feeds().map((feed) => feed.input.userId)).toEqual(['bob']);
    await signedInWith(h, [note('n1')]);
    h.actor.send({ type: 'notifications.clearAll' });
    expect(h.lists.map((call) => call.input)).toEqual([{ userId: 'bob' }]);
    expect(h.clears.map((call) => call.input)).toEqual([{ userId: 'bob' }]);
  });

  it('shows a failed fetch with its message and keeps the rows it had', async () => {
    const h = setup();
    await signedInWith(h, [note('n1')]);
    h.actor.send({ type: 'notifications.refresh' });
    h.lists.at(-1)?.reject(new Error('JWT expired'));
    await settle();
    expect(h.toasts).toEqual([
      { title: notificationCopy.fetchError, description: 'JWT expired', variant: 'destructive' },
    ]);
    expect(h.context().notifications.map((row) => row.id)).toEqual(['n1']);
    expect(h.actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
  });

  it('keeps the unread count in step with every answer', async () => {
    const h = setup();
    await signedInWith(h, [note('n1'), note('n2')]);
    h.actor.send({ type: 'notifications.refresh' });
    h.lists.at(-1)?.resolve([note('n1'), note('n2')]);
    await settle();
    expect(h.unreadCounts).toEqual([2]);
    h.actor.send({ type: 'notifications.refresh' });
    h.lists.at(-1)?.resolve([note('n3'), note('n1'), note('n2', true)]);
    await settle();
    expect(h.unreadCounts).toEqual([2]);
    h.actor.send({ type: 'notifications.refresh' });
    h.lists.at(-1)?.resolve([note('n4'), note('n3'), note('n1'), note('n2', true)]);
    await settle();
    expect(h.unreadCounts).toEqual([2, 3]);
    h.actor.send({ type: 'notifications.refresh' });
    h.lists.at(-1)?.resolve([]);
    await settle();
    expect(h.unreadCounts).toEqual([2, 3, 0]);
  });
});

describe('notifications machine: live feed', () => {
  it('re-fetches and toasts a new notification with its title and a preview of the message', async () => {
    const h = setup();
    await signedInWith(h, []);
    const fetches = h.lists.length;
    const row = note('n9', false, { title: 'Payment received', message: 'x'.repeat(80) });
    h.lastFeed().emit({ type: 'notifications.changed', eventType: 'INSERT', row });
    expect(h.toasts).toEqual([
      { title: 'Payment received', description: notificationCopy.preview(row.message) },
    ]);
    // The first 50 characters of the message, no more.
    expect(h.toasts[0]?.description?.startsWith('x'.repeat(50))).toBe(true);
    expect(h.toasts[0]?.description).not.toContain('x'.repeat(51));
    expect(h.lists.length).toBe(fetches + 1);
    h.lists.at(-1)?.resolve([row]);
    await settle();
    expect(h.context().unreadCount).toBe(1);
    expect(h.unreadCounts).toEqual([1]);
  });

  it('falls back to the generic title when the new row has none', () => {
    const h = setup();
    h.lastFeed().emit({
      type: 'notifications.changed',
      eventType: 'INSERT',
      row: note('n9', false, { title: '', message: 'Short' }),
    });
    expect(h.toasts).toEqual([
      { title: notificationCopy.newFallbackTitle, description: notificationCopy.preview('Short') },
    ]);
  });

  it('re-fetches without a toast on updates and deletes', async () => {
    const h = setup();
    await signedInWith(h, [note('n1')]);
    const fetches = h.lists.length;
    h.lastFeed().emit({ type: 'notifications.changed', eventType: 'UPDATE', row: note('n1', true) });
    h.lastFeed().emit({ type: 'notifications.changed', eventType: 'DELETE', row: note('n1', true) });
    expect(h.lists.length).toBe(fetches + 2);
    expect(h.toasts).toEqual([]);
  });

  it('lets only the newest of overlapping fetches land', async () => {
    const h = setup();
    h.status('SUBSCRIBED');
    h.lastFeed().emit({ type: 'notifications.changed', eventType: 'UPDATE', row: note('n1', true) });
    expect(h.lists).toHaveLength(2);
    h.lists[1]?.resolve([note('new')]);
    h.lists[0]?.resolve([note('old')]);
    await settle();
    expect(h.context().notifications.map((row) => row.id)).toEqual(['new']);
  });

  it('fetches without the feed when it fails or stays silent, so the list never waits long', async () => {
    const failing = setup();
    failing.status('CHANNEL_ERROR');
    expect(failing.lists).toHaveLength(1);

    const silent = setup();
    silent.clock.increment(4999);
    expect(silent.lists).toHaveLength(0);
    silent.clock.increment(1);
    expect(silent.lists).toHaveLength(1);
    // The feed coming up later is a resubscribe as far as the list knows: it fetches again.
    silent.status('SUBSCRIBED');
    expect(silent.lists).toHaveLength(2);
  });

  it('re-fetches when the feed comes back, since rows inserted while it was down never reached it', async () => {
    const h = setup();
    await signedInWith(h, []);
    expect(h.lists).toHaveLength(1);
    h.status('CHANNEL_ERROR');
    h.clock.increment(1000);
    expect(h.actor.getSnapshot().matches({ feed: { subscribing: 'joining' } })).toBe(true);
    h.status('SUBSCRIBED');
    expect(h.actor.getSnapshot().matches({ feed: { subscribing: 'live' }, list: 'loading' })).toBe(true);
    expect(h.lists).toHaveLength(2);
  });

  it('resubscribes after 1, 2, 5 and then every 10 s while the feed keeps failing', async () => {
    const h = setup();
    await signedInWith(h, []);
    const waits: [FeedStatus, number][] = [
      ['CHANNEL_ERROR', 1000],
      ['TIMED_OUT', 2000],
      ['CLOSED', 5000],
      ['CHANNEL_ERROR', 10_000],
      ['CHANNEL_ERROR', 10_000],
    ];
    for (const [failure, ms] of waits) {
      const feed = h.lastFeed();
      const started = h.feeds().length;
      h.status(failure);
      expect(feed.stopped).toBe(true);
      expect(h.actor.getSnapshot().matches({ feed: 'lost' })).toBe(true);
      h.clock.increment(ms - 1);
      expect(h.feeds().length).toBe(started);
      h.clock.increment(1);
      expect(h.feeds().length).toBe(started + 1);
      expect(h.lastFeed().input.userId).toBe('alice');
    }
    expect(h.context().feedFailures).toBe(4);
  });

  it('resets the back-off and re-fetches once the feed is subscribed again', async () => {
    const h = setup();
    await signedInWith(h, []);
    h.status('CHANNEL_ERROR');
    h.clock.increment(1000);
    h.status('CHANNEL_ERROR');
    h.clock.increment(2000);
    const fetches = h.lists.length;
    h.status('SUBSCRIBED');
    expect(h.lists.length).toBe(fetches + 1);
    expect(h.context().feedFailures).toBe(0);

    const started = h.feeds().length;
    h.status('CLOSED');
    h.clock.increment(1000);
    expect(h.feeds().length).toBe(started + 1);
  });

  it('treats a feed that fails to start like a lost one, with the same back-off', () => {
    const h = setup({ feedThrows: true });
    expect(h.actor.getSnapshot().matches({ feed: 'lost' })).toBe(true);
    expect(h.context().feedFailures).toBe(1);
    h.clock.increment(999);
    expect(h.context().feedFailures).toBe(1);
    h.clock.increment(1);
    expect(h.actor.getSnapshot().matches({ feed: 'lost' })).toBe(true);
    expect(h.context().feedFailures).toBe(2);
    h.clock.increment(1999);
    expect(h.context().feedFailures).toBe(2);
    h.clock.increment(1);
    expect(h.context().feedFailures).toBe(3);
    expect(h.actor.getSnapshot().status).toBe('active');
  });

  it('ignores a repeated SUBSCRIBED in the feed, though the list re-fetches', async () => {
    const h = setup();
    await signedInWith(h, []);
    const fetches = h.lists.length;
    h.status('SUBSCRIBED');
    expect(h.actor.getSnapshot().matches({ feed: { subscribing: 'live' } })).toBe(true);
    expect(h.feeds()).toHaveLength(1);
    expect(h.lists.length).toBe(fetches + 1);
  });
});

describe('notifications machine: marking read', () => {
  it('marks every unread row read when the list opens, at once and then at the backend', async () => {
    const h = setup();
    await signedInWith(h, [note('n3'), note('n2', true), note('n1')]);
    h.actor.send({ type: 'notifications.open' });
    expect(h.context().notifications.every((row) => row.is_read)).toBe(true);
    expect(h.unreadCounts).toEqual([2, 0]);
    expect(h.marks.map((call) => call.input)).toEqual([{ ids: ['n3', 'n1'] }]);
    expect(h.actor.getSnapshot().matches({ reads: 'sending' })).toBe(true);
    h.marks[0]?.resolve(undefined);
    await settle();
    expect(h.actor.getSnapshot().matches({ reads: 'idle' })).toBe(true);
    expect(h.context().sendingReads).toBeNull();
    expect(h.toasts).toEqual([]);
  });

  it('calls nothing when the list opens with nothing unread', async () => {
    const h = setup();
    await signedInWith(h, [note('n1', true)]);
    h.actor.send({ type: 'notifications.open' });
    expect(h.marks).toHaveLength(0);
  });

  it('turns the rows unread again, says so and re-fetches when marking all fails', async () => {
    const h = setup();
    await signedInWith(h, [note('n2'), note('n1')]);
    h.actor.send({ type: 'notifications.open' });
    const fetches = h.lists.length;
    h.marks[0]?.reject(new Error('permission denied'));
    await settle();
    expect(h.toasts).toEqual([
      { title: notificationCopy.markError, description: 'permission denied', variant: 'destructive' },
    ]);
    expect(
      h
        .context()
        .notifications.filter((row) => !row.is_read)
        .map((row) => row.id),
    ).toEqual(['n2', 'n1']);
    expect(h.unreadCounts).toEqual([2, 0, 2]);
    expect(h.lists.length).toBe(fetches + 1);
  });

  it('marks one row read', async () => {
    const h = setup();
    await signedInWith(h, [note('n2'), note('n1')]);
    h.actor.send({ type: 'notifications.markOne', id: 'n1' });
    expect(h.marks.map((call) => call.input)).toEqual([{ ids: ['n1'] }]);
    expect(h.context().notifications.map((row) => row.is_read)).toEqual([false, true]);
    expect(h.unreadCounts).toEqual([2, 1]);
  });

  it('says it could not mark one row, and turns it unread again', async () => {
    const h = setup();
    await signedInWith(h, [note('n1')]);
    h.actor.send({ type: 'notifications.markOne', id: 'n1' });
    h.marks[0]?.reject(new Error('network'));
    await settle();
    expect(h.toasts).toEqual([
      { title: notificationCopy.markOneError, description: 'network', variant: 'destructive' },
    ]);
    expect(h.context().notifications[0]?.is_read).toBe(false);
  });

  it('ignores marking a row that is read or unknown', async () => {
    const h = setup();
    await signedInWith(h, [note('n1', true)]);
    h.actor.send({ type: 'notifications.markOne', id: 'n1' });
    h.actor.send({ type: 'notifications.markOne', id: 'nope' });
    expect(h.marks).toHaveLength(0);
  });

  it('ignores marking a read row even while others are unread', async () => {
    const h = setup();
    await signedInWith(h, [note('n2'), note('n1', true)]);
    h.actor.send({ type: 'notifications.markOne', id: 'n1' });
    h.actor.send({ type: 'notifications.markOne', id: 'nope' });
    expect(h.marks).toHaveLength(0);
    expect(h.context().unreadCount).toBe(1);
  });

  it('queues marks made while a call is under way and sends them next, in one call', async () => {
    const h = setup();
    await signedInWith(h, [note('n3'), note('n2'), note('n1')]);
    h.actor.send({ type: 'notifications.markOne', id: 'n3' });
    h.actor.send({ type: 'notifications.markOne', id: 'n2' });
    h.actor.send({ type: 'notifications.markOne', id: 'n1' });
    expect(h.marks.map((call) => call.input)).toEqual([{ ids: ['n3'] }]);
    expect(h.context().unreadCount).toBe(0);
    h.marks[0]?.resolve(undefined);
    await settle();
    expect(h.marks.map((call) => call.input)).toEqual([{ ids: ['n3'] }, { ids: ['n2', 'n1'] }]);
  });

  it('uses the mark-all message when a queued batch includes opening the list', async () => {
    const h = setup();
    await signedInWith(h, [note('n2'), note('n1')]);
    h.actor.send({ type: 'notifications.markOne', id: 'n2' });
    h.actor.send({ type: 'notifications.open' });
    h.marks[0]?.resolve(undefined);
    await settle();
    expect(h.marks[1]?.input).toEqual({ ids: ['n1'] });
    h.marks[1]?.reject(new Error('boom'));
    await settle();
    expect(h.toasts.at(-1)?.title).toBe(notificationCopy.markError);
  });

  it('keeps the mark-all message when a single mark joins the queued batch after the list opened', async () => {
    const h = setup();
    await signedInWith(h, [note('n3'), note('n2'), note('n1')]);
    h.actor.send({ type: 'notifications.markOne', id: 'n3' });
    h.actor.send({ type: 'notifications.open' });
    h.actor.send({ type: 'notifications.refresh' });
    h.lists.at(-1)?.resolve([note('n3', true), note('n2', true), note('n1', true), note('n0')]);
    await settle();
    h.actor.send({ type: 'notifications.markOne', id: 'n0' });
    h.marks[0]?.resolve(undefined);
    await settle();
    expect(h.marks[1]?.input).toEqual({ ids: ['n2', 'n1', 'n0'] });
    h.marks[1]?.reject(new Error('boom'));
    await settle();
    expect(h.toasts.at(-1)?.title).toBe(notificationCopy.markError);
  });

  it('keeps rows read whose mark is under way when a fetch answers with them unread', async () => {
    const h = setup();
    await signedInWith(h, [note('n2'), note('n1')]);
    h.actor.send({ type: 'notifications.markOne', id: 'n1' });
    h.actor.send({ type: 'notifications.refresh' });
    h.lists.at(-1)?.resolve([note('n2'), note('n1')]);
    await settle();
    expect(h.context().notifications.map((row) => row.is_read)).toEqual([false, true]);
    expect(h.context().unreadCount).toBe(1);
  });
});

describe('notifications machine: clear all', () => {
  it('deletes the user’s rows, empties the list and re-fetches', async () => {
    const h = setup();
    await signedInWith(h, [note('n2'), note('n1')]);
    h.actor.send({ type: 'notifications.clearAll' });
    h.actor.send({ type: 'notifications.clearAll' });
    expect(h.clears.map((call) => call.input)).toEqual([{ userId: 'alice' }]);
    expect(h.context().notifications).toHaveLength(2);
    const fetches = h.lists.length;
    h.clears[0]?.resolve(undefined);
    await settle();
    expect(h.context().notifications).toEqual([]);
    expect(h.toasts).toEqual([notificationCopy.cleared]);
    expect(h.unreadCounts).toEqual([2, 0]);
    expect(h.lists.length).toBe(fetches + 1);
    expect(h.actor.getSnapshot().matches({ clear: 'idle' })).toBe(true);
  });

  it('keeps the rows and says so when the delete fails', async () => {
    const h = setup();
    await signedInWith(h, [note('n1')]);
    h.actor.send({ type: 'notifications.clearAll' });
    h.clears[0]?.reject(new Error('permission denied'));
    await settle();
    expect(h.toasts).toEqual([
      { title: notificationCopy.clearError, description: 'permission denied', variant: 'destructive' },
    ]);
    expect(h.context().notifications).toHaveLength(1);
  });

  it('drops a stale fetch that was under way when the delete succeeded', async () => {
    const h = setup();
    await signedInWith(h, [note('n1')]);
    h.actor.send({ type: 'notifications.refresh' });
    const stale = h.lists.at(-1);
    h.actor.send({ type: 'notifications.clearAll' });
    h.clears[0]?.resolve(undefined);
    await settle();
    stale?.resolve([note('n1')]);
    await settle();
    expect(h.context().notifications).toEqual([]);
  });
});

describe('notifications machine: end of the session', () => {
  // The root stops this actor when the session ends; nothing it started may outlive it.
  it('unsubscribes the feed when stopped', async () => {
    const h = setup();
    await signedInWith(h, [note('n1')]);
    h.stop();
    expect(h.lastFeed().stopped).toBe(true);
  });

  it('does not resubscribe when stopped during a back-off wait', async () => {
    const h = setup();
    await signedInWith(h, []);
    h.status('CHANNEL_ERROR');
    h.stop();
    h.clock.increment(10_000);
    expect(h.feeds()).toHaveLength(1);
  });
});
