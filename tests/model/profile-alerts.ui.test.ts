import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { profileCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { emailAlertsOf } from '../../src/domain/email-alerts.ts';
import type { Profile } from '../../src/domain/profile.ts';
import { profileMachine } from '../../src/machines/profile/profile.machine.ts';
import { ada, profileRow } from '../support/fixtures.ts';
import { openProfileDialog } from '../support/e2e/ui.ts';
import type { Snapshot } from '../support/model/paths.ts';
import { describeUiModel } from '../support/ui/index.ts';
import {
  acting,
  failHeld,
  hold,
  recordToastsIn,
  release,
  sawToast,
  type StepWorld,
} from '../support/ui/session.ts';
import { openWorld, pathUser } from '../support/ui/world.ts';

// The profile chart's email alerts through the portal (docs/product.md#email-alerts): the profile
// dialog's Notifications section, whose choice is saved at once against the real gateway, held
// while the page says it saves, then let through or failed as a stopped server fails it. The rest
// of the chart is profile.ui.test.ts's; this map causes only the alerts' events.

const CHOICE = { kind: 'transfers', on: true } as const;
const profileOf = (state: Snapshot) => (state.context as { profile: Profile | null }).profile;

const dialogOf = (page: Page) => page.getByRole('dialog', { name: dialogCopy.profile.title });
const transfersBox = (page: Page) =>
  dialogOf(page).getByRole('checkbox', { name: dialogCopy.profile.emailTransfers, exact: true });

function toastOf(world: StepWorld): string | null {
  switch (world.step?.event.type) {
    case 'xstate.done.actor.saveEmailAlert':
      return profileCopy.emailAlertsSaved.title;
    case 'xstate.error.actor.saveEmailAlert':
      return profileCopy.emailAlertsFailed;
    default:
      return null;
  }
}

describeUiModel({
  name: 'profile',
  machine: profileMachine,
  input: { user: ada, walletAddress: null },
  events: {
    'xstate.done.actor.profileLoad': [
      { type: 'xstate.done.actor.profileLoad', output: { profile: profileRow(ada), created: false } },
    ],
    'profile.setEmailAlert': [{ type: 'profile.setEmailAlert', ...CHOICE }],
    'xstate.done.actor.saveEmailAlert': [
      {
        type: 'xstate.done.actor.saveEmailAlert',
        output: { email: { transfers: true } },
      },
    ],
    'xstate.error.actor.saveEmailAlert': [
      { type: 'xstate.error.actor.saveEmailAlert', error: new Error('Failed to fetch') },
    ],
  },

  async open() {
    const portal = await openWorld({
      signedInAs: await pathUser(),
      // The toasts are recorded from the page's start.
      beforeLoad: (page) => recordToastsIn(page.context()),
    });
    // The profile is read (and, for a new user, created with a POST of its own) before any step:
    // the dialog shows its form only then, so the save's POST is the only one a step holds.
    await openProfileDialog(portal.page);
    return { ...portal, held: null, mark: 0, step: null } satisfies StepWorld;
  },

  passing: { loading: 'the signed-in page reads the profile by itself as it starts' },

  views: {
    // What the section shows is what the profile holds: a failed save shows the old choice again.
    ready: async (world, state) => {
      const expected = emailAlertsOf(profileOf(state)?.notification_preferences).transfers;
      await expect.poll(() => transfersBox(world.page).isChecked()).toBe(expected);
      await expect.poll(() => transfersBox(world.page).getAttribute('aria-disabled')).toBe('false');
    },
    // Busy, the box keeps its focus and says so; the page says it saves.
    savingEmailAlert: async (world) => {
      await dialogOf(world.page).getByText(dialogCopy.profile.savingAlerts, { exact: true }).waitFor();
      await expect.poll(() => transfersBox(world.page).getAttribute('aria-disabled')).toBe('true');
      await expect
        .poll(() => transfersBox(world.page).evaluate((box) => box === document.activeElement))
        .toBe(true);
    },
    '*': async (world) => {
      const toast = toastOf(world);
      if (toast) await sawToast(world.page, toast, world.mark);
    },
  },

  arrange: {
    savingEmailAlert: (world) => hold(world, /\/rest\/v1\/rpc\/set_email_alert/, 'POST'),
  },

  causes: {
    'profile.setEmailAlert': acting(async (world) => {
      // A click, not check(): the box shows what the profile holds, which changes only once saved.
      await transfersBox(world.page).click();
    }),
    'xstate.done.actor.saveEmailAlert': acting(release),
    'xstate.error.actor.saveEmailAlert': acting(failHeld),
  },

  reasons: {
    'profile.ready --profile.setEmailAlert#0--> (stays)':
      'the section offers no choice to an account without an email: it says why instead (tests/e2e/wallet-proof.e2e.test.ts signs in with a wallet only)',
  },
});
