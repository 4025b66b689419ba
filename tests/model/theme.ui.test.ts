import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { shellCopy } from '../../src/copy/index.ts';
import { THEME_KEY } from '../../src/app/provide-portal.ts';
import { themeMachine, type Theme, type ThemeInput } from '../../src/machines/theme.machine.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { openWorld } from '../support/ui/world.ts';

// The theme chart through the portal: the header's toggle, the system's colour scheme (the
// browser's prefers-color-scheme, changed under the running page) and a choice stored by an
// earlier visit. As in the model test, one run per kind of start; the table merges them.

const starts: ThemeInput[] = [
  { stored: null, systemPrefersDark: false },
  { stored: null, systemPrefersDark: true },
  { stored: 'light', systemPrefersDark: true },
  { stored: 'dark', systemPrefersDark: false },
];

const scheme = (dark: boolean) => (dark ? 'dark' : 'light');

/** The toggle names what pressing it does, and the page's colours follow the theme. */
async function shows(page: Page, theme: Theme): Promise<void> {
  const toggle = theme === 'dark' ? shellCopy.themeToLight : shellCopy.themeToDark;
  await page.getByRole('button', { name: toggle, exact: true }).waitFor();
  await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe(theme);
}

for (const input of starts) {
  describeUiModel({
    name: 'theme',
    tours: true,
    machine: themeMachine,
    input,
    events: {
      'theme.systemChanged': [
        { type: 'theme.systemChanged', prefersDark: true },
        { type: 'theme.systemChanged', prefersDark: false },
      ],
    },
    async open() {
      const world = await openWorld({ colorScheme: scheme(input.systemPrefersDark) });
      if (input.stored) {
        // A choice made on an earlier visit: stored, then the portal opened again.
        await world.page.evaluate(([key, theme]) => localStorage.setItem(key, theme), [
          THEME_KEY,
          input.stored,
        ] as const);
        await world.page.reload();
      }
      return world;
    },
    views: {
      light: (world) => shows(world.page, 'light'),
      dark: (world) => shows(world.page, 'dark'),
    },
    causes: {
      'theme.toggle': async (world, _event, from) => {
        const name = from.matches('dark') ? shellCopy.themeToLight : shellCopy.themeToDark;
        await world.page.getByRole('button', { name, exact: true }).click();
      },
      // The operating system switches between light and dark while the portal is open.
      'theme.systemChanged': async (world, event) => {
        const dark = (event as unknown as { prefersDark: boolean }).prefersDark;
        await world.page.emulateMedia({ colorScheme: scheme(dark) });
      },
    },
  });
}
