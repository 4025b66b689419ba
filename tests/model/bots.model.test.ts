import { describe, expect } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { botCopy } from '../../src/copy/bots.ts';
import { EMPTY_BOT_DRAFT, MAX_BOTS, type Bot, type BotDraft, type BotFields } from '../../src/domain/bots.ts';
import type { BotsLoad } from '../../src/machines/bots/bots-types.ts';
import { botsMachine, botsTags } from '../../src/machines/bots/bots.machine.ts';
import type { SessionChanged, ToastRequest } from '../../src/machines/shared.ts';
import { BackendError } from '../../src/services/supabase/types.ts';
import { authUser, botRow, botRun } from '../support/fixtures.ts';
import { errorOf, outputOf } from '../support/model/recorders.ts';
import { describeModel, type ModelStep } from '../support/model/index.ts';
import { stableJson } from '../support/model/paths.ts';

// The Trading Bots tab's generated paths: a visitor asked to log in, a user's bots loaded (and
// loaded again after failures), the form (refused fields, saved, failed), pausing, resuming,
// deleting after a confirmation, the list read again on the feed's changes, and the feed lost and
// subscribed again. Each step checks what the tab shows (its tags, the form, the list), what the
// backend is asked, and the one toast each outcome ends with, in the words of src/copy/bots.ts.

type Snapshot = SnapshotFrom<typeof botsMachine>;

const ALICE = 'alice';
const BOB = 'bob';

const breakout = botRow('b1', 'Breakout', { kind: 'priceAbove', level: 0.0021 });
const whale = botRow(
  'b2',
  'Whale watch',
  { kind: 'largeSwap', minDdex: 10_000 },
  { cooldownMinutes: 60, status: 'paused', lastFiredAt: '2026-01-02T00:00:00Z' },
);
/** What the backend answers a create with (the form's 'Dip' below 0.0019), and an edit of Breakout. */
const dip = botRow('b3', 'Dip', { kind: 'priceBelow', level: 0.0019 });
const renamed: Bot = { ...breakout, name: 'Dip' };
const run = botRun('r1', 'b1');
const loaded: BotsLoad = { bots: [breakout, whale], runs: { b1: [run] } };
/** As many bots as an account may have. */
const full: BotsLoad = {
  bots: Array.from({ length: MAX_BOTS }, (_, index) => ({ ...breakout, id: `f${index}` })),
  runs: {},
};

/** The form as the edit of each bot opens it: its own values as text, the others the new form's. */
const draftOfBot: Record<string, BotDraft> = {
  b1: { ...EMPTY_BOT_DRAFT, name: 'Breakout', kind: 'priceAbove', level: '0.0021', cooldownMinutes: '15' },
  b2: { ...EMPTY_BOT_DRAFT, name: 'Whale watch', kind: 'largeSwap', minDdex: '10000', cooldownMinutes: '60' },
};

/** The fields refused in the drafts the paths type (a name, a level), in the copy's words. */
function problemsOf(draft: BotDraft): Record<string, string> {
  return {
    ...(draft.name.trim() === '' ? { name: botCopy.problems.nameMissing } : {}),
    ...(draft.kind !== 'largeSwap' && draft.level === '' ? { level: botCopy.problems.levelInvalid } : {}),
  };
}

/** What a valid draft of the paths is saved as. */
function fieldsOf(draft: BotDraft): BotFields {
  const rule =
    draft.kind === 'largeSwap'
      ? { kind: 'largeSwap' as const, minDdex: Number(draft.minDdex) }
      : { kind: draft.kind as 'priceAbove' | 'priceBelow', level: Number(draft.level) };
  return { name: draft.name.trim(), rule, cooldownMinutes: Number(draft.cooldownMinutes) };
}

const failures = {
  denied: new BackendError('permission denied for table bots', '42501', 403),
  gone: new BackendError('No bot with this id belongs to the signed-in user', 'bot_not_found', 404),
  silent: 'socket hang up',
};

const destructive = (title: string, description: string): ToastRequest => ({
  title,
  description,
  variant: 'destructive',
});

/** The words under a failure's title: the server's, the copy's for a bot that is gone, else the fallback. */
function failureWords(error: unknown): string {
  if (error === failures.gone) return botCopy.botGone;
  return error instanceof Error ? error.message : botCopy.failedFallback;
}

