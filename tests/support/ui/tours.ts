import type { AnyStateMachine, EventObject } from 'xstate';
import type { AdjacencyMap, Step } from 'xstate/graph';
import {
  coverageOfEdge,
  coverageOfStart,
  createModel,
  type ModelPath,
  type PathOptions,
  type Snapshot,
} from '../model/paths.ts';

// Tours: paths that go on from where the last step left the page. The generated paths each start a
// new page at the initial state, and opening one costs far more than a step. A tour covers the same
// states and transitions as the paths it replaces, but walks on from each step to the nearest
// transition none has taken yet, and starts a new page only when none is reachable from where it
// stands (or when it has grown to `maxSteps`, so a failure still says where it happened).

type Edge = { event: EventObject; from: string; to: string; state: Snapshot; keys: string[] };

/** What the paths cover, state keys and transition keys as `coverageOfEdge` names them. */
export function coverageOfPaths(
  machine: AnyStateMachine,
  input: unknown,
  paths: readonly ModelPath[],
): Set<string> {
  const keys = new Set<string>(coverageOfStart(machine, input));
  for (const path of paths) {
    const [first, ...steps] = path.steps;
    if (!first) continue;
    let from = first.state;
    for (const step of steps) {
      for (const key of coverageOfEdge(machine, from, step.event)) keys.add(key);
      from = step.state;
    }
  }
  return keys;
}

export function generateTours(
  machine: AnyStateMachine,
  options: PathOptions,
  toCover: Set<string>,
  maxSteps = 30,
): ModelPath[] {
  const model = createModel(machine, options);
  const adjacency: AdjacencyMap<Snapshot, EventObject> = model.getAdjacencyMap();
  const key = (snapshot: Snapshot) => options.serializeState(snapshot);

  const out = new Map<string, Edge[]>();
  let initial: Snapshot | undefined;
  for (const [from, vertex] of Object.entries(adjacency)) {
    initial ??= vertex.state;
    const edges = (Object.values(vertex.transitions) as { event: EventObject; state: Snapshot }[]).map(
      (edge) => ({
        event: edge.event,
        from,
        to: key(edge.state),
        state: edge.state,
        keys: coverageOfEdge(machine, vertex.state, edge.event).filter((item) => toCover.has(item)),
      }),
    );
    out.set(from, edges);
  }
  if (!initial) return [];
  const start: Snapshot = initial;
  const uncovered = new Set(toCover);
  for (const item of coverageOfStart(machine, options.input)) uncovered.delete(item);

  /** The nearest edge with something left to cover, and the edges that lead to it from `from`. */
  const nearest = (from: string): Edge[] | null => {
    const cameBy = new Map<string, Edge | null>([[from, null]]);
    const queue = [from];
    for (let index = 0; index < queue.length; index += 1) {
      const vertex = queue[index] ?? '';
      for (const edge of out.get(vertex) ?? []) {
        if (edge.keys.some((item) => uncovered.has(item))) {
          const route = [edge];
          for (let back = cameBy.get(vertex); back; back = cameBy.get(back.from)) route.unshift(back);
          return route;
        }
        if (!cameBy.has(edge.to)) {
          cameBy.set(edge.to, edge);
          queue.push(edge.to);
        }
      }
    }
    return null;
  };

  const tours: ModelPath[] = [];
  while (uncovered.size > 0) {
    const steps: Step<Snapshot, EventObject>[] = [{ state: start, event: { type: 'xstate.init' } }];
    let at = key(start);
    let state = start;
    for (let route = nearest(at); route && steps.length <= maxSteps; route = nearest(at)) {
      for (const edge of route) {
        steps.push({ state: edge.state, event: edge.event });
        for (const item of edge.keys) uncovered.delete(item);
        at = edge.to;
        state = edge.state;
      }
    }
    // Nothing left is reachable from the start: what remains is what the paths could not reach either.
    if (steps.length === 1) break;
    tours.push({ state, steps, weight: steps.length - 1 });
  }
  return tours;
}
