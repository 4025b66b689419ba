import { afterAll, describe, expect, inject, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type {
  AnyEventObject,
  AnyStateMachine,
  AnyStateNode,
  ContextFrom,
  EventObject,
  InputFrom,
  SnapshotFrom,
} from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { deferredActor, settle, takeCall, type Call } from '../../support/deferred-actor.ts';
import { CoverageRecorder, writeCoverage } from './coverage.ts';
import { createModel, defaultSerializeState, generatePaths, stableJson } from './paths.ts';
import type { ModelPath, Snapshot } from './paths.ts';

// describeModel: generated paths for one machine, run against a real actor.
// See README.md in this folder for the why and the how.

type DelayFn<TMachine extends AnyStateMachine> = (args: {
  context: ContextFrom<TMachine>;
  event: EventObject;
}) => number;

export type ModelSpec<TMachine extends AnyStateMachine> = {
  /** The machine's name in the coverage table. */
  name: string;
  /** The bare machine from src/machines. */
  machine: TMachine;
  /** Invoke ids (or srcs) whose completion the paths decide through `xstate.done/error.actor.<id>` events. */
  deferredActors?: readonly string[];
  /** Extra implementations (recorders for showToast/report, callback actors, guards). */
  provide?: Parameters<TMachine['provide']>[0];
  input?: InputFrom<TMachine>;
  /** Payloads per event type; every payload is one edge of the graph. Bare `{ type }` otherwise. */
  events?: Record<string, readonly AnyEventObject[]>;
  /** Assertions per state (dot path or `#id`, as `snapshot.matches`), run on the real actor after each step. */
  states?: Record<string, (snapshot: SnapshotFrom<TMachine>) => void | Promise<void>>;
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

/** Maps the listed names to the invoke ids the events use and the actor srcs to replace. */
function resolveDeferred(machine: AnyStateMachine, names: readonly string[]) {
  const invokes = [machine.root, ...getStateNodes(machine.root)].flatMap((node: AnyStateNode) => node.invoke);
  const ids = new Set<string>();
  const srcs = new Set<string>();
  for (const name of names) {
    const matching = invokes.filter((invoke) => invoke.id === name || invoke.src === name);
    if (matching.length === 0 && !(name in machine.implementations.actors)) {
      throw new Error(
        `${machine.id}: deferredActors lists '${name}', which is no invoke id or actor of the machine`,
      );
    }
    if (matching.length === 0) srcs.add(name);
    for (const invoke of matching) {
      ids.add(invoke.id);
      if (typeof invoke.src === 'string') srcs.add(invoke.src);
    }
  }
  return { ids, srcs };
}

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
  const machine: AnyStateMachine = spec.provide ? spec.machine.provide(spec.provide) : spec.machine;
  const deferred = resolveDeferred(machine, spec.deferredActors ?? []);
  const serializeState = (spec.serializeState ?? defaultSerializeState) as (snapshot: Snapshot) => string;
  const pathOptions = {
    events: spec.events ?? {},
    input: spec.input,
    serializeState,
    simplePaths: spec.simplePaths ?? false,
    maxPaths: spec.maxPaths ?? 100,
    limit: spec.limit ?? 20_000,
  };
  const paths = generatePaths(machine, pathOptions);
  const model = createModel(machine, pathOptions);

  async function runPath(path: ModelPath, recorder: CoverageRecorder): Promise<void> {
    const clock = new SimulatedClock();
    const pending: Call<unknown>[] = [];
    const actors = Object.fromEntries(
      [...deferred.srcs].map((src) => [src, deferredActor<unknown, unknown>(pending)]),
    );
    const running = machine.provide({ actors });
    const actor = createActor(running, { input: spec.input, clock, inspect: recorder.inspect });
    // An actor in error status is reported by the step check below, not as an unhandled error.
    actor.subscribe({ error: () => {} });
    let lastEvent: EventObject = { type: 'xstate.init' };

    function delayOf(type: string): number {
      const name = type.split('.')[2] ?? '';
      if (name !== '' && !Number.isNaN(Number(name))) return Number(name);
      const configured: unknown = spec.delays?.[name] ?? running.implementations.delays[name];
      const { context } = actor.getSnapshot();
      const ms =
        typeof configured === 'function'
          ? configured({ context, event: lastEvent, self: actor, system: actor.system })
          : configured;
      if (typeof ms !== 'number')
        throw new Error(`${spec.name}: no length for delay '${name}'; add it to the delays option`);
      return ms;
    }

    async function drive(event: EventObject & { output?: unknown; error?: unknown }): Promise<void> {
      const actorEvent = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
      const id = actorEvent?.[2];
      if (event.type === 'xstate.init') return;
      if (id !== undefined && deferred.ids.has(id)) {
        const settler = takeCall(pending, id);
        if (!settler)
          throw new Error(`${spec.name}: the path completes '${id}', but no such actor is running`);
        if (actorEvent?.[1] === 'done') settler.resolve(event.output);
        else settler.reject(event.error);
      } else if (event.type.startsWith('xstate.after.')) {
        clock.increment(delayOf(event.type));
      } else {
        // User events, and completion events of actors the test provides itself.
        actor.send(event);
      }
      lastEvent = event;
      await settle();
    }

    const eventTypes = new Set(path.steps.map((step) => step.event.type));
    const executors = Object.fromEntries(
      [...eventTypes].map((type) => [type, ({ event }: { event: EventObject }) => drive(event)]),
    );
    const userStates = (spec.states ?? {}) as Record<string, (snapshot: Snapshot) => void | Promise<void>>;
    const checks: Record<string, (modelState: Snapshot) => Promise<void>> = {
      '*': async (modelState) => {
        const snapshot = actor.getSnapshot();
        expect(snapshot.status, `the actor failed: ${String(snapshot.error)}`).not.toBe('error');
        expect(snapshot.value, 'the actor is not in the state the model predicts').toEqual(modelState.value);
        await userStates['*']?.(snapshot);
      },
    };
    for (const [key, assertion] of Object.entries(userStates)) {
      if (key !== '*') checks[key] = async () => assertion(actor.getSnapshot());
    }

    actor.start();
    try {
      await model.testPath(path, { events: executors, states: checks });
    } finally {
      actor.stop();
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
