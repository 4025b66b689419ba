import { getStateNodes, toDirectedGraph, type DirectedGraphNode } from 'xstate/graph';
import type { AnyStateMachine, AnyStateNode } from 'xstate';

// Renders a statechart as a Mermaid stateDiagram-v2, from the machine's own
// definition (xstate/graph's toDirectedGraph, plus the eventless `always`
// transitions it leaves out), so the diagram cannot disagree with the code.
// Compound states nest, parallel regions are separated with `--`, and every
// transition is an arrow labelled with its event and guard; transitions
// between the same two states share one arrow, one label line each.
//
// Mermaid cannot draw an arrow between a state and one of its own descendants
// (nor any arrow from the diagram's outermost box), so a transition declared
// on a compound state that targets its own children, or on the machine
// itself, starts from a dashed "any state" node inside that state: it fires
// in whichever of its states the machine is in.

export const anyStateLabel = 'any state';

type Arrow = { from: string; to: string; labels: string[]; transitions: Transition[] };

export function machineDiagram(machine: AnyStateMachine): string {
  return machineDiagramParts(machine).source;
}

/** One arrow of the diagram: Mermaid's number for it, and the transition behind each line of its label. */
export type DiagramEdge = { edge: number; from: string; to: string; transitions: Transition[] };

export type DiagramParts = {
  /** What `machineDiagram` returns. */
  source: string;
  /** Every arrow that stands for transitions (not the `[*]` ones), in the order of the source. */
  edges: DiagramEdge[];
  /** State id → its node id in the diagram (`nodeId`), for every state node but the root. */
  nodes: Record<string, string>;
  /** The node ids drawn as a box around their children (compound and parallel states). */
  boxes: string[];
};

/**
 * The diagram with what a drawing of it needs to be coloured afterwards. Mermaid's state diagrams
 * cannot style an arrow (no `linkStyle`), but they number the arrows they draw (`data-id="edge<n>"`)
 * in the order of the source's `-->` lines, the `[*]` ones included; so an arrow's number is its
 * position among those lines.
 */
export function machineDiagramParts(machine: AnyStateMachine): DiagramParts {
  const graph = toDirectedGraph(machine);
  const arrows = collectArrows(machine, graph);
  const needsAny = new Set(arrows.flatMap((a) => [a.from, a.to]).filter((id) => id.startsWith(ANY)));
  const lines = ['stateDiagram-v2'];
  if (machine.root.type === 'parallel') {
    // Regions need a box to be separated in: the machine's own.
    lines.push(`  state "${text(machine.id)}" as root {`);
    renderChildren(graph, 2, lines, needsAny);
    lines.push('  }');
  } else {
    renderChildren(graph, 1, lines, needsAny);
  }
  const before = lines.filter((line) => line.includes(' --> ')).length;
  for (const { from, to, labels } of arrows) lines.push(`  ${from} --> ${to}: ${labels.join('<br/>')}`);
  if (needsAny.size > 0) {
    lines.push('  classDef anyState fill:none,stroke-dasharray:4 4');
    lines.push(`  class ${[...needsAny].join(',')} anyState`);
  }
  const edges = arrows.map(({ from, to, transitions }, index) => ({
    edge: before + index,
    from,
    to,
    transitions,
  }));
  const states = getStateNodes(machine.root);
  const nodes = Object.fromEntries(states.map((node) => [node.id, nodeId(node)]));
  const boxes = states.filter((node) => Object.keys(node.states).length > 0).map(nodeId);
  return { source: `${lines.join('\n')}\n`, edges, nodes, boxes };
}

/** A Mermaid-safe, unique id for a state node (its path, dots as underscores). */
export function nodeId(node: AnyStateNode): string {
  return node.path.length === 0 ? 'root' : node.path.join('__').replace(/[^A-Za-z0-9_]/g, '_');
}

// Real node ids never start with an underscore (state keys here are words),
// so the pseudo states cannot clash with them.
const ANY = '_any_';
const anyId = (node: AnyStateNode): string => `${ANY}${nodeId(node)}`;