/** The toasts a step's event must show, given the snapshot before it (none for most events). */
function expectedToasts(event: EventObject, before: Snapshot): ToastRequest[] {
  const creating = before.context.editingId === null;
  const output = outputOf(event) as Bot;
  const error = errorOf(event);
  switch (event.type) {
    case 'bots.create':
      return before.hasTag(botsTags.idle) && before.context.bots.length >= MAX_BOTS
        ? [destructive(botCopy.limitReached.title, botCopy.limitReached.description)]
        : [];
    case 'xstate.done.actor.saveBot':
      return [
        creating
          ? { title: botCopy.created, description: botCopy.createdDescription(output.name) }
          : { title: botCopy.saved, description: botCopy.savedDescription(output.name) },
      ];
    case 'xstate.error.actor.saveBot':
      return [destructive(creating ? botCopy.createFailed : botCopy.saveFailed, failureWords(error))];
    case 'xstate.done.actor.setBotStatus':
      return [
        output.status === 'paused'
          ? { title: botCopy.paused, description: botCopy.pausedDescription(output.name) }
          : { title: botCopy.resumed, description: botCopy.resumedDescription(output.name) },
      ];
    case 'xstate.error.actor.setBotStatus':
      return [
        destructive(
          before.context.targetStatus === 'paused' ? botCopy.pauseFailed : botCopy.resumeFailed,
          failureWords(error),
        ),
      ];
    case 'xstate.done.actor.deleteBot': {
      const name = before.context.bots.find((bot) => bot.id === before.context.targetId)?.name ?? '';
      return [{ title: botCopy.deleted, description: botCopy.deletedDescription(name) }];
    }
    case 'xstate.error.actor.deleteBot':
      return [destructive(botCopy.deleteFailed, failureWords(error))];
    case 'xstate.error.actor.refreshBots':
      return [destructive(botCopy.refreshFailed, failureWords(error))];
    default:
      return [];
  }
}

type ReadyState = 'idle' | 'editing' | 'saving' | 'toggling' | 'confirmingDelete' | 'deleting' | 'refreshing';
const inList = (snapshot: Snapshot, state: ReadyState) =>
  snapshot.matches({ active: { list: { ready: state } } });

/** What a step must have done with the event it took. */
function afterEvent(event: EventObject, before: Snapshot, snapshot: Snapshot): void {
  const { context } = snapshot;
  switch (event.type) {
    case 'bots.changed':
    case 'bots.feedStatus': {
      if (event.type === 'bots.feedStatus' && (event as { status?: string }).status !== 'SUBSCRIBED') break;
      if (!before.matches('active')) break;
      // A change, or a subscribe that may have missed some, is read at once by an idle list, or
      // as soon as the list is idle again.
      if (before.hasTag(botsTags.idle)) expect(inList(snapshot, 'refreshing')).toBe(true);
      else expect(context.stale).toBe(true);
      break;
    }
    case 'bots.field': {
      const { name, value } = event as EventObject & { name: keyof BotDraft; value: string };
      expect(context.draft).toEqual({ ...before.context.draft, [name]: value });
      // Typing into a refused field takes its words away; the others keep theirs.
      expect(context.problems[name]).toBeUndefined();
      expect(Object.keys(context.problems)).toEqual(
        Object.keys(before.context.problems).filter((field) => field !== name),
      );
      break;
    }
    case 'bots.submit':
      // Refused: the form stays, with the words of each field refused.
      if (inList(snapshot, 'editing')) {
        expect(context.problems).toEqual(problemsOf(context.draft));
        expect(Object.keys(context.problems).length).toBeGreaterThan(0);
      }
      break;
    case 'xstate.done.actor.loadBots':
    case 'xstate.done.actor.refreshBots': {
      const { bots, runs } = outputOf(event) as BotsLoad;
      expect(context.bots).toEqual(bots);
      expect(context.runs).toEqual(runs);
      expect(context.loadFailures).toBe(0);
      break;
    }
    case 'xstate.done.actor.saveBot':
    case 'xstate.done.actor.setBotStatus': {
      // The row the backend answered with is listed, in place of the old one.
      const saved = outputOf(event) as Bot;
      expect(context.bots.filter((bot) => bot.id === saved.id)).toEqual([saved]);
      expect(context.bots.length).toBe(
        before.context.bots.length + (before.context.bots.some((bot) => bot.id === saved.id) ? 0 : 1),
      );
      break;
    }
    case 'xstate.error.actor.saveBot':
      // Back to the form as it was typed.
      expect(context.draft).toEqual(before.context.draft);
      expect(context.editingId).toBe(before.context.editingId);
      break;
    case 'xstate.done.actor.deleteBot':
      expect(context.bots).toEqual(before.context.bots.filter((bot) => bot.id !== before.context.targetId));
      expect(context.runs[before.context.targetId ?? '']).toBeUndefined();
      break;
    case 'xstate.error.actor.setBotStatus':
    case 'xstate.error.actor.deleteBot':
    case 'xstate.error.actor.refreshBots':
      // Nothing changes but the toast.
      expect(context.bots).toEqual(before.context.bots);
      break;
    default:
  }
}

