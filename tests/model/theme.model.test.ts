import { beforeEach, expect } from 'vitest';
import { fromCallback } from 'xstate';
import { themeMachine } from '../../src/machines/theme.machine.ts';
import type { ThemeInput, ThemeStoreEvent } from '../../src/machines/theme.machine.ts';
import { describeModel } from './support/index.ts';

// The first theme depends on the input, so the machine is modelled once per
// kind of start; the helper merges the runs into one row of the table.
const starts: ThemeInput[] = [
  { stored: null, systemPrefersDark: false },
  { stored: null, systemPrefersDark: true },
  { stored: 'light', systemPrefersDark: true },
  { stored: 'dark', systemPrefersDark: false },
];

const persisted: ThemeStoreEvent[] = [];
beforeEach(() => {
  persisted.length = 0;
});
const themeStore = fromCallback<ThemeStoreEvent>(({ receive }) => {
  receive((event) => persisted.push(event));
});

for (const input of starts) {
  // What the user sees is what is stored, once anything is; and what is
  // stored is what was last handed to the store (or was there at start).
  const shownTheme = (snapshot: { value: unknown; context: ThemeInput }) => {
    expect(persisted.at(-1)?.theme ?? input.stored).toBe(snapshot.context.stored);
    if (snapshot.context.stored !== null) expect(snapshot.value).toBe(snapshot.context.stored);
  };
  describeModel({
    name: 'theme',
    machine: themeMachine,
    input,
    provide: { actors: { themeStore } },
    events: {
      'theme.systemChanged': [
        { type: 'theme.systemChanged', prefersDark: true },
        { type: 'theme.systemChanged', prefersDark: false },
      ],
    },
    states: { light: shownTheme, dark: shownTheme },
  });
}
