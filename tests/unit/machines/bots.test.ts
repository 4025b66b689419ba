import { authUser, botRun } from '../../support/fixtures.ts';
import { describe, expect, it } from 'vitest';
import { botCopy } from '../../../src/copy/bots.ts';
import { EMPTY_BOT_DRAFT, type Bot, type BotFields } from '../../../src/domain/bots.ts';
import type { BotsFeedEvent, BotsLoad } from '../../../src/machines/bots/bots-types.ts';
import { botsMachine, botsTags } from '../../../src/machines/bots/bots.machine.ts';
import { BackendError } from '../../../src/services/supabase/types.ts';
import { lastCall, settle } from '../../support/deferred-actor.ts';
import { machineHarness, type CallbackRun } from '../../support/machines/harness.ts';

// The bots machine under the harness, its actors stand-ins on a simulated clock: what the
// generated paths (tests/model/bots.model.test.ts) leave to a test that runs a feed and counts
// time: the live feed's changes and its back-off, the load's retries, a change that waits for the
// form to close, a press that interrupts a background read, and the sessions of two users.

const breakout: Bot = {
  id: 'b1',
  name: 'Breakout',
  rule: { kind: 'priceAbove', level: 0.0021 },
  cooldownMinutes: 15,
  status: 'active',
  lastFiredAt: null,
  createdAt: '2026-01-01T00:00:00Z',
};
const loaded: BotsLoad = { bots: [breakout], runs: {} };

/** One run of the live feed: the user it follows, whether it was stopped, and a way to send from it. */
type Feed = Omit<CallbackRun, 'input' | 'emit'> & {
  input: { userId: string };
  emit: (event: BotsFeedEvent) => void;
};
type ReadyState = 'idle' | 'editing' | 'refreshing';

function setup(userId: string | null = 'alice') {
  const h = machineHarness(botsMachine, { input: { userId }, callbacks: ['botsFeed'] });
  const loads = h.calls<BotsLoad, { userId: string }>('loadBots');
  const saves = h.calls<Bot, { id: string | null; fields: BotFields }>('saveBot');
  const statuses = h.calls<Bot, { id: string; status: Bot['status'] }>('setBotStatus');
  const deletes = h.calls<unknown, { id: string }>('deleteBot');
  const feeds = () => h.callback('botsFeed').runs as Feed[];
  const { actor, clock, snapshot } = h;
  const lastLoad = () => lastCall(loads, 'loadBots');
  const lastFeed = () => {
    const feed = feeds().at(-1);
    if (!feed) throw new Error('no feed was started');
    return feed;
  };
  const list = (state: ReadyState) => snapshot().matches({ active: { list: { ready: state } } });
  return {
    actor,
    clock,
    toasts: h.toasts,
    loads,
    saves,
    statuses,
    deletes,
    get feeds() {
      return feeds();
    },
    lastLoad,
    lastFeed,
    snapshot,
    list,
  };
}

type Harness = ReturnType<typeof setup>;

async function ready(h: Harness, load: BotsLoad = loaded) {
  h.lastLoad().resolve(load);
  await settle();
}

describe('bots machine: sessions', () => {
  it('asks a visitor to log in, reads nothing, and starts on a sign-in', () => {
    const h = setup(null);
    expect(h.snapshot().hasTag(botsTags.signedOut)).toBe(true);
    expect(h.loads).toHaveLength(0);
    expect(h.feeds).toHaveLength(0);

    h.actor.send({ type: 'session.changed', user: authUser('alice') });
    expect(h.snapshot().hasTag(botsTags.loading)).toBe(true);
    expect(h.loads.map((call) => call.input)).toEqual([{ userId: 'alice' }]);
    expect(h.feeds.map((feed) => feed.input.userId)).toEqual(['alice']);
  });

  it('keeps a visitor signed out when the session changes without a user', () => {
    const h = setup(null);
    h.actor.send({ type: 'session.changed', user: null });
    expect(h.snapshot().hasTag(botsTags.signedOut)).toBe(true);
    expect(h.loads).toHaveLength(0);
    expect(h.feeds).toHaveLength(0);
  });

  it('forgets the bots and stops the feed on a sign-out', async () => {
    const h = setup();
    await ready(h);
    h.actor.send({ type: 'session.changed', user: null });
    expect(h.snapshot().hasTag(botsTags.signedOut)).toBe(true);
    expect(h.snapshot().context.bots).toEqual([]);
    expect(h.lastFeed().stopped).toBe(true);
  });

  it("starts afresh for another user, and keeps the list for the same one's new token", async () => {
    const h = setup();
    await ready(h);
    h.actor.send({ type: 'session.changed', user: authUser('alice') });
    expect(h.list('idle')).toBe(true);
    expect(h.loads).toHaveLength(1);

    h.actor.send({ type: 'bots.create' });
    h.actor.send({ type: 'session.changed', user: authUser('bob') });
    expect(h.snapshot().context).toMatchObject({ userId: 'bob', bots: [], draft: EMPTY_BOT_DRAFT });
    expect(h.loads.map((call) => call.input)).toEqual([{ userId: 'alice' }, { userId: 'bob' }]);
    expect(h.feeds.map((feed) => [feed.input.userId, feed.stopped])).toEqual([
      ['alice', true],
      ['bob', false],
    ]);
  });
});

