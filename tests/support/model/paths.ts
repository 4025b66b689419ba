import { createActor, fromTransition } from 'xstate';
import type { ActorScope, AnyMachineSnapshot, AnyStateMachine, EventObject, InspectionEvent } from 'xstate';
import { TestModel } from 'xstate/graph';
import type { AdjacencyMap, StatePath, Step } from 'xstate/graph';
import { activeStateIds, activeStateNodes, microstepCoverage } from './coverage.ts';

// Path generation. xstate/graph's shortest paths reach every *snapshot* once,
// but a snapshot usually has several ways out, so they miss transitions. On
// top of them we add a transition-coverage generator: for every edge of the
// graph (snapshot + event), compute which declared transitions it takes; then,
// nearest first, keep "shortest path to the edge's source + that event"
// whenever it takes a transition (or enters a state node) no kept path takes
// yet. Paths that are a prefix of another are dropped. Optionally the simple
// paths of xstate/graph are added too, up to a cap.

export type Snapshot = AnyMachineSnapshot;
export type ModelPath = StatePath<Snapshot, EventObject>;

export type PathOptions = {
  /** Event payloads per event type (the helper's `events` option). */
  events: Record<string, readonly EventObject[]>;
  input: unknown;
  /** Identifies a snapshot; two snapshots with the same string are one vertex of the graph. */
  serializeState: (snapshot: Snapshot) => string;
  simplePaths: boolean;
  maxPaths: number;
  /** Maximum number of edges explored before giving up (an infinite state space). */
  limit: number;
  /** Leaves an event out of the graph (the UI-driven paths leave out events the page cannot cause). */
  exclude?: (event: EventObject, snapshot: Snapshot) => boolean;
};

/** JSON that keeps what plain JSON loses: Error messages (so two errors differ) and bigints. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (v instanceof Error) return { ...v, error: v.name, message: v.message };
    return v;
  });
}

export function defaultSerializeState(snapshot: Snapshot): string {
  return stableJson({ value: snapshot.value, context: snapshot.context, children: childIds(snapshot) });
}

/** The ids of the running children: a child spawned on an event makes a vertex of its own. */
export function childIds(snapshot: Snapshot): string[] {
  return Object.keys(snapshot.children as Record<string, unknown>).sort();
}

function matchesDescriptor(type: string, descriptor: string): boolean {
  if (descriptor === '*' || descriptor === type) return true;
  return descriptor.endsWith('.*') && type.startsWith(descriptor.slice(0, -1));
}

/**
 * `xstate.done.state.<id>`: XState raises it itself, in the same macrostep, once every region of a
 * parallel state (or the child of a compound one) is final; it is never sent from outside, and
 * sending it would fake a completion the chart has not reached. The graph reaches `onDone` through
 * the step that enters the last final state, which also covers the `onDone` transition.
 */
function raisedInternally(descriptor: string): boolean {
  return descriptor.startsWith('xstate.done.state.');
}

/** The events a snapshot can take: its own event types, with the given payloads or a bare `{ type }`. */
function eventsFor(events: PathOptions['events'], exclude: PathOptions['exclude'] = () => false) {
  const raised = Object.keys(events).filter(raisedInternally);
  if (raised.length > 0)
    throw new Error(
      `events lists ${raised.join(', ')}: XState raises these once the final states are reached; remove them`,
    );
  const supplied = Object.values(events).flat();
  return (snapshot: Snapshot): EventObject[] => {
    const own = [snapshot.machine.root, ...activeStateNodes(snapshot)].flatMap((node) => node.ownEvents);
    const descriptors = [...new Set(own)].filter((descriptor) => !raisedInternally(descriptor));
    return descriptors
      .flatMap((descriptor) => {
        if (descriptor.includes('*'))
          return supplied.filter((event) => matchesDescriptor(event.type, descriptor));
        return events[descriptor]?.length ? [...events[descriptor]] : [{ type: descriptor }];
      })
      .filter((event) => !exclude(event, snapshot) && !fromAbsentActor(event, snapshot));
  };
}

/**
 * An actor's done or error event while no child of that id runs: it cannot happen. A state that
 * handles them for a child it spawns only on some event (the swap form's refresh on a new block)
 * would otherwise be offered them before the spawn.
 */
function fromAbsentActor(event: EventObject, snapshot: Snapshot): boolean {
  const id = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(event.type)?.[1];
  return id !== undefined && !(id in (snapshot.children as Record<string, unknown>));
}

/** The logic of an actor that does nothing (xstate's `createEmptyActor`). */
const nothing = fromTransition((state: undefined) => state, undefined);

/**
 * An actor scope like the one xstate/graph uses for its pure traversal (nothing runs), on a system of
 * its own, with an optional inspector to see the transitions taken. Its actor has a parent, as the
 * machines run under one: a `sendParent` finds its target (and, as every action here, does nothing).
 */
