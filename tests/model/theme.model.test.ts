import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { themeMachine } from '../../src/machines/theme.machine.ts';
import type { ThemeInput, ThemeStoreEvent } from '../../src/machines/theme.machine.ts';
import { describeModel, type ModelStep } from '../support/model/index.ts';

// Light or dark (docs/product.md#theme): the generated paths, each step checked for the theme the
// user sees and what the store is told. The first theme depends on the input, so the machine is
// modelled once per kind of start; the helper merges the runs into one row of the table.

type Snapshot = SnapshotFrom<typeof themeMachine>;

const starts: ThemeInput[] = [
  { stored: null, systemPrefersDark: false },
  { stored: null, systemPrefersDark: true },
  { stored: 'light', systemPrefersDark: true },
  { stored: 'dark', systemPrefersDark: false },
];

function everyStep(snapshot: Snapshot, step: ModelStep<typeof themeMachine>, input: ThemeInput) {
  const { stored, systemPrefersDark } = snapshot.context;
  const { before } = step;
  /** What the store was handed: in all, and in this step. */
  const persisted = step.harness.callback('themeStore').received as ThemeStoreEvent[];
  const persistedNow = step.sentTo('themeStore');
  // What the user sees: the stored choice, else what the system prefers.
  expect(snapshot.value).toBe(stored ?? (systemPrefersDark ? 'dark' : 'light'));
  // What is stored is what was last handed to the store (or was there at start), as a persist.
  expect(persisted.at(-1)?.theme ?? input.stored).toBe(stored);
  for (const event of persisted) expect(event.type).toBe('theme.persist');
  if (before) {
    // A toggle stores and persists the other theme; following the system persists nothing.
    const toggled = stored !== before.context.stored;
    expect(persistedNow).toHaveLength(toggled ? 1 : 0);
    if (toggled) expect(stored).toBe(before.value === 'dark' ? 'light' : 'dark');
    // The system's preference is followed only while nothing is stored.
    if (before.context.stored !== null) expect(systemPrefersDark).toBe(before.context.systemPrefersDark);
  } else {
    // At start: the input, and nothing persisted yet.
    expect(snapshot.context).toEqual(input);
    expect(persisted).toEqual([]);
  }
}

for (const input of starts) {
  describeModel({
    name: 'theme',
    machine: themeMachine,
    input,
    callbacks: ['themeStore'],
    events: {
      'theme.systemChanged': [
        { type: 'theme.systemChanged', prefersDark: true },
        { type: 'theme.systemChanged', prefersDark: false },
      ],
    },
    states: { '*': (snapshot, step) => everyStep(snapshot, step, input) },
  });
}
