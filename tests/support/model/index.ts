import { afterAll, describe, expect, inject, it } from 'vitest';
import type {
  AnyActorLogic,
  AnyActorRef,
  AnyEventObject,
  AnyMachineSnapshot,
  AnyStateMachine,
  ContextFrom,
  EventObject,
  InputFrom,
  SnapshotFrom,
} from 'xstate';
import { deferredActor, settle, type Call } from '../deferred-actor.ts';
import { machineHarness } from '../machines/harness.ts';
import { CoverageRecorder, writeCoverage } from './coverage.ts';
import { createModel, defaultSerializeState, generatePaths, stableJson } from './paths.ts';
import type { ModelPath, Snapshot } from './paths.ts';
import { stepReader, type ModelStep } from './step.ts';

export type { EventAssertion, ModelStep, Recorded } from './step.ts';

// describeModel: generated paths for one machine, each run on a machineHarness
// (tests/support/machines/harness.ts). See README.md in this folder for the why and the how.

type DelayFn<TMachine extends AnyStateMachine> = (args: {
  context: ContextFrom<TMachine>;
  event: EventObject;
}) => number;

/** An assertion on the snapshot a step reached, with what the step did (`step.toasts`, …). */
export type StateAssertion<TMachine extends AnyStateMachine> = (
  snapshot: SnapshotFrom<TMachine>,
  step: ModelStep<TMachine>,
) => void | Promise<void>;

type Implementations<TMachine extends AnyStateMachine> = Parameters<TMachine['provide']>[0];

export type ModelSpec<TMachine extends AnyStateMachine> = {
  /** The machine's name in the coverage table. */
  name: string;
  /** The bare machine from src/machines. */
  machine: TMachine;
  input?: InputFrom<TMachine>;
  /**
   * Callback actors (the harness's `callbacks`): the paths send their events themselves; a test
   * reads what the machine sent them as `step.harness.callback(name)`.
   */
  callbacks?: readonly string[];
  /**
   * Child machines that stand in as promises the paths settle (`xstate.done.actor.<id>` /
   * `xstate.error.actor.<id>`), when their own charts are modelled on their own. Every other
   * actor the machine invokes already is one (the harness's stand-ins), down through its children.
   */
  promises?: readonly string[];
  /** Actors run as given (the harness's `actors`): recorders for children the machine only talks to. */
  actors?: Record<string, AnyActorLogic>;
  /** Run the machine as the portal's root itself (the harness's `asRoot`). */
  asRoot?: boolean;
  /** Other implementations (guards, delays, actions): applied before the harness; no actors. */
  provide?: Omit<Implementations<TMachine>, 'actors'>;
  /** Payloads per event type; every payload is one edge of the graph. Bare `{ type }` otherwise. */
  events?: Record<string, readonly AnyEventObject[]>;
  /** Events this model does not send (another model of the same machine covers them). */
  exclude?: (event: AnyEventObject) => boolean;
  /**
   * Assertions per state (dot path or `#id`, as `snapshot.matches`; `'*'` on every step, first),
   * run on the real actor after each step with what the step did.
   */
  states?: Record<string, StateAssertion<TMachine>>;
  /** Delay lengths for `xstate.after.<delay>.*` steps; default: the machine's own `delays`. */
  delays?: Record<string, number | DelayFn<TMachine>>;
  // Optional, for machines whose graph is large:
  /** What makes two snapshots the same vertex; default value + context. */
  serializeState?: (snapshot: SnapshotFrom<TMachine>) => string;
  /** Also run xstate/graph's simple paths (every cycle-free path), up to maxPaths in all. */
  simplePaths?: boolean;
  /** Cap on the total when simplePaths is on (default 100); coverage paths are never dropped. */
  maxPaths?: number;
  /** Give up exploring after this many edges (default 20000). */
  limit?: number;
};

