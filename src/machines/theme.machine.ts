import { assign, fromCallback, sendTo, setup } from 'xstate';
import { notProvided } from './shared.ts';

// Light or dark (docs/product.md#theme): the stored choice if there is one, else the
// system's preference; a toggle switches and persists it. The browser facts
// live in the `themeStore` callback actor that src/app/provide-portal.ts provides: it is
// told `theme.persist` to write the `theme` localStorage key, and it may report
// `theme.systemChanged` when the system preference changes, which the machine
// follows only as long as the user has stored no choice.

export type Theme = 'light' | 'dark';

export type ThemeInput = { stored: Theme | null; systemPrefersDark: boolean };
export type ThemeContext = ThemeInput;

export type ThemeEvent = { type: 'theme.toggle' } | { type: 'theme.systemChanged'; prefersDark: boolean };

/** What the machine tells its store. */
export type ThemeStoreEvent = { type: 'theme.persist'; theme: Theme };

export const themeMachine = setup({
  types: {} as { context: ThemeContext; events: ThemeEvent; input: ThemeInput },
  actors: {
    // Like every service actor, a placeholder until provided: without a store
    // the machine fails loudly rather than silently forgetting the choice.
    themeStore: fromCallback<ThemeStoreEvent>(notProvided('themeStore')),
  },
  actions: {
    persist: sendTo('themeStore', (_, params: { theme: Theme }): ThemeStoreEvent => ({
      type: 'theme.persist',
      theme: params.theme,
    })),
    store: assign((_, params: { theme: Theme }) => ({ stored: params.theme })),
    followSystem: assign(({ event }) =>
      event.type === 'theme.systemChanged' ? { systemPrefersDark: event.prefersDark } : {},
    ),
  },
  guards: {
    startsDark: ({ context }) =>
      (context.stored ?? (context.systemPrefersDark ? 'dark' : 'light')) === 'dark',
    systemTurnsDark: ({ context, event }) =>
      context.stored === null && event.type === 'theme.systemChanged' && event.prefersDark,
    systemTurnsLight: ({ context, event }) =>
      context.stored === null && event.type === 'theme.systemChanged' && !event.prefersDark,
  },
}).createMachine({
  id: 'theme',
  context: ({ input }) => ({ stored: input.stored, systemPrefersDark: input.systemPrefersDark }),
  invoke: { id: 'themeStore', src: 'themeStore' },
  initial: 'resolving',
  states: {
    // Decides the first theme from the input; never seen at rest.
    resolving: {
      always: [{ guard: 'startsDark', target: 'dark' }, { target: 'light' }],
    },
    light: {
      on: {
        'theme.toggle': {
          target: 'dark',
          actions: [
            { type: 'store', params: { theme: 'dark' } },
            { type: 'persist', params: { theme: 'dark' } },
          ],
        },
      },
    },
    dark: {
      on: {
        'theme.toggle': {
          target: 'light',
          actions: [
            { type: 'store', params: { theme: 'light' } },
            { type: 'persist', params: { theme: 'light' } },
          ],
        },
      },
    },
  },
  on: {
    'theme.systemChanged': [
      { guard: 'systemTurnsDark', target: '.dark', actions: 'followSystem' },
      { guard: 'systemTurnsLight', target: '.light', actions: 'followSystem' },
    ],
  },
});