type Step = ModelStep<typeof botsMachine>;

/** The user of the session under way, from the input or the last sign-in. */
let user: string | null = null;

const fresh = (userId: string | null) => ({
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
});

const states = {
  '*': (snapshot: Snapshot, { before, events: stepEvents, shown }: Step) => {
    if (!before) {
      user = snapshot.context.userId;
      // A tab opens with nothing shown, typed or under way.
      expect(snapshot.context).toEqual(fresh(user));
      return;
    }
    // The session's user is taken from the first snapshot of the session, then from what it hears.
    if (!before.matches('active') && snapshot.matches('active')) user = snapshot.context.userId;
    for (const event of stepEvents) {
      if (event.type === 'session.changed' && snapshot.matches('active')) {
        user = (event as SessionChanged).user?.id ?? null;
      }
    }
    const previous = before;
    expect(shown.map((toast) => toast.params)).toEqual(
      stepEvents.flatMap((event) => expectedToasts(event, previous)),
    );
    for (const event of stepEvents) afterEvent(event, previous, snapshot);
  },
  // A visitor is asked to log in, and nothing of a session is kept.
  signedOut: (snapshot: Snapshot) => {
    expect(snapshot.hasTag(botsTags.signedOut)).toBe(true);
    expect(snapshot.context).toEqual(fresh(null));
  },
  active: (snapshot: Snapshot, { before }: Step) => {
    expect(snapshot.hasTag(botsTags.signedOut)).toBe(false);
    expect(snapshot.context.userId).toBe(user);
    // Another user's session starts from nothing.
    if (before?.matches('active') && before.context.userId !== user) {
      expect(snapshot.context).toEqual({ ...fresh(user), stale: false });
    }
  },
  // The signed-in user's bots are read, and their changes followed.
  'active.list.loading': (snapshot: Snapshot, { inputOf }: Step) => {
    expect(snapshot.hasTag(botsTags.loading)).toBe(true);
    expect(inputOf('loadBots')).toEqual({ userId: user });
  },
  'active.feed.connected': (_: Snapshot, { inputOf }: Step) =>
    expect(inputOf('botsFeed')).toEqual({ userId: user }),
  // A failed load is counted (up to the 10 s step) and shown in the tab, not as a toast.
  'active.list.failed': (snapshot: Snapshot, { before }: Step) => {
    expect(snapshot.hasTag(botsTags.failed)).toBe(true);
    const { loadFailures } = snapshot.context;
    if (before?.matches({ active: { list: 'loading' } })) {
      expect(loadFailures).toBe(Math.min(before.context.loadFailures + 1, BACKOFF_MS.length));
    }
    expect(loadFailures).toBeGreaterThan(0);
  },
  // Idle: nothing open, asked or under way, and nothing left unread.
  'active.list.ready.idle': (snapshot: Snapshot) => {
    expect(snapshot.hasTag(botsTags.idle)).toBe(true);
    expect(snapshot.hasTag(botsTags.busy)).toBe(false);
    expect(snapshot.context).toMatchObject({
      draft: EMPTY_BOT_DRAFT,
      editingId: null,
      problems: {},
      fields: null,
      targetId: null,
      targetStatus: null,
      stale: false,
    });
  },
  // The form opens empty for a new bot, with the bot's own values for an edit.
  'active.list.ready.editing': (snapshot: Snapshot, { before }: Step) => {
    expect(snapshot.hasTag(botsTags.editing)).toBe(true);
    expect(snapshot.hasTag(botsTags.busy)).toBe(false);
    const opened = before !== undefined && !before.hasTag(botsTags.editing);
    if (!opened) return;
    const { editingId, draft, problems } = snapshot.context;
    expect(problems).toEqual({});
    if (editingId === null) expect(draft).toEqual(EMPTY_BOT_DRAFT);
    else expect(draft).toEqual(draftOfBot[editingId]);
  },
  // Saving sends the checked form: a new bot, or the one edited.
  'active.list.ready.saving': (snapshot: Snapshot, { inputOf }: Step) => {
    expect(snapshot.hasTag(botsTags.busy)).toBe(true);
    const { editingId, draft } = snapshot.context;
    expect(inputOf('saveBot')).toEqual({ id: editingId, fields: fieldsOf(draft) });
  },
  // Pausing an active bot, resuming a paused one.
  'active.list.ready.toggling': (snapshot: Snapshot, { inputOf }: Step) => {
    expect(snapshot.hasTag(botsTags.busy)).toBe(true);
    const { targetId, bots } = snapshot.context;
    const bot = bots.find((known) => known.id === targetId);
    expect(inputOf('setBotStatus')).toEqual({
      id: targetId,
      status: bot?.status === 'active' ? 'paused' : 'active',
    });
  },
  // Deleting asks first, about a bot of the list.
  'active.list.ready.confirmingDelete': (snapshot: Snapshot) => {
    expect(snapshot.hasTag(botsTags.confirmingDelete)).toBe(true);
    expect(snapshot.context.bots.map((bot) => bot.id)).toContain(snapshot.context.targetId);
  },
  'active.list.ready.deleting': (snapshot: Snapshot, { inputOf }: Step) => {
    expect(snapshot.hasTag(botsTags.busy)).toBe(true);
    expect(inputOf('deleteBot')).toEqual({ id: snapshot.context.targetId });
  },
  // A background read: the list stays on show and takes presses.
  'active.list.ready.refreshing': (snapshot: Snapshot, { before, inputOf }: Step) => {
    expect(snapshot.hasTag(botsTags.idle)).toBe(true);
    expect(inputOf('refreshBots')).toEqual({ userId: user });
    if (!before?.matches({ active: { list: { ready: 'refreshing' } } })) {
      expect(snapshot.context.stale).toBe(false);
    }
  },
  // Waiting to subscribe again: one more failure counted, never past the 10 s step.
  'active.feed.waiting': (snapshot: Snapshot, { before }: Step) => {
    expect(snapshot.hasTag(botsTags.reconnecting)).toBe(true);
    const { feedFailures } = snapshot.context;
    if (before?.matches({ active: { feed: 'connected' } })) {
      expect(feedFailures).toBe(Math.min(before.context.feedFailures + 1, BACKOFF_MS.length));
    }
    expect(feedFailures).toBeGreaterThan(0);
  },
  'active.feed.connected.live': (snapshot: Snapshot) => {
    expect(snapshot.hasTag(botsTags.reconnecting)).toBe(false);
    expect(snapshot.context.feedFailures).toBe(0);
  },
};

