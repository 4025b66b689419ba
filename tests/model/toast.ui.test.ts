import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { appCopy, authCopy, shellCopy, walletCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { toastDurations, toastMachine } from '../../src/machines/toast.machine.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { button } from '../support/e2e/portal-page.ts';
import { toast } from '../support/e2e/ui.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { openWorld, type PortalWorld } from '../support/ui/world.ts';

// The toaster through the portal, with toasts a visitor really gets: the welcome (shown only if
// no other toast is on screen when loading finishes) and a refused login. The wallet's silent
// reconnect is held, so loading has not finished until a step lets it go: until then the welcome
// is still to be decided, and a step may show another toast before it.

const viewer = e2eAccount('viewer');

const WELCOME: ToastRequest = { ...appCopy.welcome, durationMs: toastDurations.welcome, onlyIfIdle: true };
const LOGIN_FAILED: ToastRequest = { title: authCopy.loginFailed, variant: 'destructive' };

type Shown = { title: string; variant?: string } | null;
const shownOf = (context: unknown) => (context as { toast: Shown }).toast;
const countOf = (context: unknown) => (context as { shown: number }).shown;
const requestOf = (event: object) => (event as { toast: ToastRequest }).toast;

const dismissButtons = (world: PortalWorld) =>
  world.page.getByRole('button', { name: shellCopy.dismissToast, exact: true });

/** Logs in as nobody the gateway knows and waits for the refusal's toast. */
async function failLogin(world: PortalWorld) {
  const { page } = world;
  await button(page, authCopy.login).click();
  const dialog = page.getByRole('dialog', { name: authCopy.titleLogin });
  await dialog.getByLabel(dialogCopy.auth.email).fill(`ui-toast-${randomUUID().slice(0, 8)}@example.com`);
  await dialog.getByLabel(dialogCopy.auth.password).fill('not-the-password');
  await dialog.getByRole('button', { name: authCopy.login, exact: true }).click();
  await toast(page, authCopy.loginFailed).waitFor();
  // The modal dialog keeps the toaster out of reach; closing it shows no toast of its own.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

describeUiModel({
  name: 'toast',
  machine: toastMachine,
  events: {
    'toast.show': [WELCOME, LOGIN_FAILED].map((request) => ({
      type: 'toast.show',
      toast: request,
    })),
  },
  // Which toast shows, and (up to two) how many were shown: the welcome is decided once, while
  // loading, so it can follow at most one other toast.
  serializeState: (state) =>
    JSON.stringify([state.value, shownOf(state.context)?.title ?? null, Math.min(countOf(state.context), 2)]),

  async open(path) {
    return openWorld({
      clock: path.events.some((event) => event.type.startsWith('xstate.after.')),
      // Not connected before: the reconnect finds nobody, and its answer waits for the welcome step.
      wallet: { account: viewer, holdFirst: true },
    });
  },

  views: {
    idle: async (world) => {
      await expect.poll(() => dismissButtons(world).count()).toBe(0);
    },
    showing: async (world, state) => {
      const shown = shownOf(state.context);
      if (!shown) throw new Error('the model shows no toast in showing');
      // Errors are announced at once (the alert region), news politely (the status region).
      const region = world.page.getByRole(shown.variant === 'destructive' ? 'alert' : 'status');
      await region.getByText(shown.title, { exact: true }).waitFor();
      if (shown.title === WELCOME.title)
        await region.getByText(appCopy.welcome.description, { exact: true }).waitFor();
      // One toast at a time: the new one replaced the old.
      expect(await dismissButtons(world).count()).toBe(1);
    },
  },

  causes: {
    'toast.show': async (world, event) => {
      if (requestOf(event).title !== WELCOME.title) return failLogin(world);
      // Loading finishes: the wallet's reconnect answers (nobody), and the portal decides.
      await world.page.evaluate(() => window.__mockWalletRelease?.());
      await expect.poll(() => button(world.page, walletCopy.connectWallet).isEnabled()).toBe(true);
    },
    'toast.dismiss': async (world) => dismissButtons(world).click(),
  },
  can: (event, state) => {
    if (event.type !== 'toast.show') return true;
    const { title } = requestOf(event);
    const shown = shownOf(state.context);
    // The same words again look like nothing happened.
    if (shown?.title === title) return false;
    if (title !== WELCOME.title) return true;
    // Loading finishes once: first thing, or right after the one toast shown while it loaded.
    return shown === null ? countOf(state.context) === 0 : countOf(state.context) === 1;
  },
  notUiReachable: {
    'toast.action':
      "the one toast with an action, 'MetaMask is not installed' with 'Use a local test wallet', needs a page without any wallet: the wallet's UI paths press it (wallet.ui.test.ts), as tests/e2e/local-wallet.e2e.test.ts does; this world's page has the mock wallet",
  },
});