describe('bots machine: loading', () => {
  it('tries a failed load again after 1, 2, 5, then every 10 s, and at once on Try Again', async () => {
    const h = setup();
    for (const wait of [1000, 2000, 5000, 10_000, 10_000]) {
      const before = h.loads.length;
      h.lastLoad().reject(new BackendError('Failed to fetch', 'network_error'));
      await settle();
      expect(h.snapshot().hasTag(botsTags.failed)).toBe(true);
      h.clock.increment(wait - 1);
      expect(h.loads).toHaveLength(before);
      h.clock.increment(1);
      expect(h.loads).toHaveLength(before + 1);
    }
    h.lastLoad().reject(new Error('down'));
    await settle();
    h.actor.send({ type: 'bots.retry' });
    expect(h.snapshot().hasTag(botsTags.loading)).toBe(true);
    await ready(h);
    expect(h.snapshot().context).toMatchObject({ bots: [breakout], loadFailures: 0 });
    // Shown in the tab, never as a toast.
    expect(h.toasts).toEqual([]);
  });
});

describe('bots machine: live feed', () => {
  it('reads the list again on each change the feed reports', async () => {
    const h = setup();
    await ready(h);
    h.lastFeed().emit({ type: 'bots.changed', table: 'bot_runs' });
    expect(h.list('refreshing')).toBe(true);
    const fired = { ...breakout, lastFiredAt: '2026-01-03T00:00:00Z' };
    h.lastLoad().resolve({ bots: [fired], runs: {} });
    await settle();
    expect(h.list('idle')).toBe(true);
    expect(h.snapshot().context.bots).toEqual([fired]);
  });

  it('keeps an open form as typed, and reads the list once it closes', async () => {
    const h = setup();
    await ready(h);
    h.actor.send({ type: 'bots.create' });
    h.actor.send({ type: 'bots.field', name: 'name', value: 'Dip' });
    h.lastFeed().emit({ type: 'bots.changed', table: 'bots' });
    h.lastFeed().emit({ type: 'bots.changed', table: 'bot_runs' });
    expect(h.list('editing')).toBe(true);
    expect(h.snapshot().context.draft.name).toBe('Dip');
    expect(h.loads).toHaveLength(1);

    h.actor.send({ type: 'bots.cancel' });
    expect(h.list('refreshing')).toBe(true);
    expect(h.loads).toHaveLength(2);
  });

  it('takes a press during a background read, and reads again after it', async () => {
    const h = setup();
    await ready(h);
    h.actor.send({ type: 'bots.refresh' });
    h.actor.send({ type: 'bots.edit', id: breakout.id });
    expect(h.list('editing')).toBe(true);
    expect(h.snapshot().context.editingId).toBe(breakout.id);
    h.actor.send({ type: 'bots.submit' });
    expect(h.saves.map((call) => call.input)).toEqual([
      { id: breakout.id, fields: { name: 'Breakout', rule: breakout.rule, cooldownMinutes: 15 } },
    ]);
    h.saves[0]?.resolve(breakout);
    await settle();
    expect(h.toasts).toEqual([{ title: botCopy.saved, description: botCopy.savedDescription('Breakout') }]);
    expect(h.list('refreshing')).toBe(true);
    expect(h.loads).toHaveLength(3);
  });

  it('keeps a live feed when it says again that it is subscribed', async () => {
    const h = setup();
    await ready(h);
    const feed = h.lastFeed();
    feed.emit({ type: 'bots.feedStatus', status: 'SUBSCRIBED' });
    await ready(h);
    feed.emit({ type: 'bots.feedStatus', status: 'SUBSCRIBED' });
    expect(feed.stopped).toBe(false);
    expect(h.snapshot().hasTag(botsTags.reconnecting)).toBe(false);
    expect(h.feeds).toHaveLength(1);
  });

  it('subscribes again after 1, 2, 5, then every 10 s, and reads what it missed once it is up', async () => {
    const h = setup();
    await ready(h);
    h.lastFeed().emit({ type: 'bots.feedStatus', status: 'SUBSCRIBED' });
    // Up for the first time: the list is read once more, for what changed before the feed was.
    expect(h.list('refreshing')).toBe(true);
    await ready(h);
    for (const wait of [1000, 2000, 5000, 10_000, 10_000]) {
      const feed = h.lastFeed();
      feed.emit({ type: 'bots.feedStatus', status: 'CHANNEL_ERROR' });
      expect(feed.stopped).toBe(true);
      expect(h.snapshot().hasTag(botsTags.reconnecting)).toBe(true);
      h.clock.increment(wait - 1);
      expect(h.lastFeed()).toBe(feed);
      h.clock.increment(1);
      expect(h.lastFeed()).not.toBe(feed);
    }
    const reads = h.loads.length;
    h.lastFeed().emit({ type: 'bots.feedStatus', status: 'SUBSCRIBED' });
    expect(h.snapshot().hasTag(botsTags.reconnecting)).toBe(false);
    expect(h.snapshot().context.feedFailures).toBe(0);
    expect(h.loads).toHaveLength(reads + 1);
    // Lost again: the back-off starts over at 1 s.
    h.lastFeed().emit({ type: 'bots.feedStatus', status: 'TIMED_OUT' });
    const feeds = h.feeds.length;
    h.clock.increment(1000);
    expect(h.feeds).toHaveLength(feeds + 1);
  });
});