function renderChildren(
  node: DirectedGraphNode,
  depth: number,
  lines: string[],
  needsAny: Set<string>,
): void {
  const pad = '  '.repeat(depth);
  const { stateNode, children } = node;
  const parallel = stateNode.type === 'parallel';
  children.forEach((child, index) => {
    if (parallel && index > 0) lines.push(`${pad}--`);
    const id = nodeId(child.stateNode);
    lines.push(`${pad}state "${text(stateLabel(child.stateNode))}" as ${id}`);
    if (child.children.length > 0) {
      lines.push(`${pad}state ${id} {`);
      renderChildren(child, depth + 1, lines, needsAny);
      lines.push(`${pad}}`);
    }
  });
  if (needsAny.has(anyId(stateNode))) {
    // In a parallel state the pseudo state gets a region of its own.
    if (parallel && children.length > 0) lines.push(`${pad}--`);
    lines.push(`${pad}state "${anyStateLabel}" as ${anyId(stateNode)}`);
  }
  const initial = stateNode.initial?.target[0];
  if (!parallel && initial) lines.push(`${pad}[*] --> ${nodeId(initial)}`);
  for (const child of children) {
    if (child.stateNode.type === 'final') lines.push(`${pad}${nodeId(child.stateNode)} --> [*]`);
  }
}

type Transition = AnyStateNode['always'] extends (infer T)[] | undefined ? T : never;

function collectArrows(machine: AnyStateMachine, graph: DirectedGraphNode): Arrow[] {
  const arrows = new Map<string, Arrow>();
  const visit = (node: DirectedGraphNode): void => {
    const source = node.stateNode;
    const transitions: Transition[] = [...source.transitions.values()].flat();
    transitions.push(...(source.always ?? []));
    for (const transition of transitions) {
      const label = transitionLabel(machine, source, transition);
      for (const target of transition.target ?? [source]) {
        const [from, to, note] = endpoints(source, target);
        const key = `${from} ${to}`;
        const arrow = arrows.get(key) ?? { from, to, labels: [], transitions: [] };
        arrow.labels.push(text(note ? `${label} (re-enters ${target.key})` : label));
        arrow.transitions.push(transition);
        arrows.set(key, arrow);
      }
    }
    node.children.forEach(visit);
  };
  visit(graph);
  return [...arrows.values()];
}

/** Where the arrow of a transition is drawn, and whether its label must say that it re-enters an ancestor. */
function endpoints(source: AnyStateNode, target: AnyStateNode): [string, string, boolean] {
  const isRoot = source.parent === undefined;
  if (isRoot || isAncestor(source, target)) {
    return [anyId(source), target === source ? anyId(source) : nodeId(target), false];
  }
  if (isAncestor(target, source)) {
    // Leaving a state for one of its ancestors restarts that ancestor: draw
    // the arrow to where it starts again, unless that is where it comes from.
    let start = target;
    while (start.type === 'compound' && start.initial?.target[0]) start = start.initial.target[0];
    const drawable = start !== target && !isAncestor(start, source);
    return [nodeId(source), drawable ? nodeId(start) : nodeId(source), true];
  }
  return [nodeId(source), nodeId(target), false];
}

function isAncestor(ancestor: AnyStateNode, node: AnyStateNode): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) if (parent === ancestor) return true;
  return false;
}

function transitionLabel(machine: AnyStateMachine, source: AnyStateNode, transition: Transition): string {
  const alternatives: Transition[] =
    transition.eventType === ''
      ? (source.always ?? [])
      : (source.transitions.get(transition.eventType) ?? []);
  const guard = guardLabel(transition.guard, machine.id);
  // The unguarded last alternative of a guarded choice.
  const otherwise = guard === null && alternatives.some((t) => t !== transition && t.guard !== undefined);
  const condition = guard ?? (otherwise ? 'else' : null);
  const event = eventLabel(transition.eventType, delayLabel(machine, transition));
  return condition === null ? event : `${event} [${condition}]`;
}

