import { toDirectedGraph, type DirectedGraphEdge, type DirectedGraphNode } from 'xstate/graph';
import type { AnyStateMachine, AnyStateNode } from 'xstate';

// Renders a statechart as a Mermaid stateDiagram-v2, from the machine's own
// definition (xstate/graph's toDirectedGraph), so the diagram cannot disagree
// with the code. Compound states nest, parallel regions are separated with
// `--`, and every transition is an arrow labelled with its event (and guard).

export function machineDiagram(machine: AnyStateMachine): string {
  const graph = toDirectedGraph(machine);
  // The machine itself is a composite state, so transitions it takes in any
  // state (its root-level `on`) have a box to loop on.
  const lines = ['stateDiagram-v2', `  state "${machine.id}" as root {`];
  renderChildren(graph, 2, lines);
  lines.push('  }');
  for (const edge of allEdges(graph)) lines.push(`  ${arrow(edge)}`);
  return `${lines.join('\n')}\n`;
}

/** A Mermaid-safe, unique id for a state node (its path, dots as underscores). */
export function nodeId(node: AnyStateNode): string {
  return node.path.length === 0 ? 'root' : node.path.join('__').replace(/[^A-Za-z0-9_]/g, '_');
}

function renderChildren(node: DirectedGraphNode, depth: number, lines: string[]): void {
  const pad = '  '.repeat(depth);
  const { stateNode } = node;
  const children = node.children;
  if (children.length === 0) return;
  const parallel = stateNode.type === 'parallel';
  children.forEach((child, index) => {
    if (parallel && index > 0) lines.push(`${pad}--`);
    const id = nodeId(child.stateNode);
    lines.push(`${pad}state "${child.stateNode.key}" as ${id}`);
    if (child.children.length > 0) {
      lines.push(`${pad}state ${id} {`);
      renderChildren(child, depth + 1, lines);
      lines.push(`${pad}}`);
    }
  });
  if (!parallel && stateNode.initial?.target[0]) {
    lines.push(`${pad}[*] --> ${nodeId(stateNode.initial.target[0])}`);
  }
  for (const child of children) {
    if (child.stateNode.type === 'final') lines.push(`${pad}${nodeId(child.stateNode)} --> [*]`);
  }
}

function allEdges(node: DirectedGraphNode): DirectedGraphEdge[] {
  return [...node.edges, ...node.children.flatMap(allEdges)];
}

function arrow(edge: DirectedGraphEdge): string {
  const guard = edge.transition.guard;
  const guardName =
    typeof guard === 'string'
      ? guard
      : guard && 'type' in guard
        ? String(guard.type)
        : guard
          ? 'guard'
          : null;
  const label = `${eventLabel(edge.transition.eventType)}${guardName ? ` [${guardName}]` : ''}`;
  return `${nodeId(edge.source)} --> ${nodeId(edge.target)}: ${label.replace(/:/g, '∶')}`;
}

/** XState's internal event names, said the way a reader thinks of them. */
export function eventLabel(type: string): string {
  if (type === '') return 'always';
  const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
  if (done) return `done ${done[1]}`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(type);
  if (error) return `error ${error[1]}`;
  const after = /^xstate\.after\.(.+?)\./.exec(type);
  if (after) return `after ${after[1]}`;
  const stateDone = /^xstate\.done\.state\.(.+)$/.exec(type);
  if (stateDone) return `done ${stateDone[1]?.split('.').at(-1)}`;
  return type;
}