/** The back-off of docs/product.md#constants: 1, 2, 5, then every 10 s. */
const BACKOFF_MS = [1000, 2000, 5000, 10_000];
const backoff = (failures: number) => BACKOFF_MS[failures - 1] ?? Number.POSITIVE_INFINITY;

/**
 * One vertex per snapshot, except for what cannot tell two snapshots apart in what they do next:
 * the failure counts only set a wait's length, the bots' names and runs only the words. (The
 * paths' states are a vertex's last snapshot, so merging more would predict wrong states.)
 */
function serializeState(snapshot: Snapshot): string {
  const { bots, runs: _runs, loadFailures, feedFailures, ...rest } = snapshot.context;
  return stableJson({
    value: snapshot.value,
    bots: bots.map((bot) => `${bot.id}:${bot.status}`),
    failed: [loadFailures > 0, feedFailures > 0],
    rest,
  });
}

const common = {
  name: 'bots',
  serializeState,
  machine: botsMachine,
  // The paths send the feed's events themselves; the feed only has to exist.
  callbacks: ['botsFeed'],
  delays: {
    botsRetry: ({ context }: { context: Snapshot['context'] }) => backoff(context.loadFailures),
    feedRetry: ({ context }: { context: Snapshot['context'] }) => backoff(context.feedFailures),
  },
  states,
};

