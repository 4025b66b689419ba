import type { AnyStateMachine, AnyStateNode, StateValue } from 'xstate';
import { machineDiagram, machineDiagramParts, nodeId } from '../../../scripts/machine-diagram.ts';
import type { Taken } from '../session-transitions.ts';
import { drawnTransitions, type DrawnAt } from '../transition-keys.ts';

// The panel's diagram: the same Mermaid source the docs are generated from
// (scripts/machine-diagram.ts, built from the machine's own definition with
// xstate/graph), plus the lines that highlight the states the machine is in.
// Only the panel's lazy chunk imports this, so the generator never reaches
// the visitors' bundle.

export { machineDiagram, nodeId };

/** The state nodes active in `value`: every compound state on the way and each leaf. */
export function activeStateNodes(machine: AnyStateMachine, value: StateValue): AnyStateNode[] {
  const active: AnyStateNode[] = [];
  const walk = (node: AnyStateNode, current: StateValue) => {
    if (typeof current === 'string') {
      const child = node.states[current];
      if (child) active.push(child);
      return;
    }
    for (const [key, inner] of Object.entries(current)) {
      const child = node.states[key];
      if (!child) continue;
      active.push(child);
      if (inner !== undefined) walk(child, inner);
    }
  };
  walk(machine.root, value);
  return active;
}

export const ACTIVE_CLASS = 'active';
/** Compound states on the way to an active leaf: outlined only, so the leaf stands out. */
export const ACTIVE_PARENT_CLASS = 'activeParent';

/** States the session has been in (the overlay): filled green; the boxes around children outlined. */
export const TAKEN_CLASS = 'taken';
export const TAKEN_PARENT_CLASS = 'takenParent';

const isBox = (node: AnyStateNode) => Object.keys(node.states).length > 0;

/**
 * The machine's diagram with `classDef active` and `class … active` lines for its active states,
 * and, with the overlay on, `taken` lines for the states the session has been in. A state that is
 * both gets both classes; Mermaid writes their styles in the order of the `class` lines, so the
 * active one, written last, wins.
 */
export function highlightedDiagram(machine: AnyStateMachine, value: StateValue, taken?: Taken): string {
  const active = activeStateNodes(machine, value);
  const lines = [
    machineDiagram(machine).trimEnd(),
    `  classDef ${ACTIVE_CLASS} fill:#fde68a,stroke:#b45309,stroke-width:3px,color:#141824,font-weight:bold`,
    `  classDef ${ACTIVE_PARENT_CLASS} stroke:#b45309,stroke-width:3px`,
  ];
  const classLine = (nodes: AnyStateNode[], name: string) => {
    if (nodes.length > 0) lines.push(`  class ${nodes.map(nodeId).join(',')} ${name}`);
  };
  if (taken) {
    const ids = new Set(taken.states);
    const been = allStateNodes(machine.root).filter((node) => ids.has(node.id));
    lines.push(`  classDef ${TAKEN_CLASS} fill:#dcfce7,stroke:#15803d,stroke-width:2px,color:#14532d`);
    lines.push(`  classDef ${TAKEN_PARENT_CLASS} stroke:#15803d,stroke-width:2px`);
    classLine(
      been.filter((node) => !isBox(node)),
      TAKEN_CLASS,
    );
    classLine(been.filter(isBox), TAKEN_PARENT_CLASS);
  }
  classLine(
    active.filter((node) => !isBox(node)),
    ACTIVE_CLASS,
  );
  classLine(active.filter(isBox), ACTIVE_PARENT_CLASS);
  return `${lines.join('\n')}\n`;
}

function allStateNodes(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states).flatMap((child) => [child, ...allStateNodes(child)]);
}

/**
 * Where the diagram draws the transitions the session took (Mermaid's edge numbers and label
 * lines), and how many of the machine's transitions those are.
 */
export function takenEdges(
  machine: AnyStateMachine,
  transitions: readonly string[],
): { drawn: DrawnAt[]; taken: number; total: number } {
  const all = drawnTransitions(machineDiagramParts(machine).edges);
  const known = transitions.filter((key) => key in all);
  return {
    drawn: known.flatMap((key) => all[key] ?? []),
    taken: known.length,
    total: Object.keys(all).length,
  };
}
