import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { appCopy, authCopy, shellCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { dialogsMachine, dialogs, type DialogName } from '../../src/machines/dialogs.machine.ts';
import { button } from '../support/e2e/portal-page.ts';
import { openUserMenu } from '../support/e2e/ui.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { logOutInAnotherTab } from '../support/ui/session.ts';
import { logInThroughUi, openWorld, pathUser, type PortalWorld } from '../support/ui/world.ts';

// The dialogs chart through the portal: a signed-in user's menu (its entries open the profile,
// the history and the two placeholders), the bell that opens the notifications, Escape that
// closes each, and the session ending under them (a logout in another tab, or here). Run twice,
// once opening dialogs from the menu and once with the bell; the table merges the runs.

const titles: Record<DialogName, string> = {
  profile: dialogCopy.profile.title,
  notifications: dialogCopy.notifications.title,
  transactions: dialogCopy.transactions.title,
  apiKeys: dialogCopy.apiKeys.title,
  security: dialogCopy.security.title,
};
const menuEntries: Record<Exclude<DialogName, 'notifications'>, string> = {
  profile: appCopy.menu.profile,
  transactions: appCopy.menu.transactions,
  apiKeys: appCopy.menu.apiKeys,
  security: appCopy.menu.security,
};

type Context = { open: DialogName | null; menuOpen: boolean };
const contextOf = (state: { context: unknown }) => state.context as Context;
const dialogOf = (event: object) => (event as { dialog: DialogName }).dialog;

const menu = (page: Page) => page.getByRole('dialog', { name: shellCopy.userMenuLabel });

/** Signs the world's user in again when an earlier step ended the session. */
async function signedIn(world: PortalWorld): Promise<void> {
  const login = world.page.locator('main').getByRole('button', { name: authCopy.login, exact: true });
  const logout = button(world.page, authCopy.logout);
  await login.or(logout).first().waitFor();
  if (await login.isVisible()) await logInThroughUi(world);
}

for (const way of ['menu', 'bell'] as const) describeDialogs(way);

function describeDialogs(way: 'menu' | 'bell'): void {
  describeUiModel({
    name: 'dialogs',
    machine: dialogsMachine,
    events: {
      'dialogs.open': dialogs
        .filter((dialog) => (dialog === 'notifications') === (way === 'bell'))
        .map((dialog) => ({ type: 'dialogs.open', dialog })),
      'menu.setOpen': [
        { type: 'menu.setOpen', open: true },
        { type: 'menu.setOpen', open: false },
      ],
    },
    // Everything here belongs to a signed-in user: the menu, the bell, the dialogs.
    async open() {
      return openWorld({ signedInAs: await pathUser() });
    },
    views: {
      closed: async (world, state) => {
        const { menuOpen } = contextOf(state);
        if (menuOpen) await menu(world.page).waitFor();
        // No dialog but the menu, when it is open (Radix gives the menu's popover the dialog role).
        await expect.poll(() => world.page.getByRole('dialog').count()).toBe(menuOpen ? 1 : 0);
      },
      open: async (world, state) => {
        const { open } = contextOf(state);
        if (!open) throw new Error('the dialogs chart is open without a dialog');
        await world.page.getByRole('dialog', { name: titles[open] }).waitFor();
        // The entry that opened it closed the menu; the dialog is the only one.
        await expect.poll(() => world.page.getByRole('dialog').count()).toBe(1);
      },
    },
    causes: {
      'menu.setOpen': async (world, event) => {
        if ((event as unknown as { open: boolean }).open) {
          await signedIn(world);
          await openUserMenu(world.page);
        } else {
          await world.page.keyboard.press('Escape');
        }
      },
      'dialogs.open': async (world, event) => {
        const dialog = dialogOf(event);
        if (dialog === 'notifications') {
          await signedIn(world);
          await button(world.page, shellCopy.notifications(0)).click();
          return;
        }
        await menu(world.page).getByRole('button', { name: menuEntries[dialog], exact: true }).click();
      },
      // Escape, as the X and the backdrop do (Radix closes the dialog on each).
      'dialogs.close': async (world) => world.page.keyboard.press('Escape'),
      // The session ends: under an open dialog or menu, by a logout in another tab (the menu's own
      // Log out closes the menu first, a step of its own); otherwise by the portal's Logout button.
      'session.ended': async (world, _event, from) => {
        const { open, menuOpen } = contextOf(from);
        if (open || menuOpen) await logOutInAnotherTab(world);
        else await button(world.page, authCopy.logout).click();
      },
    },
    can: (event, state) => {
      const { open, menuOpen } = contextOf(state);
      switch (event.type) {
        // The menu's trigger is in the header, which an open dialog covers (it is modal).
        case 'menu.setOpen':
          return way === 'menu' && !open && (event as unknown as { open: boolean }).open !== menuOpen;
        // The menu's entries while it is open; the bell while it is closed.
        case 'dialogs.open':
          return !open && (dialogOf(event) === 'notifications') !== menuOpen;
        default:
          return true;
      }
    },
    reasons: {
      'dialogs.open --dialogs.open#0--> dialogs.open':
        'every dialog is modal: while one is open, the menu and the bell behind it can be neither clicked nor reached with the keyboard, so no other dialog can be asked for',
    },
  });
}