describe('bots machine: the form', () => {
  it('shows what is wrong, takes each fix, then creates the bot', async () => {
    const h = setup();
    await ready(h);
    h.actor.send({ type: 'bots.create' });
    h.actor.send({ type: 'bots.submit' });
    expect(h.snapshot().context.problems).toEqual({
      name: botCopy.problems.nameMissing,
      level: botCopy.problems.levelInvalid,
    });
    h.actor.send({ type: 'bots.field', name: 'name', value: ' Dip ' });
    expect(h.snapshot().context.problems).toEqual({ level: botCopy.problems.levelInvalid });
    h.actor.send({ type: 'bots.field', name: 'kind', value: 'priceBelow' });
    h.actor.send({ type: 'bots.field', name: 'level', value: '0.0019' });
    h.actor.send({ type: 'bots.submit' });
    expect(h.snapshot().hasTag(botsTags.busy)).toBe(true);
    const fields = { name: 'Dip', rule: { kind: 'priceBelow', level: 0.0019 }, cooldownMinutes: 15 } as const;
    expect(h.saves.map((call) => call.input)).toEqual([{ id: null, fields }]);

    const dip: Bot = { ...breakout, id: 'b2', name: 'Dip', rule: fields.rule };
    h.saves[0]?.resolve(dip);
    await settle();
    expect(h.toasts).toEqual([{ title: botCopy.created, description: botCopy.createdDescription('Dip') }]);
    expect(h.snapshot().context.bots).toEqual([breakout, dip]);
    expect(h.snapshot().context.draft).toEqual(EMPTY_BOT_DRAFT);
  });

  it("says 'Bot Not Created' when a new bot's save fails", async () => {
    const h = setup();
    await ready(h);
    h.actor.send({ type: 'bots.create' });
    h.actor.send({ type: 'bots.field', name: 'name', value: 'Dip' });
    h.actor.send({ type: 'bots.field', name: 'level', value: '0.0019' });
    h.actor.send({ type: 'bots.submit' });
    h.saves[0]?.reject(new BackendError('Too many bots', 'bot_limit'));
    await settle();
    expect(h.toasts).toEqual([
      { title: botCopy.createFailed, description: 'Too many bots', variant: 'destructive' },
    ]);
  });

  it('keeps the form as typed when the save fails', async () => {
    const h = setup();
    await ready(h);
    h.actor.send({ type: 'bots.edit', id: breakout.id });
    h.actor.send({ type: 'bots.field', name: 'level', value: '0.003' });
    h.actor.send({ type: 'bots.submit' });
    h.saves[0]?.reject(
      new BackendError('No bot with this id belongs to the signed-in user', 'bot_not_found'),
    );
    await settle();
    expect(h.list('editing')).toBe(true);
    expect(h.snapshot().context.draft.level).toBe('0.003');
    expect(h.toasts).toEqual([
      { title: botCopy.saveFailed, description: botCopy.botGone, variant: 'destructive' },
    ]);
  });
});

