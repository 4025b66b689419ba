import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getStateNodes as getActiveStateNodes, isMachineSnapshot } from 'xstate';
import type {
  AnyMachineSnapshot,
  AnyStateMachine,
  AnyStateNode,
  AnyTransitionDefinition,
  InspectedMicrostepEvent,
  InspectionEvent,
} from 'xstate';
import { getStateNodes } from 'xstate/graph';

// Coverage of one machine by its generated paths. XState 5 has none built in,
// so we list every state node and transition of the machine, record the ones a
// running actor takes (inspection `@xstate.microstep`), and compare.
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

/** Every state node but the root (always active, so it says nothing) and history pseudo-states. */
export function allStateIds(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root)
    .filter((node) => node.type !== 'history')
    .map((node) => node.id);
}

/** Every transition declared anywhere in the machine: `on`, `always`, `after`, invoke `onDone`/`onError`. */
export function allTransitionKeys(machine: AnyStateMachine): string[] {
  const nodes: AnyStateNode[] = [machine.root, ...getStateNodes(machine.root)];
  return nodes.flatMap((node) => [
    ...[...node.transitions.values()].flat().map(transitionKey),
    ...(node.always ?? []).map(transitionKey),
  ]);
}

/**
 * The state nodes a snapshot is in, read from its state value, in document order; the root is
 * left out (it is always in).
 */
export function activeStateNodes(snapshot: AnyMachineSnapshot): AnyStateNode[] {
  const { root } = snapshot.machine;
  // XState's walk repeats the root and the parents of parallel regions.
  return [...new Set(getActiveStateNodes(root, snapshot.value))]
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

/** Collects what a machine's actors did, across all the paths of one test file. */
export class CoverageRecorder {
  readonly states = new Set<string>();
  readonly transitions = new Set<string>();

  /** Pass as `createActor(machine, { inspect })`; only the root actor counts, not its children. */
  readonly inspect = (event: InspectionEvent): void => {
    if (event.actorRef.sessionId !== event.rootId) return;
    if (event.type === '@xstate.microstep') {
      const { states, transitions } = microstepCoverage(event);
      for (const id of states) this.states.add(id);
      for (const key of transitions) this.transitions.add(key);
    } else if (event.type === '@xstate.snapshot') {
      this.addSnapshot(event.snapshot);
    }
  };

  private addSnapshot(snapshot: unknown): void {
    if (isMachineSnapshot(snapshot)) {
      for (const id of activeStateIds(snapshot)) this.states.add(id);
    }
  }
}

export type CoverageFile = {
  machine: string;
  paths: number;
  states: { total: string[]; covered: string[] };
  transitions: { total: string[]; covered: string[] };
};

/** One file per test file and machine, so parallel workers never write the same file. */
export function writeCoverage(
  dir: string,
  name: string,
  machine: AnyStateMachine,
  paths: number,
  rec: CoverageRecorder,
) {
  const file: CoverageFile = {
    machine: name,
    paths,
    states: { total: allStateIds(machine), covered: [...rec.states] },
    transitions: { total: allTransitionKeys(machine), covered: [...rec.transitions] },
  };
  mkdirSync(dir, { recursive: true });
  const unique = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  writeFileSync(join(dir, `${name}.${unique}.json`), JSON.stringify(file));
}

export type MachineCoverage = {
  machine: string;
  paths: number;
  states: { covered: number; total: number; missing: string[] };
  transitions: { covered: number; total: number; missing: string[] };
};

function measure(total: string[], covered: Set<string>) {
  const missing = total.filter((key) => !covered.has(key));
  return { covered: total.length - missing.length, total: total.length, missing };
}

/** Merges the files of all workers by machine name (a machine may be modelled in several files). */
export function readCoverage(dir: string): MachineCoverage[] {
  const byMachine = new Map<string, { file: CoverageFile; states: Set<string>; transitions: Set<string> }>();
  for (const name of readdirSync(dir)
    .filter((entry) => entry.endsWith('.json'))
    .sort()) {
    const file = JSON.parse(readFileSync(join(dir, name), 'utf8')) as CoverageFile;
    const entry = byMachine.get(file.machine);
    if (!entry) {
      byMachine.set(file.machine, {
        file,
        states: new Set(file.states.covered),
        transitions: new Set(file.transitions.covered),
      });
      continue;
    }
    entry.file = { ...entry.file, paths: entry.file.paths + file.paths };
    for (const id of file.states.covered) entry.states.add(id);
    for (const key of file.transitions.covered) entry.transitions.add(key);
  }
  return [...byMachine.values()]
    .map(({ file, states, transitions }) => ({
      machine: file.machine,
      paths: file.paths,
      states: measure(file.states.total, states),
      transitions: measure(file.transitions.total, transitions),
    }))
    .sort((a, b) => a.machine.localeCompare(b.machine));
}

/** The table, the names of anything missing, and the one summary line last. */
export function formatCoverage(rows: MachineCoverage[]): { text: string; complete: boolean } {
  const header = ['machine', 'paths', 'states', 'transitions'];
  const cells = rows.map((row) => [
    row.machine,
    String(row.paths),
    `${row.states.covered}/${row.states.total}`,
    `${row.transitions.covered}/${row.transitions.total}`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]?.length ?? 0)),
  );
  const line = (values: string[]) =>
    values
      .map((value, column) =>
        column === 0 ? value.padEnd(widths[column] ?? 0) : value.padStart(widths[column] ?? 0),
      )
      .join('  ');

  const lines = [
    '',
    'Model paths (states: every state node but the root; transitions: every declared transition)',
  ];
  lines.push(line(header), ...cells.map(line));
  for (const row of rows) {
    for (const id of row.states.missing) lines.push(`  ${row.machine}: missing state ${id}`);
    for (const key of row.transitions.missing) lines.push(`  ${row.machine}: missing transition ${key}`);
  }
  const sum = (pick: (row: MachineCoverage) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const states = { covered: sum((r) => r.states.covered), total: sum((r) => r.states.total) };
  const transitions = { covered: sum((r) => r.transitions.covered), total: sum((r) => r.transitions.total) };
  const complete = states.covered === states.total && transitions.covered === transitions.total;
  if (!complete)
    lines.push('FAILED: the generated paths do not cover every state and transition (listed above).');
  lines.push(
    `paths: ${sum((r) => r.paths)}, states: ${states.covered}/${states.total}, transitions: ${transitions.covered}/${transitions.total}`,
  );
  return { text: lines.join('\n') + '\n', complete };
}
