import {
  createActor,
  fromCallback,
  fromPromise,
  sendTo,
  setup,
  SimulatedClock,
  type AnyActorRef,
} from 'xstate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createJournal } from '../../src/devtools/journal.ts';
import type { JournalEntry } from '../../src/devtools/journal-types.ts';
import { fromJournalValue } from '../../src/devtools/journal-revive.ts';
import { machineSnapshots } from '../../src/devtools/machine-snapshots.ts';

// The journal records every event that reaches an actor system, through
// XState's inspection API: target and source by name, time, the event made
// JSON-safe; bounded, with `truncated` once it has dropped an entry.

type ChildEvent = { type: 'ping' } | { type: 'poke' };

const child = setup({ types: {} as { events: ChildEvent } }).createMachine({
  id: 'child',
  // An entry action that talks to the root while the system is still starting.
  entry: ({ system }) => (system.get('parent') as AnyActorRef | undefined)?.send({ type: 'hello' }),
  on: {
    // The way the portal's `report` action talks: a plain send from inside an action.
    ping: {
      actions: ({ system }) => (system.get('parent') as AnyActorRef | undefined)?.send({ type: 'pong' }),
    },
    poke: {},
  },
});

type ParentEvent =
  | { type: 'go' }
  | { type: 'ping' }
  | { type: 'pong' }
  | { type: 'hello' }
  | { type: 'tick' }
  | { type: 'tock' }
  | { type: 'toast' }
  | { type: 'payload'; [key: string]: unknown };

const parent = setup({
  types: {} as { events: ParentEvent },
  actors: {
    child,
    ticker: fromCallback(({ sendBack, receive }) => receive(() => sendBack({ type: 'tock' }))),
    load: fromPromise(async () => 42n),
  },
  delays: { soon: 100 },
}).createMachine({
  id: 'parent',
  invoke: [
    { id: 'child', systemId: 'child', src: 'child' },
    { id: 'ticker', src: 'ticker' },
  ],
  initial: 'idle',
  states: {
    idle: { on: { go: 'loading' } },
    loading: { invoke: { id: 'load', src: 'load', onDone: 'waiting' } },
    waiting: { after: { soon: 'done' } },
    done: {},
  },
  on: {
    ping: { actions: sendTo('child', { type: 'ping' }) },
    tick: { actions: sendTo('ticker', { type: 'tick' }) },
    // The way the portal's `showToast` action talks.
    toast: {
      actions: ({ system }) => (system.get('child') as AnyActorRef | undefined)?.send({ type: 'poke' }),
    },
  },
});

const flush = () => new Promise((resolve) => setImmediate(resolve));

function start(options: Parameters<typeof createJournal>[0] = {}) {
  const clock = new SimulatedClock();
  const recorder = createJournal({ now: () => clock.now(), ...options });
  const actor = createActor(parent, { systemId: 'parent', clock, inspect: recorder.inspect }).start();
  return { ...recorder, actor, clock };
}

const brief = (entry: JournalEntry) => [entry.source, entry.target, entry.event.type];

afterEach(() => vi.restoreAllMocks());