describe('bots machine: pausing, resuming and deleting', () => {
  const whale: Bot = { ...breakout, id: 'b2', name: 'Whale watch', status: 'paused' };
  const run = botRun('r1', 'b1');
  const two: BotsLoad = {
    bots: [breakout, whale],
    runs: { b1: [run], b2: [{ ...run, id: 'r2', botId: 'b2' }] },
  };

  it('pauses an active bot and resumes it, each under its name', async () => {
    const h = setup();
    await ready(h, two);
    h.actor.send({ type: 'bots.pause', id: breakout.id });
    expect(h.statuses.map((call) => call.input)).toEqual([{ id: breakout.id, status: 'paused' }]);
    h.statuses[0]?.resolve({ ...breakout, status: 'paused' });
    await settle();
    h.actor.send({ type: 'bots.resume', id: breakout.id });
    expect(h.statuses[1]?.input).toEqual({ id: breakout.id, status: 'active' });
    h.statuses[1]?.resolve(breakout);
    await settle();
    expect(h.toasts).toEqual([
      { title: botCopy.paused, description: botCopy.pausedDescription('Breakout') },
      { title: botCopy.resumed, description: botCopy.resumedDescription('Breakout') },
    ]);
    expect(h.snapshot().context.bots).toEqual([breakout, whale]);
  });

  it('takes no press for a bot not in the list, nor a pause of a paused bot or a resume of an active one', async () => {
    const h = setup();
    await ready(h, two);
    for (const type of ['bots.pause', 'bots.resume', 'bots.edit', 'bots.delete'] as const) {
      h.actor.send({ type, id: 'gone' });
    }
    h.actor.send({ type: 'bots.pause', id: whale.id });
    h.actor.send({ type: 'bots.resume', id: breakout.id });
    expect(h.list('idle')).toBe(true);
    expect(h.statuses).toHaveLength(0);
    // The buttons still take a press that applies.
    h.actor.send({ type: 'bots.resume', id: whale.id });
    expect(h.statuses.map((call) => call.input)).toEqual([{ id: whale.id, status: 'active' }]);
  });

  it("says which was refused, a pause or a resume, in the backend's words", async () => {
    const h = setup();
    await ready(h, two);
    h.actor.send({ type: 'bots.resume', id: whale.id });
    h.statuses[0]?.reject(new BackendError('permission denied for table bots', '42501'));
    await settle();
    h.actor.send({ type: 'bots.pause', id: breakout.id });
    h.statuses[1]?.reject(new BackendError('Failed to fetch', 'network_error'));
    await settle();
    expect(h.toasts).toEqual([
      {
        title: botCopy.resumeFailed,
        description: 'permission denied for table bots',
        variant: 'destructive',
      },
      { title: botCopy.pauseFailed, description: 'Failed to fetch', variant: 'destructive' },
    ]);
  });

  it('deletes a bot with its runs once confirmed, and names it', async () => {
    const h = setup();
    await ready(h, two);
    h.actor.send({ type: 'bots.delete', id: breakout.id });
    expect(h.snapshot().hasTag(botsTags.confirmingDelete)).toBe(true);
    h.actor.send({ type: 'bots.confirmDelete' });
    expect(h.deletes.map((call) => call.input)).toEqual([{ id: breakout.id }]);
    h.deletes[0]?.resolve(undefined);
    await settle();
    expect(h.toasts).toEqual([
      { title: botCopy.deleted, description: botCopy.deletedDescription('Breakout') },
    ]);
    expect(h.snapshot().context).toMatchObject({ bots: [whale], runs: { b2: two.runs.b2 } });
    expect(h.snapshot().context.runs).not.toHaveProperty(breakout.id);
  });

  it('shows the fallback words for a failure that carries none', async () => {
    const h = setup();
    await ready(h, two);
    h.actor.send({ type: 'bots.delete', id: whale.id });
    h.actor.send({ type: 'bots.confirmDelete' });
    h.deletes[0]?.reject(null);
    await settle();
    expect(h.toasts).toEqual([
      { title: botCopy.deleteFailed, description: botCopy.failedFallback, variant: 'destructive' },
    ]);
    expect(h.snapshot().context.bots).toEqual([breakout, whale]);
  });
});