function pureScope(onEvent?: (event: InspectionEvent) => void): ActorScope<Snapshot, EventObject> {
  const empty = createActor(nothing, { parent: createActor(nothing) });
  if (onEvent) empty.system.inspect(onEvent);
  return {
    self: empty,
    logger: () => {},
    id: '',
    sessionId: 'model-paths',
    defer: () => {},
    system: empty.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as ActorScope<Snapshot, EventObject>;
}

/** What taking `event` in `snapshot` covers: the transitions (incl. eventless follow-ups) and the states entered. */
export function coverageOfEdge(machine: AnyStateMachine, snapshot: Snapshot, event: EventObject): string[] {
  const keys: string[] = [];
  const scope = pureScope((inspection) => {
    if (inspection.type !== '@xstate.microstep') return;
    const { states, transitions } = microstepCoverage(inspection);
    keys.push(...transitions, ...states.map((id) => `state ${id}`));
  });
  machine.transition(snapshot, event, scope);
  return keys;
}

/** What starting the machine covers: the initial states and the eventless transitions taken on the way. */
export function coverageOfStart(machine: AnyStateMachine, input: unknown): string[] {
  const keys: string[] = [];
  const scope = pureScope((inspection) => {
    if (inspection.type !== '@xstate.microstep') return;
    const { states, transitions } = microstepCoverage(inspection);
    keys.push(...transitions, ...states.map((id) => `state ${id}`));
  });
  const initial = machine.getInitialSnapshot(scope, input);
  return [...keys, ...activeStateIds(initial).map((id) => `state ${id}`)];
}

function eventSequence(path: ModelPath): string {
  return path.steps.map((step) => stableJson(step.event)).join('\n');
}

/** Drops every path whose events are a prefix of another path's (the longer one runs the same steps). */
function withoutPrefixes(paths: ModelPath[]): ModelPath[] {
  const sequences = paths.map(eventSequence);
  return paths.filter((_, index) => {
    const mine = sequences[index] ?? '';
    return sequences.every((other, at) => !(other.startsWith(`${mine}\n`) || (other === mine && at < index)));
  });
}

function isIn(snapshot: Snapshot, id: string): boolean {
  return id === snapshot.machine.root.id || activeStateIds(snapshot).includes(id);
}

/**
 * The machine as the graph explores it: every step on a system of its own. xstate/graph keeps one
 * system for the whole traversal, and a system refuses a second actor with the same `systemId`, so
 * a child invoked with a system id in a state that several branches enter (the root's
 * session-scoped children) would stop the exploration at the second branch.
 */
function explorable(machine: AnyStateMachine): AnyStateMachine {
  return Object.create(machine, {
    transition: {
      value: (snapshot: Snapshot, event: EventObject) => machine.transition(snapshot, event, pureScope()),
    },
    getInitialSnapshot: {
      value: (_scope: unknown, input: unknown) => machine.getInitialSnapshot(pureScope(), input),
    },
  }) as AnyStateMachine;
}

export function createModel(machine: AnyStateMachine, options: PathOptions) {
  return new TestModel<Snapshot, EventObject, unknown>(explorable(machine), {
    events: eventsFor(options.events, options.exclude),
    serializeState: (snapshot) => options.serializeState(snapshot),
    serializeEvent: (event) => stableJson(event),
    input: options.input,
    limit: options.limit,
    // Which `states` assertions run on a step: '*' always, others as `snapshot.matches` (or `#id`).
    stateMatcher: (snapshot, key) =>
      key === '*' || (key.startsWith('#') ? isIn(snapshot, key.slice(1)) : snapshot.matches(key)),
  });
}

export function generatePaths(machine: AnyStateMachine, options: PathOptions): ModelPath[] {
  const model = createModel(machine, options);
  let adjacency: AdjacencyMap<Snapshot, EventObject>;
  try {
    adjacency = model.getAdjacencyMap();
  } catch (error) {
    throw new Error(
      `${machine.id}: the graph has more than ${options.limit} edges; supply fewer payloads, a coarser ` +
        `serializeState, or a higher limit`,
      { cause: error },
    );
  }

  // Shortest path (in xstate/graph's step form: first step `xstate.init`) to every snapshot.
  const shortest = new Map<string, ModelPath>();
  for (const path of model.getShortestPaths({ allowDuplicatePaths: true })) {
    shortest.set(options.serializeState(path.state), path);
  }

  const initial = shortest.values().next().value;
  const covered = new Set<string>(initial ? activeStateIds(initial.state).map((id) => `state ${id}`) : []);
  const chosen: ModelPath[] = initial ? [initial] : [];
  const edges = Object.entries(adjacency)
    .flatMap(([from, vertex]) => {
      const out = Object.values(vertex.transitions) as { event: EventObject; state: Snapshot }[];
      return out.map((edge) => ({ from, ...edge }));
    })
    .map((edge) => ({ ...edge, head: shortest.get(edge.from) }))
    .filter((edge): edge is typeof edge & { head: ModelPath } => edge.head !== undefined)
    .sort((a, b) => a.head.steps.length - b.head.steps.length);

  for (const edge of edges) {
    const fresh = coverageOfEdge(machine, edge.head.state, edge.event).filter((key) => !covered.has(key));
    if (fresh.length === 0) continue;
    fresh.forEach((key) => covered.add(key));
    const last: Step<Snapshot, EventObject> = { state: edge.state, event: edge.event };
    chosen.push({ state: edge.state, steps: [...edge.head.steps, last], weight: edge.head.weight + 1 });
  }

  let paths = withoutPrefixes(chosen);
  if (options.simplePaths) {
    const room = Math.max(0, options.maxPaths - paths.length);
    paths = withoutPrefixes([...paths, ...model.getSimplePaths().slice(0, room)]);
  }
  return paths;
}
