import { afterAll, describe, inject, it } from 'vitest';
import type { AnyEventObject, AnyStateMachine, EventObject, InputFrom } from 'xstate';
import {
  CoverageRecorder,
  activeStateIds,
  allStateIds,
  allTransitionKeys,
  writeCoverage,
} from '../model/coverage.ts';
import {
  coverageOfEdge,
  coverageOfStart,
  defaultSerializeState,
  generatePaths,
  stableJson,
} from '../model/paths.ts';
import type { ModelPath, Snapshot } from '../model/paths.ts';
import { describeFailure, writeFailures, type PathFailure } from './failures.ts';
import { writeReasons } from './reasons.ts';
import { coverageOfPaths, generateTours } from './tours.ts';

// describeUiModel: the paths generated from a statechart, driven through the
// real portal in Chromium. The model says which state each step reaches; the
// page has to show it. See README.md in this folder.

/** What every world has: the page the steps act on. */
export type UiWorld = { page: import('playwright-core').Page };

type StateCheck<W> = (world: W, state: Snapshot) => Promise<void>;

export type UiModelSpec<TMachine extends AnyStateMachine, W extends UiWorld> = {
  /** The machine's row in the table (the same name as its model test). */
  name: string;
  /** The bare machine from src/machines. */
  machine: TMachine;
  /** The input the portal gives the machine (its configuration in the e2e build). */
  input?: InputFrom<TMachine>;
  /** Payloads per event type, as in the model test; only those the page can cause. */
  events?: Record<string, readonly AnyEventObject[]>;
  serializeState?: (snapshot: Snapshot) => string;
  /** A fresh portal for one path; the path says what the world must hold (e.g. a wallet or none). */
  open(path: UiPath): Promise<W>;
  /** State key (as `snapshot.matches`, or `#id`, or `*`) → what a user sees there. */
  views: Record<string, StateCheck<W>>;
  /** Event type → how the outside world causes it: a click, the wallet's answer, a row in the database. */
  causes: Record<string, (world: W, event: AnyEventObject, from: Snapshot) => Promise<void>>;
  /**
   * State key → what to set up before a step that enters it, so the state stays long enough to be
   * seen: typically holding the wallet's or the backend's answer that the next step lets go.
   */
  arrange?: Record<string, (world: W, state: Snapshot, next: AnyEventObject | undefined) => Promise<void>>;
  /**
   * States the page passes through on its own, with why they cannot be held; their view is not
   * asserted and the step out of them has no cause of its own (the page takes it).
   */
  passing?: Record<string, string>;
  /**
   * Whether the page can cause this event in this state (default: it can): e.g. 'log out' needs a
   * signed-in user. Edges it cannot cause are left out of the generated paths.
   */
  can?: (event: AnyEventObject, state: Snapshot) => boolean;
  /** Event types the page cannot cause, with why; their transitions are listed as not UI-reachable. */
  notUiReachable?: Record<string, string>;
  /** Transition keys or state ids (as in the table) the UI paths leave out, with why. */
  reasons?: Record<string, string>;
  /** Lengths of named delays when the machine's own `delays` cannot compute them. */
  delays?: Record<string, number>;
  limit?: number;
  /**
   * Walk the transitions as tours (tours.ts): each path goes on from where the last step left the
   * page, and a new page opens only when nothing left is reachable. For maps whose `open` does not
   * depend on the path and whose views tell a state apart whatever came before.
   */
  tours?: boolean;
};

export type UiPath = {
  /** The events of the path, in order (without the initial one). */
  events: AnyEventObject[];
  /** True when some step of the path has this event type (and payload fields, if given). */
  has(type: string, fields?: Record<string, unknown>): boolean;
};

function matchesKey(state: Snapshot, key: string): boolean {
  if (key === '*') return true;
  if (key.startsWith('#')) return activeStateIds(state).includes(key.slice(1));
  return state.matches(key);
}

function describeUiPath(path: ModelPath): string {
  const steps = path.steps.filter((step) => step.event.type !== 'xstate.init');
  const names = steps.map(({ event }) => {
    const { type, ...payload } = event;
    const text = Object.keys(payload).length ? ` ${stableJson(payload)}` : '';
    return `${type}${text.length > 50 ? `${text.slice(0, 47)}...` : text}`;
  });
  return `${names.length ? names.join(' → ') : '(initial)'} ⇒ ${stableJson(path.state.value)}`;
}

function toUiPath(path: ModelPath): UiPath {
  const events = path.steps.map((step) => step.event).filter((event) => event.type !== 'xstate.init');
  return {
    events,
    has: (type, fields = {}) =>
      events.some(
        (event) =>
          event.type === type &&
          Object.entries(fields).every(
            ([key, value]) => stableJson((event as Record<string, unknown>)[key]) === stableJson(value),
          ),
      ),
  };
}

