import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { authCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { authMachine } from '../../src/machines/auth/auth.machine.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { linkMailedTo } from '../support/e2e/mailbox.ts';
import type { Snapshot } from '../support/model/paths.ts';
import { anonClient } from '../support/stack/users.ts';
import { describeUiModel } from '../support/ui/index.ts';
import {
  acting,
  failHeld,
  hold,
  recordToasts,
  release,
  sawToast,
  type StepWorld,
} from '../support/ui/session.ts';
import { openWorld } from '../support/ui/world.ts';

// The auth chart's password recovery through the portal (docs/product.md#password-recovery):
// 'Forgot password?' in the Login dialog, the request the gateway answers alike for an address with
// an account and one without (and mails only the first), the mailed link opened in the page, and
// the new password typed twice. The rest of the chart is auth.ui.test.ts's; this map causes only the
// recovery's events, so both add to the one chart's coverage.

const KNOWN = 'known'; // the world's user
const NEW = 'new';
const OTHER = 'other';
const typed = { '': '', [NEW]: 'Recovered-pass-2', [OTHER]: 'Recovered-pass-3' } as const;

type RecoveryWorld = StepWorld & {
  /** The address last typed into a form. */
  email: string;
  /** A recovery link was asked for the world's user. */
  mailedKnown: boolean;
};

const recoveryRequest = /\/auth\/v1\/recover/;
const RECOVERY_LINK = /https?:\/\/\S+verify\S+type=recovery\S*/;
const dialogNamed = (page: Page, name: string) => page.getByRole('dialog', { name });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
/** A button of the portal screen, also while a dialog covers it (the page stays in view behind). */
const portalButton = (page: Page, name: string) =>
  page.locator('main').getByRole('button', { name, exact: true, includeHidden: true });
const emailField = (page: Page) =>
  page.getByRole('dialog').getByLabel(dialogCopy.auth.email, { exact: true });

/** The toast each step shows (docs/product.md#auth-toasts). */
function toastOf(world: RecoveryWorld): string | null {
  switch (world.step?.event.type) {
    case 'xstate.done.actor.requestPasswordReset':
      return authCopy.resetSent.title;
    case 'xstate.error.actor.requestPasswordReset':
      return authCopy.resetFailed;
    case 'auth.requestReset':
      return world.step.event['email'] === KNOWN ? null : authCopy.emailRequired.description;
    case 'auth.setPassword': {
      const { password, repeatedPassword } = world.step.event;
      if (password === '') return authCopy.newPasswordsRequired.description;
      return repeatedPassword === password ? null : authCopy.passwordsDiffer.title;
    }
    case 'xstate.done.actor.updatePassword':
      return authCopy.passwordUpdated.title;
    case 'xstate.error.actor.updatePassword':
      return authCopy.passwordUpdateFailed;
    default:
      return null;
  }
}

/** Opens the recovery link mailed to the world's user in the page, as a person does from the mail. */
async function openRecoveryLink(world: RecoveryWorld): Promise<void> {
  const { email } = await world.user();
  if (!world.mailedKnown) {
    const gateway = gatewayFor('full');
    const { error } = await anonClient(gateway).auth.resetPasswordForEmail(email, {
      redirectTo: world.portal.appUrl,
    });
    if (error) throw error;
  }
  const link = await linkMailedTo('full', email, /reset your password/i, RECOVERY_LINK);
  await world.page.goto(link);
  // A new page: its toasts are counted from none.
  world.mark = 0;
}

describeUiModel({
  name: 'auth',
  machine: authMachine,
  input: { clientAvailable: true },
  events: {
    'xstate.done.actor.getSession': [{ type: 'xstate.done.actor.getSession', output: null }],
    'auth.open': [{ type: 'auth.open', mode: 'login' }],
    'auth.forgotPassword': [{ type: 'auth.forgotPassword', email: KNOWN }],
    // An address without an account is answered alike; tests/e2e/password-recovery.e2e.test.ts asks for one.
    'auth.requestReset': [
      { type: 'auth.requestReset', email: KNOWN },
      { type: 'auth.requestReset', email: '' },
    ],
    'xstate.error.actor.requestPasswordReset': [
      { type: 'xstate.error.actor.requestPasswordReset', error: new Error('Failed to fetch') },
    ],
    'auth.change': [{ type: 'auth.change', change: { event: 'PASSWORD_RECOVERY', user: { id: KNOWN } } }],
    'auth.setPassword': [
      { type: 'auth.setPassword', password: '', repeatedPassword: '' },
      { type: 'auth.setPassword', password: NEW, repeatedPassword: NEW },
      { type: 'auth.setPassword', password: NEW, repeatedPassword: OTHER },
    ],
    'xstate.error.actor.updatePassword': [
      { type: 'xstate.error.actor.updatePassword', error: new Error('Failed to fetch') },
    ],
  },
  serializeState: (state) => JSON.stringify([state.value, (state.context as { email: string }).email !== '']),

  async open() {
    const portal = await openWorld({ variant: 'full' });
    const world: RecoveryWorld = {
      ...portal,
      held: null,
      mark: 0,
      step: null,
      email: '',
      mailedKnown: false,
    };
    await recordToasts(world);
    await portal.page.goto(`${portal.portal.appUrl}/`, { waitUntil: 'load' });
    return world;
  },

  passing: {
    'session.available.loading': 'the page reads its (absent) session by itself as it starts',
  },

  views: {
    'session.available.signedOut': (world) => portalButton(world.page, authCopy.login).waitFor(),
    // The recovery link signed the user in, before any new password is set.
    'session.available.signedIn': (world) =>
      world.page
        .locator('main')
        .getByRole('button', { name: authCopy.logout, includeHidden: true })
        .waitFor(),
    'modal.closed': async (world) => {
      await expect.poll(() => world.page.getByRole('dialog').count()).toBe(0);
    },
    'modal.login.editing': (world) =>
      dialogNamed(world.page, authCopy.titleLogin)
        .getByRole('button', { name: authCopy.forgotPassword })
        .waitFor(),
    'modal.forgot.editing': async (world) => {
      const dialog = dialogNamed(world.page, authCopy.titleForgot);
      await dialog.getByText(dialogCopy.auth.forgotHint, { exact: true }).waitFor();
      // The address typed in the Login dialog comes along.
      await expect.poll(() => emailField(world.page).inputValue()).toBe(world.email);
      await expect
        .poll(() => button(world.page, dialogCopy.auth.sendLink).getAttribute('aria-disabled'))
        .toBeNull();
    },
    'modal.forgot.sending': (world) => button(world.page, dialogCopy.auth.sendingLink).waitFor(),
    'modal.resetSent': async (world) => {
      // Words that hold whether or not the address has an account, and the mail in its inbox.
      const dialog = dialogNamed(world.page, authCopy.titleForgot);
      await dialog.getByText(dialogCopy.auth.resetSent(world.email), { exact: true }).waitFor();
      await linkMailedTo('full', world.email, /reset your password/i, RECOVERY_LINK);
    },
    'modal.recovery.editing': async (world) => {
      const dialog = dialogNamed(world.page, authCopy.titleRecovery);
      await dialog.getByText(dialogCopy.auth.recoveryHint, { exact: true }).waitFor();
      // Nothing typed stays in the form.
      for (const label of [dialogCopy.auth.newPassword, dialogCopy.auth.repeatPassword])
        await expect.poll(() => dialog.getByLabel(label, { exact: true }).inputValue()).toBe('');
      // The link's session is not carried in the address bar.
      expect(world.page.url()).not.toContain('access_token');
    },
    'modal.recovery.saving': (world) => button(world.page, dialogCopy.auth.savingPassword).waitFor(),
    '*': async (world) => {
      const toast = toastOf(world);
      if (toast) await sawToast(world.page, toast, world.mark);
    },
  },

  arrange: {
    'modal.forgot.sending': (world) => hold(world, recoveryRequest, 'POST'),
    'modal.recovery.saving': (world) => hold(world, /\/auth\/v1\/user/, 'PUT'),
  },

  causes: {
    'auth.open': acting((world) => portalButton(world.page, authCopy.login).click()),
    'auth.forgotPassword': acting(async (world) => {
      world.email = (await world.user()).email;
      await emailField(world.page).fill(world.email);
      await button(world.page, authCopy.forgotPassword).click();
    }),
    'auth.requestReset': acting(async (world, event) => {
      // The model's empty address is sent empty; its other one is the world's user's.
      world.email = event['email'] === KNOWN ? (await world.user()).email : '';
      world.mailedKnown ||= event['email'] === KNOWN;
      await emailField(world.page).fill(world.email);
      await button(world.page, dialogCopy.auth.sendLink).click();
    }),
    'xstate.done.actor.requestPasswordReset': acting(release),
    'xstate.error.actor.requestPasswordReset': acting(failHeld),
    'auth.backToLogin': acting((world) => button(world.page, dialogCopy.auth.backToLogin).click()),
    'auth.confirmOk': acting((world) => button(world.page, authCopy.confirmOk).click()),
    'auth.close': acting(async (world, _event, from) => {
      if (!from.matches({ modal: 'recovery' })) return world.page.keyboard.press('Escape');
      // The link works once: Escape and the backdrop leave its form open, only its ✕ closes it.
      await world.page.keyboard.press('Escape');
      await world.page.mouse.click(4, 4);
      await world.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
      expect(await dialogNamed(world.page, authCopy.titleRecovery).count()).toBe(1);
      await dialogNamed(world.page, authCopy.titleRecovery).getByRole('button', { name: 'Close' }).click();
    }),
    'auth.change': acting(openRecoveryLink),
    'auth.setPassword': acting(async (world, event: AnyEventObject) => {
      const dialog = dialogNamed(world.page, authCopy.titleRecovery);
      const value = (key: unknown) => typed[key as keyof typeof typed];
      await dialog.getByLabel(dialogCopy.auth.newPassword, { exact: true }).fill(value(event['password']));
      await dialog
        .getByLabel(dialogCopy.auth.repeatPassword, { exact: true })
        .fill(value(event['repeatedPassword']));
      await button(world.page, dialogCopy.auth.savePassword).click();
    }),
    'xstate.done.actor.updatePassword': acting(release),
    'xstate.error.actor.updatePassword': acting(failHeld),
  },

  can: (event, state: Snapshot) => {
    const signedIn = state.matches({ session: { available: 'signedIn' } });
    switch (event.type) {
      // The page reads its session as it starts, and the gateway answers (auth.ui.test.ts fails it).
      case 'xstate.error.actor.getSession':
        return false;
      // A visitor opens the Login dialog; once the recovery link signed them in, Login is gone.
      case 'auth.open':
        return !signedIn;
      // The link is opened from the mail, with the dialog closed or still saying where it went.
      case 'auth.change':
        return !signedIn && (state.matches({ modal: 'closed' }) || state.matches({ modal: 'resetSent' }));
      default:
        return true;
    }
  },

  reasons: {
    'auth.modal.closed --always#0--> auth.modal.forgot':
      "the page's input, not an event: tests/e2e/password-recovery.e2e.test.ts opens a used link, which the boot reads as a failed one",
    'auth.modal.forgot.sending --xstate.error.actor.requestPasswordReset#0--> auth.modal.resetSent':
      "neither gateway of the local stack refuses a reset as too soon (lite mails every one it is asked for); hosted GoTrue's 429 over_email_send_rate_limit is auth.model.test.ts's",
    'auth.modal.forgot.editing --auth.requestReset#1--> (stays)':
      "every e2e build has a Supabase configuration: the portal without one (no client, the spec's 'Initialization Error') is not built for the browser tests",
  },
});
