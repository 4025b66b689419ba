import { getStateNodes } from 'xstate';
import type {
  AnyMachineSnapshot,
  AnyStateNode,
  AnyTransitionDefinition,
  InspectedMicrostepEvent,
} from 'xstate';

// How a transition and a state are named, so that the generated-path coverage
// (tests/support/model/coverage.ts) and the developer panel's "this session"
// overlay say the same thing about the same arrow of a diagram.
//
// A transition is named by where it is declared, not by object identity, so a
// machine after `.provide()` (new state node objects, same ids) names its
// transitions the same way:  `<source id> --<event>#<index>--> <target ids>`,
// where index is its position among the source's transitions for that event
// (guarded alternatives) and `always` stands for eventless transitions.

export function transitionKey(transition: AnyTransitionDefinition): string {
  const source = transition.source;
  const siblings = transition.eventType === '' ? source.always : source.transitions.get(transition.eventType);
  const index = siblings?.indexOf(transition) ?? -1;
  const targets = transition.target?.map((node) => node.id).join(', ') ?? '(stays)';
  return `${source.id} --${transition.eventType || 'always'}#${index}--> ${targets}`;
}

/**
 * The state nodes a snapshot is in, read from its state value, in document order; the root is
 * left out (it is always in).
 */
export function activeStateNodes(snapshot: AnyMachineSnapshot): AnyStateNode[] {
  const { root } = snapshot.machine;
  // XState's walk repeats the root and the parents of parallel regions.
  return [...new Set(getStateNodes(root, snapshot.value))]
    .filter((node) => node !== root)
    .sort((a, b) => a.order - b.order);
}

export function activeStateIds(snapshot: AnyMachineSnapshot): string[] {
  return activeStateNodes(snapshot).map((node) => node.id);
}

/**
 * What one microstep covers: its transitions, the states it leaves in place or
 * enters, and the transitions' sources with their ancestors (they were active,
 * even a transient state that is never seen in a snapshot at rest).
 */
export function microstepCoverage(event: InspectedMicrostepEvent): {
  states: string[];
  transitions: string[];
} {
  const snapshot = event.snapshot as AnyMachineSnapshot;
  const rootId = snapshot.machine.root.id;
  const states = new Set(activeStateIds(snapshot));
  const taken = transitionsTaken(event);
  for (const transition of taken) {
    for (
      let node: AnyStateNode | undefined = transition.source;
      node && node.id !== rootId;
      node = node.parent
    ) {
      states.add(node.id);
    }
  }
  return { states: [...states], transitions: taken.map(transitionKey) };
}

/**
 * The transitions a microstep took. XState 5 reports them only on this field of its exported
 * `InspectedMicrostepEvent` type; recomputing them from the snapshots would mean evaluating
 * `always` guards, for which it has no public function.
 */
function transitionsTaken(event: InspectedMicrostepEvent): readonly AnyTransitionDefinition[] {
  return event._transitions;
}

/** Where a transition is drawn: Mermaid's edge number and the line of that edge's label. */
export type DrawnAt = { edge: number; line: number };

/**
 * Transition key → where the diagram draws it, from the edges of scripts/machine-diagram.ts
 * (`machineDiagramParts`): one label line per transition and target, so a transition with two
 * targets is drawn twice.
 */
export function drawnTransitions(
  edges: readonly { edge: number; transitions: readonly AnyTransitionDefinition[] }[],
): Record<string, DrawnAt[]> {
  const drawn: Record<string, DrawnAt[]> = {};
  for (const { edge, transitions } of edges) {
    transitions.forEach((transition, line) => {
      (drawn[transitionKey(transition)] ??= []).push({ edge, line });
    });
  }
  return drawn;
}