function delayLabel(machine: AnyStateMachine, transition: Transition): string | null {
  const { delay } = transition as { delay?: unknown };
  if (typeof delay === 'number') return `${delay} ms`;
  if (typeof delay !== 'string') return null;
  const value: unknown = machine.implementations.delays[delay];
  return typeof value === 'number' ? `${delay} (${value} ms)` : delay;
}

/** XState's internal event names, said the way a reader thinks of them. */
export function eventLabel(type: string, delay: string | null = null): string {
  if (type === '') return 'always';
  if (type === '*') return '* (any other event)';
  const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
  if (done) return `done ${done[1]}`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(type);
  if (error) return `error ${error[1]}`;
  const snapshot = /^xstate\.snapshot\.(.+)$/.exec(type);
  if (snapshot) return `snapshot ${snapshot[1]}`;
  const after = /^xstate\.after\.(.+?)\./.exec(type);
  if (after) return `after ${delay ?? after[1]}`;
  const stateDone = /^xstate\.done\.state\.(.+)$/.exec(type);
  if (stateDone) return `done ${stateDone[1]?.split('.').at(-1)}`;
  return type;
}

type BuiltinGuard = ((...args: never[]) => unknown) & {
  stateValue?: unknown;
  guards?: unknown[];
  check?: (...args: unknown[]) => boolean;
};

/**
 * Named guards by name (with their static params), `stateIn` as `in <state>`,
 * `and`/`or`/`not` spelled out; an inline function has no name to show.
 */
export function guardLabel(guard: unknown, machineId: string): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const builtin = guard as BuiltinGuard;
    if ('stateValue' in builtin) return `in ${stateValueLabel(builtin.stateValue, machineId)}`;
    if (Array.isArray(builtin.guards) && typeof builtin.check === 'function') {
      const parts = builtin.guards.map((g) => guardLabel(g, machineId) ?? 'guard');
      const kind = combinator(builtin.check);
      if (kind === 'not') return `not ${parts[0]}`;
      return parts.length === 1 ? (parts[0] ?? 'guard') : `(${parts.join(` ${kind} `)})`;
    }
    return 'guard';
  }
  if (typeof guard === 'object' && 'type' in guard) {
    const { type, params } = guard as { type: unknown; params?: unknown };
    return `${String(type)}${paramsLabel(params)}`;
  }
  return 'guard';
}

// A production build renames functions, so `and`, `or` and `not` are told
// apart by what their check answers, not by name: not(false) is true, only
// `or` passes one true of two.
function combinator(check: (...args: unknown[]) => boolean): 'and' | 'or' | 'not' {
  const ask = (a: boolean, b: boolean): boolean =>
    check(
      { machine: { implementations: { guards: {} } } },
      { context: {}, event: { type: '' } },
      { guards: [() => a, () => b] },
    );
  if (ask(false, false)) return 'not';
  return ask(true, false) ? 'or' : 'and';
}

function paramsLabel(params: unknown): string {
  if (params === undefined) return '';
  if (typeof params === 'function') return '(…)';
  if (params === null || typeof params !== 'object') return `(${String(params)})`;
  const entries = Object.entries(params).map(([k, v]) => `${k}=${typeof v === 'object' ? '…' : String(v)}`);
  return `(${entries.join(', ')})`;
}

function stateValueLabel(value: unknown, machineId: string): string {
  if (typeof value === 'string') return value.replace(new RegExp(`^#${escapeRegExp(machineId)}\\.`), '');
  return JSON.stringify(value);
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function stateLabel(node: AnyStateNode): string {
  if (node.type === 'history') return node.history === 'deep' ? 'H*' : 'H';
  return node.key;
}

// Mermaid ends a statement at `;`, reads `<…>` as HTML and `#…;` as an
// entity, and splits a transition at its first `:`; quotes end a state label.
function text(value: string): string {
  return value.replace(/;/g, ',').replace(/:/g, '∶').replace(/</g, '‹').replace(/>/g, '›').replace(/"/g, "'");
}
