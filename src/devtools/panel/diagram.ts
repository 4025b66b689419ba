import type { AnyStateMachine, AnyStateNode, StateValue } from 'xstate';
import { machineDiagram, nodeId } from '../../../scripts/machine-diagram.ts';

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

/** The machine's diagram with `classDef active` and `class … active` lines for its active states. */
export function highlightedDiagram(machine: AnyStateMachine, value: StateValue): string {
  const active = activeStateNodes(machine, value);
  const leaves = active.filter((node) => Object.keys(node.states).length === 0).map(nodeId);
  const parents = active.filter((node) => Object.keys(node.states).length > 0).map(nodeId);
  const lines = [
    machineDiagram(machine).trimEnd(),
    `  classDef ${ACTIVE_CLASS} fill:#fde68a,stroke:#b45309,stroke-width:3px,color:#141824,font-weight:bold`,
    `  classDef ${ACTIVE_PARENT_CLASS} stroke:#b45309,stroke-width:3px`,
  ];
  if (leaves.length > 0) lines.push(`  class ${leaves.join(',')} ${ACTIVE_CLASS}`);
  if (parents.length > 0) lines.push(`  class ${parents.join(',')} ${ACTIVE_PARENT_CLASS}`);
  return `${lines.join('\n')}\n`;
}