const feedEvents = {
  'bots.changed': [{ type: 'bots.changed', table: 'bot_runs' }],
  'bots.feedStatus': [
    { type: 'bots.feedStatus', status: 'SUBSCRIBED' },
    { type: 'bots.feedStatus', status: 'CHANNEL_ERROR' },
  ],
  'xstate.error.actor.botsFeed': [
    { type: 'xstate.error.actor.botsFeed', error: new Error('realtime client not available') },
  ],
};

const errors = (id: string, error: unknown) => ({
  [`xstate.error.actor.${id}`]: [{ type: `xstate.error.actor.${id}`, error }],
});

/** The events of alice's tab with her two bots, one active and one paused; failures as given. */
const aliceEvents = (failure: { load: unknown; write: unknown }) => ({
  'session.changed': [
    { type: 'session.changed', user: null },
    // The same user again (a token refreshed): nothing changes.
    { type: 'session.changed', user: authUser(ALICE) },
  ],
  ...feedEvents,
  'bots.edit': [{ type: 'bots.edit', id: breakout.id }],
  'bots.pause': [{ type: 'bots.pause', id: breakout.id }],
  'bots.resume': [{ type: 'bots.resume', id: whale.id }],
  'bots.delete': [{ type: 'bots.delete', id: whale.id }],
  'bots.field': [
    { type: 'bots.field', name: 'name', value: 'Dip' },
    { type: 'bots.field', name: 'level', value: '0.0019' },
  ],
  'xstate.done.actor.loadBots': [{ type: 'xstate.done.actor.loadBots', output: loaded }],
  'xstate.done.actor.refreshBots': [{ type: 'xstate.done.actor.refreshBots', output: loaded }],
  'xstate.done.actor.saveBot': [
    { type: 'xstate.done.actor.saveBot', output: dip },
    { type: 'xstate.done.actor.saveBot', output: renamed },
  ],
  'xstate.done.actor.setBotStatus': [
    { type: 'xstate.done.actor.setBotStatus', output: { ...breakout, status: 'paused' } },
    { type: 'xstate.done.actor.setBotStatus', output: { ...whale, status: 'active' } },
  ],
  'xstate.done.actor.deleteBot': [{ type: 'xstate.done.actor.deleteBot', output: undefined }],
  ...errors('loadBots', failure.load),
  ...errors('refreshBots', failure.load),
  ...errors('saveBot', failure.write),
  ...errors('setBotStatus', failure.write),
  ...errors('deleteBot', failure.write),
});

/** The edges of alice's graph: the feed's states times the list's, with their forms and lists. */
const ALICE_EDGES = 60_000;

describeModel({
  ...common,
  input: { userId: ALICE },
  limit: ALICE_EDGES,
  events: aliceEvents({ load: failures.denied, write: failures.denied }),
});

// In describes of their own, so that their paths are named apart from the first model's.
describe('failures that say nothing, and a bot deleted elsewhere', () =>
  describeModel({
    ...common,
    input: { userId: ALICE },
    limit: ALICE_EDGES,
    events: aliceEvents({ load: failures.silent, write: failures.gone }),
  }));

/**
 * Who is signed in: a visitor logs in, a user signs out, another signs in over them. The list is
 * empty here (the bots' own paths are alice's above), so the sessions of two users stay small.
 */
const sessionEvents = {
  'session.changed': [
    { type: 'session.changed', user: authUser(ALICE) },
    { type: 'session.changed', user: authUser(BOB) },
    { type: 'session.changed', user: null },
  ],
  ...feedEvents,
  'xstate.done.actor.loadBots': [{ type: 'xstate.done.actor.loadBots', output: { bots: [], runs: {} } }],
  'xstate.done.actor.refreshBots': [
    { type: 'xstate.done.actor.refreshBots', output: { bots: [], runs: {} } },
  ],
  ...errors('loadBots', failures.denied),
  ...errors('refreshBots', failures.denied),
};

describe('a visitor, asked to log in', () =>
  describeModel({ ...common, input: { userId: null }, events: sessionEvents }));

describe('an account with as many bots as it may have', () =>
  describeModel({
    ...common,
    input: { userId: ALICE },
    events: {
      ...feedEvents,
      'session.changed': [{ type: 'session.changed', user: null }],
      'xstate.done.actor.loadBots': [{ type: 'xstate.done.actor.loadBots', output: full }],
      'xstate.done.actor.refreshBots': [{ type: 'xstate.done.actor.refreshBots', output: full }],
      ...errors('loadBots', failures.denied),
      ...errors('refreshBots', failures.denied),
    },
  }));
