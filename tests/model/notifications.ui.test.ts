import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { notificationCopy, shellCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import type { NotificationRow } from '../../src/domain/notifications.ts';
import { notificationsMachine, type NotificationsContext } from '../../src/machines/notifications.machine.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { admin } from '../support/e2e/ui.ts';
import { authUser } from '../support/fixtures.ts';
import { routeNotificationFeed, type NotificationFeedRoute } from '../support/ui/feed-socket.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { pauseClock } from '../support/ui/page-clock.ts';
import { holdEvery, restTable, type HeldRequests } from '../support/ui/request-queue.ts';
import { openWorld, pathUser, seesToast, type PortalWorld } from '../support/ui/world.ts';

// The bell, the notifications dialog and the live feed through the portal. Rows are written with
// the service role, as the payment backend writes them; the feed is the page's Realtime socket,
// whose answers (the join, each pushed change) wait until a step lets them through, and which a
// step can cut as a stopped server does. The list, mark-read and clear requests are held on their
// way to the stack until a step lets them go or fails them.
//
// The page's clock is paused once the user is signed in and the dialog is open: the feed's
// five-second wait and its back-off fire only when a step moves the clock on, never because a
// step took its time.
//
// The dialog is opened right after signing in, while nothing is unread (so opening it marks
// nothing), and stays open: it is where the list, its loading and the Clear All button are seen.
// Nothing the feed does is on screen; its states are seen on the socket (a join waiting for its
// answer, a channel joined, none), beside what the page shows.

/** The row every path is about, as the payment backend writes it. */
const PAYMENT: NotificationRow = {
  id: 'ui-payment',
  user_id: 'ui-notified',
  title: 'Payment received',
  message: 'You received 5 DDEX from 0x1111111111111111111111111111111111111111.',
  is_read: false,
  read_at: null,
  created_at: '2025-01-01T00:00:00Z',
};
const READ: NotificationRow = { ...PAYMENT, is_read: true };

type World = PortalWorld & {
  userId: string;
  feed: NotificationFeedRoute;
  lists: HeldRequests;
  marks: HeldRequests;
  clears: HeldRequests;
};

const contextOf = (state: { context: unknown }) => state.context as NotificationsContext;
const rowsOf = (state: { context: unknown }) => contextOf(state).notifications;
const outputOf = (event: AnyEventObject) => (event as unknown as { output: NotificationRow[] }).output;

const dialog = (world: World) => world.page.getByRole('dialog', { name: dialogCopy.notifications.title });
/** The bell, named with the unread count; readable (not operable) while the dialog covers it. */
const bell = (world: World, unread: number) =>
  world.page.getByRole('button', { name: shellCopy.notifications(unread), exact: true, includeHidden: true });
const clearButton = (world: World, name: string) => dialog(world).getByRole('button', { name, exact: true });

async function insertRows(userId: string, rows: readonly NotificationRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const { data, error } = await admin()
    .from('user_notifications')
    .insert(rows.map(({ title, message, is_read }) => ({ user_id: userId, title, message, is_read })))
    .select('id');
  if (error) throw new Error(`could not insert a notification: ${error.message}`);
  return data.map((row) => row.id);
}

/** The user's rows as the backend holds them, newest first. */
async function storedRows(userId: string) {
  const { data, error } = await admin()
    .from('user_notifications')
    .select('id, title, is_read')
    .eq('user_id', userId)
    .order('created_at', { ascending: false });
  if (error) throw new Error(error.message);
  return data;
}

/** Waits for the change the stack pushed about `rowId` and lets it reach the page. */
async function deliverChangeOf(world: World, rowId: string, type: string) {
  await expect
    .poll(() => world.feed.pending().some((change) => change.rowId === rowId && change.type === type), {
      message: `the stack pushes the ${type} of ${rowId}`,
    })
    .toBe(true);
  world.feed
    .pending()
    .find((change) => change.rowId === rowId && change.type === type)
    ?.deliver();
}

describeUiModel({
  name: 'notifications',
  machine: notificationsMachine,
  // The root starts it with the signed-in user; only the id is used, for the backend's filter.
  input: { user: authUser('ui-notified') },
  events: {
    'notifications.markOne': [{ type: 'notifications.markOne', id: PAYMENT.id }],
    'notifications.changed': [
      { type: 'notifications.changed', eventType: 'INSERT', row: PAYMENT },
      { type: 'notifications.changed', eventType: 'UPDATE', row: READ },
    ],
    'notifications.feedStatus': [
      { type: 'notifications.feedStatus', status: 'SUBSCRIBED' },
      { type: 'notifications.feedStatus', status: 'CHANNEL_ERROR' },
    ],
    'xstate.done.actor.listNotifications': [
      { type: 'xstate.done.actor.listNotifications', output: [PAYMENT] },
      { type: 'xstate.done.actor.listNotifications', output: [READ] },
      { type: 'xstate.done.actor.listNotifications', output: [] },
    ],
    'xstate.error.actor.listNotifications': [
      { type: 'xstate.error.actor.listNotifications', error: new Error('Failed to fetch') },
    ],
    'xstate.error.actor.markRead': [
      { type: 'xstate.error.actor.markRead', error: new Error('Failed to fetch') },
    ],
    'xstate.error.actor.clearNotifications': [
      { type: 'xstate.error.actor.clearNotifications', error: new Error('Failed to fetch') },
    ],
  },
  // What the views show (the rows read or not, the reads on their way) and the failures the
  // back-off counts.
  serializeState: (state) => {
    const context = contextOf(state);
    return JSON.stringify({
      value: state.value,
      rows: context.notifications.map((row) => row.is_read),
      queued: context.queuedReads,
      sending: context.sendingReads,
      failures: context.feedFailures,
    });
  },

  async open(path) {
    const user = await pathUser();
    const userId = user.id;
    // What the first answer holds came while the user was away: stored before the portal opens.
    const first = path.events.find((event) => event.type === 'xstate.done.actor.listNotifications');
    await insertRows(userId, first ? outputOf(first) : []);
    const table = restTable(gatewayFor('full').url, 'user_notifications');
    let routed = null as Pick<World, 'feed' | 'lists' | 'marks' | 'clears'> | null;
    // Routed before the portal loads: it reads the list and joins the feed as soon as it starts
    // signed in, and a routed socket replaces the page's WebSocket only in a page loaded after.
    const world = await openWorld({
      clock: true,
      signedInAs: user,
      beforeLoad: async (page) => {
        const feed = await routeNotificationFeed(page);
        const [lists, marks, clears] = await Promise.all([
          holdEvery(page, table, 'GET'),
          holdEvery(page, table, 'PATCH'),
          holdEvery(page, table, 'DELETE'),
        ]);
        routed = { feed, lists, marks, clears };
      },
    });
    const { page } = world;
    if (!routed) throw new Error('the portal loaded without its routes');
    const notified: World = Object.assign(world, { userId }, routed);
    // Opened while the list is still empty, so opening it marks nothing read.
    await bell(notified, 0).click();
    await dialog(notified).waitFor();
    // The dialog's code has loaded: from here on the page's timers wait for the steps.
    await pauseClock(page);
    return notified;
  },

  views: {
    '*': async (world, state) => {
      const rows = rowsOf(state);
      const { unreadCount } = contextOf(state);
      await bell(world, unreadCount).waitFor();
      await expect.poll(() => dialog(world).getByRole('listitem').count()).toBe(rows.length);
      for (const row of rows)
        await dialog(world).getByRole('heading', { name: row.title, exact: true }).waitFor();
      await expect
        .poll(() => dialog(world).getByText(dialogCopy.notifications.unread, { exact: true }).count())
        .toBe(unreadCount);
    },
    'list.awaitingFeed': async (world) => {
      await dialog(world).getByText(dialogCopy.notifications.empty, { exact: true }).waitFor();
      // The list has not been asked for yet.
      expect(world.lists.sent()).toBe(0);
    },
    'list.loading': async (world, state) => {
      await expect.poll(() => world.lists.count()).toBeGreaterThan(0);
      if (rowsOf(state).length === 0)
        await dialog(world).getByText(dialogCopy.notifications.loading, { exact: true }).waitFor();
      else await expect.poll(() => dialog(world).getByRole('list').getAttribute('aria-busy')).toBe('true');
    },
    'list.ready': async (world, state) => {
      expect(world.lists.count()).toBe(0);
      if (rowsOf(state).length === 0)
        await dialog(world).getByText(dialogCopy.notifications.empty, { exact: true }).waitFor();
      else await expect.poll(() => dialog(world).getByRole('list').getAttribute('aria-busy')).toBe('false');
    },
    'feed.subscribing.joining': async (world) => {
      await expect
        .poll(() => world.feed.joinWaiting(), { message: 'a join waiting for its answer' })
        .toBe(true);
    },
    'feed.subscribing.live': async (world) => {
      await expect.poll(() => world.feed.joined(), { message: 'the feed joined' }).toBe(true);
    },
    'feed.lost': async (world) => {
      await expect
        .poll(() => world.feed.joined() || world.feed.joinWaiting(), { message: 'no feed channel' })
        .toBe(false);
    },
    'reads.idle': async (world) => {
      await expect.poll(() => world.marks.count()).toBe(0);
    },
    'reads.sending': async (world) => {
      await expect.poll(() => world.marks.count()).toBeGreaterThan(0);
    },
    'clear.idle': async (world, state) => {
      const button = clearButton(world, dialogCopy.notifications.clearAll);
      await expect
        .poll(() => button.getAttribute('aria-disabled'))
        .toBe(rowsOf(state).length === 0 ? 'true' : null);
    },
    'clear.clearing': async (world) => {
      await clearButton(world, dialogCopy.notifications.clearing).waitFor();
      await expect.poll(() => world.clears.count()).toBeGreaterThan(0);
    },
  },

  causes: {
    // The server's answer to the join goes through, or the socket goes down as a server stops.
    'notifications.feedStatus': async (world, event) => {
      if ((event as unknown as { status: string }).status === 'SUBSCRIBED') await world.feed.releaseJoin();
      else await world.feed.drop();
    },
    'notifications.changed': async (world, event) => {
      const { eventType, row } = event as unknown as { eventType: string; row: NotificationRow };
      if (eventType === 'INSERT') {
        // A payment arrives: the backend writes the row, the stack pushes it, and the page says so.
        const [id = ''] = await insertRows(world.userId, [row]);
        await deliverChangeOf(world, id, 'INSERT');
        await seesToast(world.page, row.title);
        await seesToast(world.page, notificationCopy.preview(row.message));
        return;
      }
      // A change to a row the user has: the stack's echo of the page's own mark or clear if it
      // pushed one, else the backend rewrites the newest row.
      const echo = world.feed.pending().find((change) => change.type !== 'INSERT');
      if (echo) return echo.deliver();
      const [newest] = await storedRows(world.userId);
      if (!newest) throw new Error('the user has no row to change');
      const { error } = await admin()
        .from('user_notifications')
        .update({ title: newest.title })
        .eq('id', newest.id);
      if (error) throw new Error(error.message);
      await deliverChangeOf(world, newest.id, 'UPDATE');
    },
    'xstate.done.actor.listNotifications': async (world, event) => {
      // The answer is the backend's: it must hold what the path says it answers.
      const expected = outputOf(event).map((row) => [row.title, row.is_read]);
      const stored = (await storedRows(world.userId)).map((row) => [row.title, row.is_read]);
      expect(stored, 'the rows the backend holds when the list is read').toEqual(expected);
      await world.lists.releaseAll();
    },
    'xstate.error.actor.listNotifications': async (world) => {
      await world.lists.failAll();
      await seesToast(world.page, notificationCopy.fetchError);
    },
    // Opened again from the bell (the dialog closed first): every unread row is marked read.
    'notifications.open': async (world, _event, from) => {
      await world.page.keyboard.press('Escape');
      await dialog(world).waitFor({ state: 'detached' });
      await bell(world, contextOf(from).unreadCount).click();
      await dialog(world).waitFor();
    },
    'notifications.markOne': async (world, event, from) => {
      const id = (event as unknown as { id: string }).id;
      const row = rowsOf(from).find((shown) => shown.id === id);
      if (!row) throw new Error(`no row ${id} on show`);
      await dialog(world)
        .getByRole('button', { name: `${dialogCopy.notifications.markRead}: ${row.title}`, exact: true })
        .click();
    },
    'xstate.done.actor.markRead': async (world) => world.marks.releaseOldest(),
    'xstate.error.actor.markRead': async (world, _event, from) => {
      await world.marks.failOldest();
      const all = contextOf(from).sendingReads?.all ?? false;
      await seesToast(world.page, all ? notificationCopy.markError : notificationCopy.markOneError);
    },
    'notifications.clearAll': async (world) => clearButton(world, dialogCopy.notifications.clearAll).click(),
    'xstate.done.actor.clearNotifications': async (world) => {
      await world.clears.releaseOldest();
      await seesToast(world.page, notificationCopy.cleared.title);
    },
    'xstate.error.actor.clearNotifications': async (world) => {
      await world.clears.failOldest();
      await seesToast(world.page, notificationCopy.clearError);
    },
  },

  can: (event, state) => {
    const context = contextOf(state);
    const rows = context.notifications;
    switch (event.type) {
      // The join is answered once; the socket can drop whether or not it was.
      case 'notifications.feedStatus':
        return (event as unknown as { status: string }).status === 'SUBSCRIBED'
          ? state.matches({ feed: { subscribing: 'joining' } })
          : state.matches({ feed: 'subscribing' });
      // Only a joined feed hears a change; an update needs a row to change.
      case 'notifications.changed':
        return (
          state.matches({ feed: { subscribing: 'live' } }) &&
          ((event as unknown as { eventType: string }).eventType === 'INSERT' || rows.length > 0)
        );
      // The bell marks what is unread; a row's own button is there only while it is unread.
      case 'notifications.open':
        return rows.some((row) => !row.is_read);
      case 'notifications.markOne':
        return rows.some((row) => row.id === (event as unknown as { id: string }).id && !row.is_read);
      // Clear All refuses an empty list.
      case 'notifications.clearAll':
        return rows.length > 0;
      // The answer is what the backend holds: with a row on show, that row as the backend has it
      // (read once a mark has gone through, unread while one waits or after one failed).
      case 'xstate.done.actor.listNotifications': {
        const output = outputOf(event);
        const [shown] = rows;
        if (!shown) return output.every((row) => !row.is_read);
        const readAtBackend = shown.is_read && !context.queuedReads && !context.sendingReads;
        return output.length === 1 && output[0]?.is_read === readAtBackend;
      }
      default:
        return true;
    }
  },
  notUiReachable: {
    'xstate.error.actor.notificationFeed':
      'the feed actor never throws: a subscription that fails or drops is reported as a status (CHANNEL_ERROR), which the paths cause by cutting the socket',
    'notifications.refresh':
      'raised by the machine itself after a failed mark and after a clear; the paths take it in those steps',
  },
});