describe('journal: what it records', () => {
  it('names targets and sources by system id, else parent/id, and null for outside sends', async () => {
    const { journal, actor, clock } = start();
    actor.send({ type: 'ping' });
    actor.send({ type: 'toast' });
    actor.send({ type: 'tick' });
    actor.system.get('child')?.send({ type: 'poke' });
    actor.send({ type: 'go' });
    await flush();
    clock.increment(100);

    expect(journal.entries().map(brief)).toEqual([
      [null, 'parent', 'xstate.init'],
      ['parent', 'child', 'xstate.init'],
      ['child', 'parent', 'hello'],
      ['parent', 'parent/ticker', 'xstate.init'],
      [null, 'parent', 'ping'],
      ['parent', 'child', 'ping'],
      ['child', 'parent', 'pong'],
      [null, 'parent', 'toast'],
      ['parent', 'child', 'poke'],
      [null, 'parent', 'tick'],
      ['parent', 'parent/ticker', 'tick'],
      ['parent/ticker', 'parent', 'tock'],
      [null, 'child', 'poke'],
      [null, 'parent', 'go'],
      ['parent', 'parent/load', 'xstate.init'],
      ['parent/load', 'parent/load', 'xstate.promise.resolve'],
      ['parent/load', 'parent', 'xstate.done.actor.load'],
      ['parent', 'parent', 'xstate.after.soon.parent.waiting'],
    ]);
    expect(actor.getSnapshot().value).toBe('done');
  });

  it('names a grandchild by the whole path when no actor has a system id, as the snapshots do', async () => {
    const leaf = fromCallback(({ sendBack }) => sendBack({ type: 'ready' }));
    const middle = setup({ actors: { leaf } }).createMachine({
      id: 'middle',
      invoke: { id: 'leaf', src: 'leaf' },
    });
    const top = setup({ actors: { middle } }).createMachine({
      id: 'top',
      invoke: { id: 'middle', src: 'middle' },
    });
    const recorder = createJournal();
    const actor = createActor(top, { id: 'top', inspect: recorder.inspect }).start();

    expect(recorder.journal.entries().map(brief)).toEqual([
      [null, 'top', 'xstate.init'],
      ['top', 'top/middle', 'xstate.init'],
      ['top/middle', 'top/middle/leaf', 'xstate.init'],
      ['top/middle/leaf', 'top/middle', 'ready'],
    ]);
    expect(Object.keys(machineSnapshots(actor))).toEqual(['top', 'top/middle']);
  });

  it('numbers entries from 1 and times them from the journal’s start', async () => {
    const { journal, actor, clock } = start();
    clock.increment(250);
    actor.send({ type: 'go' });
    await flush();
    const entries = journal.entries();
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, index) => index + 1));
    expect(entries[0]?.at).toBe(0);
    expect(entries.find((e) => e.event.type === 'go')?.at).toBe(250);
    const done = entries.find((e) => e.event.type === 'xstate.done.actor.load');
    expect(done?.event).toEqual({
      type: 'xstate.done.actor.load',
      output: { $bigint: '42' },
      actorId: 'load',
    });
  });

  it('tells subscribers about each new entry until they unsubscribe, whatever one of them does', () => {
    const { journal, actor } = start();
    const seen: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    journal.subscribe(() => {
      throw new Error('a broken listener');
    });
    const stop = journal.subscribe((entry) => seen.push(entry.event.type));
    actor.send({ type: 'toast' });
    stop();
    actor.send({ type: 'toast' });
    expect(seen).toEqual(['toast', 'poke']);
    expect(error).toHaveBeenCalled();
    expect(journal.entries().filter((e) => e.event.type === 'toast')).toHaveLength(2);
  });

  it('never breaks the system it watches: an event it cannot read is reported and skipped', () => {
    const { journal, actor } = start();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const before = journal.entries().length;
    const unreadable = {
      type: 'payload',
      get broken(): never {
        throw new Error('no');
      },
    } as const;
    actor.send(unreadable);
    actor.send({ type: 'go' });
    expect(error).toHaveBeenCalled();
    expect(
      journal
        .entries()
        .slice(before)
        .map((e) => e.event.type),
    ).toContain('go');
    expect(actor.getSnapshot().value).toBe('loading');
  });
});

describe('journal: bounds', () => {
  it('keeps the newest `limit` entries and says it dropped older ones', () => {
    const { journal, actor } = start({ limit: 3 });
    for (let n = 0; n < 5; n += 1) actor.system.get('child')?.send({ type: 'poke' });
    const entries = journal.entries();
    expect(entries).toHaveLength(3);
    const total = entries.at(-1)?.seq ?? 0;
    expect(entries.map((e) => e.seq)).toEqual([total - 2, total - 1, total]);
    expect(journal.export().truncated).toBe(true);
  });

  it('is not truncated while nothing was dropped', () => {
    const { journal } = start({ limit: 100 });
    expect(journal.export().truncated).toBe(false);
  });

  it('clear() empties it and marks it truncated; numbering goes on', () => {
    const { journal, actor } = start();
    const last = journal.entries().at(-1)?.seq ?? 0;
    journal.clear();
    expect(journal.entries()).toEqual([]);
    actor.send({ type: 'toast' });
    expect(journal.entries()[0]?.seq).toBe(last + 1);
    expect(journal.export().truncated).toBe(true);
  });

  it('hands out a frozen list that stays the same until an entry is added', () => {
    const { journal, actor } = start();
    const first = journal.entries();
    expect(journal.entries()).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0]?.event)).toBe(true);
    actor.send({ type: 'toast' });
    expect(journal.entries()).not.toBe(first);
  });
});