export function describeUiModel<TMachine extends AnyStateMachine, W extends UiWorld>(
  spec: UiModelSpec<TMachine, W>,
): void {
  const machine: AnyStateMachine = spec.machine;
  const unreachable = spec.notUiReachable ?? {};
  const isDelay = (type: string) => type.startsWith('xstate.after.');
  const automatic = (type: string) => /^xstate\.(done|error)\.actor\./.test(type) || isDelay(type);
  const isPassing = (state: Snapshot) =>
    Object.keys(spec.passing ?? {}).some((key) => matchesKey(state, key));
  const caused = (event: EventObject, state: Snapshot) =>
    !(event.type in unreachable) &&
    // Out of a state the page passes through on its own, only what the page does by itself (which
    // needs no cause); anywhere else, a cause or a timer.
    (isPassing(state) ? automatic(event.type) : event.type in spec.causes || isDelay(event.type)) &&
    (spec.can?.(event, state) ?? true);
  const pathOptions = {
    events: spec.events ?? {},
    input: spec.input,
    serializeState: spec.serializeState ?? defaultSerializeState,
    simplePaths: false,
    maxPaths: 0,
    limit: spec.limit ?? 20_000,
    exclude: (event: EventObject, state: Snapshot) => !caused(event, state),
  };
  const generated = generatePaths(machine, pathOptions);
  const paths = spec.tours
    ? generateTours(machine, pathOptions, coverageOfPaths(machine, spec.input, generated))
    : generated;

  function delayOf(type: string, state: Snapshot): number {
    const name = type.split('.')[2] ?? '';
    if (name !== '' && !Number.isNaN(Number(name))) return Number(name);
    const configured: unknown = spec.delays?.[name] ?? machine.implementations.delays[name];
    const ms = typeof configured === 'function' ? configured({ context: state.context }) : configured;
    if (typeof ms !== 'number') throw new Error(`${spec.name}: no length for delay '${name}'`);
    return ms;
  }

  async function check(world: W, state: Snapshot): Promise<boolean> {
    if (isPassing(state)) return false;
    const views = Object.entries(spec.views).filter(([key]) => matchesKey(state, key));
    if (views.length === 0)
      throw new Error(`${spec.name}: no view for ${stableJson(state.value)}; add one to views`);
    for (const [, view] of views) await view(world, state);
    return true;
  }

  async function runPath(path: ModelPath, recorder: CoverageRecorder): Promise<void> {
    const [first, ...steps] = path.steps;
    if (!first) return;
    const world = await spec.open(toUiPath(path));
    const covered: string[] = coverageOfStart(machine, spec.input);
    await check(world, first.state);
    let from = first.state;
    for (const [index, step] of steps.entries()) {
      const next = steps[index + 1]?.event;
      for (const [key, arrange] of Object.entries(spec.arrange ?? {})) {
        if (matchesKey(step.state, key) && !matchesKey(from, key)) await arrange(world, step.state, next);
      }
      const cause = spec.causes[step.event.type];
      if (cause) await cause(world, step.event, from);
      else if (isDelay(step.event.type)) await world.page.clock.fastForward(delayOf(step.event.type, from));
      covered.push(...coverageOfEdge(machine, from, step.event));
      await check(world, step.state);
      from = step.state;
    }
    // Only a path whose every view held counts: a failed step throws before this.
    for (const key of covered) {
      if (key.startsWith('state ')) recorder.addState(key.slice('state '.length));
      else recorder.addTransition(key);
    }
  }

  describe(`${spec.name} through the UI`, () => {
    const recorder = new CoverageRecorder();
    const failures: PathFailure[] = [];
    afterAll(() => {
      const dir = inject('uiPathsDir');
      if (!dir) return;
      writeFailures(dir, spec.name, failures);
      writeCoverage(dir, spec.name, machine, paths.length, recorder);
      const items = { transitions: allTransitionKeys(machine), states: allStateIds(machine) };
      writeReasons(dir, spec.name, items, unreachable, spec.reasons ?? {});
    });
    for (const [index, path] of paths.entries()) {
      const title = `ui path ${index + 1}: ${describeUiPath(path)}`;
      it(title, { timeout: 120_000 }, ({ onTestFailed }) => {
        // A timeout ends the test without a throw in the path, so the runner's result is read.
        onTestFailed(({ task }) => {
          const errors = task.result?.errors ?? [];
          const text = errors.map((error) => error.stack ?? error.message).join('\n');
          failures.push({ machine: spec.name, title, error: describeFailure(text) });
        });
        recorder.beginPath(title);
        return runPath(path, recorder);
      });
    }
  });
}
