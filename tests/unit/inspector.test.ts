import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup, type InspectionEvent } from 'xstate';
import { combineInspectors, consentedInspector, deferredInspector } from '../../src/devtools/inspector.ts';
import { askToInspect, inspectConsent } from '../../src/devtools/inspect-consent.ts';
import { devtoolsEnabled, inspectRequested, queryFlag } from '../../src/devtools/panel/gate.ts';

// The `?inspect` / `?devtools` flags, and how several inspectors share the
// portal's one `inspect` option. The Stately SDK itself is never loaded here:
// it opens stately.ai.

const counter = setup({ types: {} as { context: { n: number }; events: { type: 'inc' } } }).createMachine({
  id: 'counter',
  context: { n: 0 },
  on: { inc: { actions: assign({ n: ({ context }) => context.n + 1 }) } },
});

const eventTypes = (events: InspectionEvent[]) =>
  events.flatMap((event) => (event.type === '@xstate.event' ? [event.event.type] : []));

describe('query flags', () => {
  it.each([
    ['?inspect', true],
    ['?inspect=1', true],
    ['?inspect=true', true],
    ['?tab=faq&inspect', true],
    ['?inspect=0', false],
    ['?inspect=false', false],
    ['', false],
    ['?inspector', false],
    ['?devtools', false],
  ])('inspect in %j: %s', (search, expected) => {
    expect(inspectRequested(search)).toBe(expected);
  });

  it('reads a flag by its exact name', () => {
    expect(queryFlag('?Inspect', 'inspect')).toBe(false);
    expect(queryFlag('?a=1&devtools=', 'devtools')).toBe(true);
  });

  it.each([
    ['', true, true],
    ['?devtools=0', true, true],
    ['', false, false],
    ['?devtools', false, true],
    ['?devtools=1', false, true],
    ['?devtool', false, false],
    ['?inspect', false, false],
    ['?devtools=false', false, false],
  ])('developer panel with %j (development build: %s): %s', (search, dev, expected) => {
    expect(devtoolsEnabled(search, dev)).toBe(expected);
  });
});

describe('?inspect in a production build', () => {
  /** A person answering the browser's question, who says `answer` and remembers what was asked. */
  const person = (answer: boolean) => {
    const asked: string[] = [];
    return { asked, confirm: (question: string) => (asked.push(question), answer) };
  };
  const event = (type: string) => ({ type: '@xstate.event', event: { type } }) as unknown as InspectionEvent;

  it('asks once, naming what leaves the page, where it goes and what is taken out', () => {
    const yes = person(true);
    expect(askToInspect(yes.confirm)).toBe(true);
    expect(yes.asked).toEqual([inspectConsent]);
    expect(inspectConsent).toMatch(/stately\.ai/);
    expect(inspectConsent).toMatch(/wallet address/);
    expect(inspectConsent).toMatch(/Passwords, private keys/);
    expect(askToInspect(person(false).confirm)).toBe(false);
  });

  it('streams nothing and loads nothing when the person says no', async () => {
    const load = vi.fn(async () => () => undefined);
    const inspector = consentedInspector(async () => false, load);
    inspector.inspect(event('before'));
    await inspector.ready;
    inspector.inspect(event('after'));
    expect(load).not.toHaveBeenCalled();
  });

  it('streams every event, those before the answer too, when the person says yes', async () => {
    const seen: string[] = [];
    const inspector = consentedInspector(
      async () => true,
      async () => (received: InspectionEvent) =>
        seen.push((received as { event: { type: string } }).event.type),
    );
    inspector.inspect(event('before'));
    await inspector.ready;
    inspector.inspect(event('after'));
    expect(seen).toEqual(['before', 'after']);
  });
});

describe('combineInspectors', () => {
  it('is undefined without any inspector, so createActor gets no inspect at all', () => {
    expect(combineInspectors()).toBeUndefined();
    expect(combineInspectors(null, undefined, false)).toBeUndefined();
  });

  it('hands every inspection event to every inspector, functions and observers alike, in order', () => {
    const seenByFunction: InspectionEvent[] = [];
    const seenByObserver: InspectionEvent[] = [];
    const inspect = combineInspectors((event) => seenByFunction.push(event), null, {
      next: (event) => seenByObserver.push(event),
    });
    const actor = createActor(counter, { inspect }).start();
    actor.send({ type: 'inc' });
    actor.send({ type: 'inc' });

    expect(actor.getSnapshot().context.n).toBe(2);
    expect(eventTypes(seenByFunction)).toEqual(['xstate.init', 'inc', 'inc']);
    expect(seenByObserver).toEqual(seenByFunction);
  });

  it('keeps going when one inspector throws', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: InspectionEvent[] = [];
    const inspect = combineInspectors(
      () => {
        throw new Error('broken inspector');
      },
      (event) => seen.push(event),
    );
    const actor = createActor(counter, { inspect }).start();
    actor.send({ type: 'inc' });
    expect(actor.getSnapshot().context.n).toBe(1);
    expect(eventTypes(seen)).toEqual(['xstate.init', 'inc']);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});

describe('deferredInspector', () => {
  it('buffers the events produced while the inspector loads, then delivers them in order', async () => {
    const seen: InspectionEvent[] = [];
    let resolve: (inspect: (event: InspectionEvent) => void) => void = () => undefined;
    const deferred = deferredInspector(() => new Promise((done) => (resolve = done)));
    const actor = createActor(counter, { inspect: deferred.inspect }).start();
    actor.send({ type: 'inc' });
    expect(seen).toEqual([]);

    resolve((event) => seen.push(event));
    await deferred.ready;
    expect(eventTypes(seen)).toEqual(['xstate.init', 'inc']);
    actor.send({ type: 'inc' });
    expect(eventTypes(seen)).toEqual(['xstate.init', 'inc', 'inc']);
  });

  it('keeps only the newest events while loading, up to its limit', async () => {
    const seen: InspectionEvent[] = [];
    let resolve: (inspect: (event: InspectionEvent) => void) => void = () => undefined;
    const deferred = deferredInspector(() => new Promise((done) => (resolve = done)), 2);
    const actor = createActor(counter, { inspect: deferred.inspect }).start();
    for (let i = 0; i < 5; i += 1) actor.send({ type: 'inc' });
    resolve((event) => seen.push(event));
    await deferred.ready;
    expect(seen).toHaveLength(2);
    const last = seen.at(-1);
    expect(last?.type === '@xstate.snapshot' && last.snapshot).toMatchObject({ context: { n: 5 } });
  });

  it('drops the buffer and reports when the inspector cannot load (e.g. offline)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const deferred = deferredInspector(() => Promise.reject(new Error('offline')));
    const actor = createActor(counter, { inspect: deferred.inspect }).start();
    await deferred.ready;
    actor.send({ type: 'inc' });
    expect(actor.getSnapshot().context.n).toBe(1);
    expect(error).toHaveBeenCalledWith('[inspect] the inspector could not be loaded:', expect.any(Error));
    error.mockRestore();
  });
});