describe('journal: export', () => {
  it('is JSON as it is: bigints, errors, blobs and files tagged, the rest as JSON.stringify has it', () => {
    const { journal, actor } = start();
    const cause = new Error('the node said no');
    const failure = Object.assign(new Error('Transfer failed', { cause }), {
      name: 'TokenServiceError',
      reason: 'reverted',
    });
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const shared = { id: 'u-1' };
    actor.send({
      type: 'payload',
      amount: 5n,
      failure,
      file: new File(['abc'], 'avatar.png', { type: 'image/png' }),
      blob: new Blob(['hello'], { type: 'text/plain' }),
      when: new Date(0),
      missing: undefined,
      nan: Number.NaN,
      fn: () => 1,
      list: [undefined, 1n, () => 2],
      circular,
      twice: [shared, shared],
    });
    const exported = journal.export();
    expect(exported).toMatchObject({ format: 'ddex-journal', version: 1, truncated: false });
    expect(new Date(exported.startedAt).toISOString()).toBe(exported.startedAt);
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);

    const event = exported.entries.at(-1)?.event;
    expect(event).toEqual({
      type: 'payload',
      amount: { $bigint: '5' },
      failure: {
        $error: {
          name: 'TokenServiceError',
          message: 'Transfer failed',
          reason: 'reverted',
          cause: { $error: { name: 'Error', message: 'the node said no' } },
        },
      },
      file: { $blob: { type: 'image/png', size: 3 } },
      blob: { $blob: { type: 'text/plain', size: 5 } },
      when: '1970-01-01T00:00:00.000Z',
      nan: null,
      list: [null, { $bigint: '1' }, null],
      circular: { name: 'loop', self: '[circular]' },
      twice: [{ id: 'u-1' }, { id: 'u-1' }],
    });
  });

  it('writes actor logic by its machine id and a running actor by its name, never their definition', () => {
    const { journal, actor } = start();
    actor.send({
      type: 'payload',
      loaded: child,
      service: fromPromise(async () => 1),
      refs: [actor.system.get('child'), actor.getSnapshot().children.ticker],
    });
    expect(journal.entries().at(-1)?.event).toEqual({
      type: 'payload',
      loaded: { $logic: 'child' },
      service: { $logic: null },
      refs: [{ $actor: 'child' }, { $actor: 'parent/ticker' }],
    });
    expect(JSON.stringify(journal.export())).not.toContain('"states"');
  });

  it('revives a tag it does not know only through the reviver given for it', () => {
    const written = {
      type: 'xstate.promise.resolve',
      data: { $logic: 'child' },
      list: [{ $logic: 'child' }],
    };
    expect(fromJournalValue(written)).toEqual(written);
    const revived = fromJournalValue(written, { $logic: (id) => (id === 'child' ? child : null) });
    expect(revived).toEqual({ type: 'xstate.promise.resolve', data: child, list: [child] });
    expect((revived as { data: unknown }).data).toBe(child);
    // A tag among other keys is no tag.
    expect(fromJournalValue({ $logic: 'child', other: 1 }, { $logic: () => child })).toEqual({
      $logic: 'child',
      other: 1,
    });
  });

  it('revives what it tagged, for a replay', () => {
    const revived = fromJournalValue({
      amount: { $bigint: '5' },
      failure: { $error: { name: 'TokenServiceError', message: 'Transfer failed', reason: 'reverted' } },
      file: { $blob: { type: 'image/png', size: 3 } },
      plain: { $bigint: '1', other: true },
    }) as { amount: bigint; failure: Error & { reason: string }; file: Blob; plain: unknown };
    expect(revived.amount).toBe(5n);
    expect(revived.failure).toBeInstanceOf(Error);
    expect(revived.failure).toMatchObject({
      name: 'TokenServiceError',
      message: 'Transfer failed',
      reason: 'reverted',
    });
    expect(revived.file).toBeInstanceOf(Blob);
    expect([revived.file.type, revived.file.size]).toEqual(['image/png', 3]);
    expect(revived.plain).toEqual({ $bigint: '1', other: true });
  });
});
