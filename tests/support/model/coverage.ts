import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMachineSnapshot } from 'xstate';
import type { AnyStateMachine, AnyStateNode, InspectionEvent } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { machineDiagramParts } from '../../../scripts/machine-diagram.ts';
import {
  activeStateIds,
  drawnTransitions,
  microstepCoverage,
  transitionKey,
  type DrawnAt,
} from '../../../src/devtools/transition-keys.ts';

// Coverage of one machine by its generated paths. XState 5 has none built in,
// so we list every state node and transition of the machine, record the ones a
// running actor takes (inspection `@xstate.microstep`), and compare.
//
// Transitions and states are named as src/devtools/transition-keys.ts names
// them (the developer panel shares it):  `<source id> --<event>#<index>--> <target ids>`.

export {
  activeStateIds,
  activeStateNodes,
  microstepCoverage,
  transitionKey,
} from '../../../src/devtools/transition-keys.ts';
export { formatCoverage, type CoverageOptions, type CoverageVerdict } from './table.ts';

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

/** What one path covered; `title` is its `it()` name. */
export type PathDetail = { title: string; states: string[]; transitions: string[] };

/** Collects what a machine's actors did, across all the paths of one test file, and per path. */
export class CoverageRecorder {
  readonly states = new Set<string>();
  readonly transitions = new Set<string>();
  private readonly paths: { title: string; states: Set<string>; transitions: Set<string> }[] = [];

  /** Starts a path: what is recorded from now on is also this path's, until the next one begins. */
  beginPath(title: string): void {
    this.paths.push({ title, states: new Set(), transitions: new Set() });
  }

  addState(id: string): void {
    this.states.add(id);
    this.paths.at(-1)?.states.add(id);
  }

  addTransition(key: string): void {
    this.transitions.add(key);
    this.paths.at(-1)?.transitions.add(key);
  }

  get pathDetails(): PathDetail[] {
    return this.paths.map(({ title, states, transitions }) => ({
      title,
      states: [...states],
      transitions: [...transitions],
    }));
  }

  /** Pass as `createActor(machine, { inspect })`; only the root actor counts, not its children. */
  readonly inspect = (event: InspectionEvent): void => {
    if (event.actorRef.sessionId === event.rootId) this.record(event);
  };

  /** Records an inspection event of the machine under test (the caller picks its actor's events). */
  record(event: InspectionEvent): void {
    if (event.type === '@xstate.microstep') {
      const { states, transitions } = microstepCoverage(event);
      for (const id of states) this.addState(id);
      for (const key of transitions) this.addTransition(key);
    } else if (event.type === '@xstate.snapshot' && isMachineSnapshot(event.snapshot)) {
      for (const id of activeStateIds(event.snapshot)) this.addState(id);
    }
  }
}

/** What a report needs to draw a machine and colour it (the teardown has no machine objects). */
export type CoverageDiagram = {
  /** The Mermaid source of docs/machines (scripts/machine-diagram.ts). */
  source: string;
  /** State id → its node id in the diagram. */
  nodes: Record<string, string>;
  /** Node ids drawn as a box around their children (coloured by outline, not fill). */
  boxes: string[];
  /** Transition key → the arrows (Mermaid edge numbers) and label lines that draw it. */
  transitions: Record<string, DrawnAt[]>;
};

export type CoverageFile = {
  machine: string;
  paths: number;
  states: { total: string[]; covered: string[] };
  transitions: { total: string[]; covered: string[] };
  pathDetails: PathDetail[];
  diagram: CoverageDiagram;
};

export function coverageDiagram(machine: AnyStateMachine): CoverageDiagram {
  const { source, nodes, boxes, edges } = machineDiagramParts(machine);
  return { source, nodes, boxes, transitions: drawnTransitions(edges) };
}

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
    pathDetails: rec.pathDetails,
    diagram: coverageDiagram(machine),
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

/** The coverage files a directory holds (one per test file and machine), in a stable order. */
export function readCoverageFiles(dir: string): CoverageFile[] {
  return readdirSync(dir)
    .filter((entry) => entry.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as CoverageFile);
}

/** One file per machine name (a machine may be modelled in several files), sorted by name. */
export function mergeCoverage(files: readonly CoverageFile[]): CoverageFile[] {
  const byMachine = new Map<string, CoverageFile>();
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];
  for (const file of files) {
    const entry = byMachine.get(file.machine);
    byMachine.set(
      file.machine,
      entry
        ? {
            ...entry,
            paths: entry.paths + file.paths,
            states: { ...entry.states, covered: union(entry.states.covered, file.states.covered) },
            transitions: {
              ...entry.transitions,
              covered: union(entry.transitions.covered, file.transitions.covered),
            },
            pathDetails: [...entry.pathDetails, ...(file.pathDetails ?? [])],
          }
        : { ...file, pathDetails: file.pathDetails ?? [] },
    );
  }
  return [...byMachine.values()].sort((a, b) => a.machine.localeCompare(b.machine));
}

/** A merged file as a row of the table. */
export function measureCoverage(file: CoverageFile): MachineCoverage {
  return {
    machine: file.machine,
    paths: file.paths,
    states: measure(file.states.total, new Set(file.states.covered)),
    transitions: measure(file.transitions.total, new Set(file.transitions.covered)),
  };
}

/** Merges the files of all workers by machine name (a machine may be modelled in several files). */
export function readCoverage(dir: string): MachineCoverage[] {
  return mergeCoverage(readCoverageFiles(dir)).map(measureCoverage);
}