/** `event.type`, plus its payload (shortened) when the test supplies several payloads for that type. */
function formatEvent(event: EventObject, events: ModelSpec<AnyStateMachine>['events']): string {
  if ((events?.[event.type]?.length ?? 0) < 2) return event.type;
  const { type, ...payload } = event;
  const text = stableJson(payload);
  return `${type} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

function describePath(path: ModelPath, events: ModelSpec<AnyStateMachine>['events']): string {
  const steps = path.steps.filter((step) => step.event.type !== 'xstate.init');
  const names = steps.map((step) => formatEvent(step.event, events));
  return `${names.length ? names.join(' → ') : '(initial)'} ⇒ ${stableJson(path.state.value)}`;
}

export function describeModel<TMachine extends AnyStateMachine>(spec: ModelSpec<TMachine>): void {
  const provided = (spec.provide ? spec.machine.provide(spec.provide) : spec.machine) as TMachine;
  // The graph is explored with the actors the run gives as they are (nothing runs while exploring).
  const machine = spec.actors ? provided.provide({ actors: spec.actors }) : provided;
  const serializeState = (spec.serializeState ?? defaultSerializeState) as (snapshot: Snapshot) => string;
  const pathOptions = {
    events: spec.events ?? {},
    ...(spec.exclude ? { exclude: spec.exclude } : {}),
    input: spec.input,
    serializeState,
    simplePaths: spec.simplePaths ?? false,
    maxPaths: spec.maxPaths ?? 100,
    limit: spec.limit ?? 20_000,
  };
  const paths = generatePaths(machine, pathOptions);
  const model = createModel(machine, pathOptions);

  async function runPath(path: ModelPath, recorder: CoverageRecorder): Promise<void> {
    // The child machines that stand in as promises; every other promise actor is the harness's.
    const promised = new Map<string, Call<unknown>[]>();
    for (const name of spec.promises ?? []) {
      if (!(name in provided.implementations.actors))
        throw new Error(`${spec.name}: promises lists '${name}', which is no actor of the machine`);
      promised.set(name, []);
    }
    const h = machineHarness(provided, {
      input: spec.input,
      actors: {
        ...spec.actors,
        ...Object.fromEntries([...promised].map(([name, calls]) => [name, deferredActor(calls)])),
      },
      callbacks: [...(spec.callbacks ?? [])],
      asRoot: spec.asRoot,
    });
    const actor = h.actor as AnyActorRef;
    // An actor in error status is reported by the step check below, not as an unhandled error.
    actor.subscribe({ error: () => {} });
    const nextStep = stepReader(h, spec.asRoot ?? false);
    const settled = new WeakSet<Call<unknown>>();
    let lastEvent: EventObject = { type: 'xstate.init' };
    let before: SnapshotFrom<TMachine> | undefined;

    function delayOf(type: string): number {
      const name = type.split('.')[2] ?? '';
      if (name !== '' && !Number.isNaN(Number(name))) return Number(name);
      const configured: unknown = spec.delays?.[name] ?? provided.implementations.delays[name];
      const { context } = h.snapshot();
      const ms =
        typeof configured === 'function'
          ? configured({ context, event: lastEvent, self: actor, system: actor.system })
          : configured;
      if (typeof ms !== 'number')
        throw new Error(`${spec.name}: no length for delay '${name}'; add it to the delays option`);
      return ms;
    }

    /** The recorded calls of the promise stand-in `src`, if it is one (not a callback or a given actor). */
    function callsOf(src: unknown): Call<unknown>[] | undefined {
      if (typeof src !== 'string') return undefined;
      if (promised.has(src)) return promised.get(src);
      try {
        return h.calls(src);
      } catch {
        return undefined;
      }
    }

    /** The path ends the running child `id`: a stand-in's call settles, anything else hears the event. */
    function complete(id: string, done: boolean, event: EventObject & { output?: unknown; error?: unknown }) {
      const child = ((h.snapshot() as Snapshot).children as Record<string, AnyActorRef | undefined>)[id];
      if (!child) throw new Error(`${spec.name}: the path completes '${id}', but no such actor is running`);
      const calls = callsOf(child.src);
      if (!calls) return void h.send(event);
      // The latest call of that id is the one running: an invocation started again replaces it.
      const call = calls.findLast((candidate) => candidate.id === id);
      if (!call || settled.has(call))
        throw new Error(`${spec.name}: the path completes '${id}', but its call has already ended`);
      settled.add(call);
      if (done) call.resolve(event.output);
      else call.reject(event.error);
    }

    async function drive(event: EventObject & { output?: unknown; error?: unknown }): Promise<void> {
      if (event.type === 'xstate.init') return;
      const completion = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
      if (completion) complete(completion[2] ?? '', completion[1] === 'done', event);
      else if (event.type.startsWith('xstate.after.')) h.clock.increment(delayOf(event.type));
      // User events, and facts a parent or a child would send.
      else h.send(event);
      lastEvent = event;
      await settle();
    }

    const eventTypes = new Set(path.steps.map((step) => step.event.type));
    const executors = Object.fromEntries(
      [...eventTypes].map((type) => [type, ({ event }: { event: EventObject }) => drive(event)]),
    );
    const userStates = spec.states ?? {};
    let step: ModelStep<TMachine> | undefined;
    const checks: Record<string, (modelState: Snapshot) => Promise<void>> = {
      // Runs first on every step: it reads what the step did, for every assertion of the step.
      '*': async (modelState) => {
        const snapshot = h.snapshot();
        const { status, error, value } = snapshot as Snapshot;
        step = nextStep(before);
        before = snapshot;
        expect(status, `the actor failed: ${String(error)}`).not.toBe('error');
        expect(value, 'the actor is not in the state the model predicts').toEqual(modelState.value);
        await userStates['*']?.(snapshot, step);
      },
    };
    for (const [key, assertion] of Object.entries(userStates)) {
      if (key !== '*') checks[key] = async () => assertion(h.snapshot(), step as ModelStep<TMachine>);
    }

    try {
      await model.testPath(path, { events: executors, states: checks });
    } finally {
      h.stop();
      // Coverage: what the machine under test took (its microsteps and snapshots), not its root's.
      for (const inspection of h.inspected) if (inspection.actorRef === actor) recorder.record(inspection);
    }
  }

  const from = spec.input === undefined ? '' : ` from ${stableJson(spec.input)}`;
  describe(`${spec.name} model${from}`, () => {
    const recorder = new CoverageRecorder();
    afterAll(() => {
      const dir = inject('modelPathsDir');
      if (dir) writeCoverage(dir, spec.name, spec.machine, paths.length, recorder);
    });
    for (const [index, path] of paths.entries()) {
      const title = `path ${index + 1}: ${describePath(path, spec.events)}`;
      // The report lists the paths of every input of a machine together: say which input.
      const detail = from === '' ? title : `${title} (${from.trim()})`;
      it(title, () => {
        recorder.beginPath(detail);
        return runPath(path, recorder);
      });
    }
  });
}

/** `matches` for a dotted state path, as the model's `states` keys name states. */
export const inState = (snapshot: AnyMachineSnapshot, path: string): boolean => snapshot.matches(path);
