import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { authCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { openPortal } from '../support/e2e/browser.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { linkMailedTo, mailedTo } from '../support/e2e/mailbox.ts';
import { button, logIn } from '../support/e2e/portal-page.ts';
import { toast } from '../support/e2e/ui.ts';
import { signedInUser, uniqueEmail } from '../support/stack/users.ts';

// A forgotten password (docs/product.md#password-recovery), recovered from the mail the local
// mailbox received: 'Forgot password?' in the Login dialog, the mailed link opened in the page,
// the new password typed twice; then the new password logs in and the old one does not. An address
// without an account is answered in the same words, and nothing is mailed to it.

const NEW_PASSWORD = 'Recovered-pass-9';
const RECOVERY_LINK = /https?:\/\/\S+verify\S+type=recovery\S*/;

async function askForReset(page: Page, email: string): Promise<void> {
  await button(page, authCopy.login).click();
  const login = page.getByRole('dialog', { name: authCopy.titleLogin });
  await login.getByRole('button', { name: authCopy.forgotPassword, exact: true }).click();
  const forgot = page.getByRole('dialog', { name: authCopy.titleForgot });
  await forgot.getByLabel(dialogCopy.auth.email, { exact: true }).fill(email);
  await forgot.getByRole('button', { name: dialogCopy.auth.sendLink, exact: true }).click();
  await forgot.getByText(dialogCopy.auth.resetSent(email), { exact: true }).waitFor();
  await toast(page, authCopy.resetSent.title).waitFor();
  await forgot.getByRole('button', { name: authCopy.confirmOk, exact: true }).click();
}

describe('a forgotten password', () => {
  it('is recovered from the mailed link: the new password logs in, the old one no longer does', async () => {
    const user = await signedInUser(gatewayFor('full'), 'recovery');
    const { page, pageErrors } = await openPortal();
    await askForReset(page, user.email);

    await page.goto(await linkMailedTo('full', user.email, /reset your password/i, RECOVERY_LINK));
    const choose = page.getByRole('dialog', { name: authCopy.titleRecovery });
    await choose.getByLabel(dialogCopy.auth.newPassword, { exact: true }).fill(NEW_PASSWORD);
    await choose.getByLabel(dialogCopy.auth.repeatPassword, { exact: true }).fill(NEW_PASSWORD);
    await choose.getByRole('button', { name: dialogCopy.auth.savePassword, exact: true }).click();
    await toast(page, authCopy.passwordUpdated.title).waitFor();
    await button(page, authCopy.logout).click();
    await button(page, authCopy.login).waitFor();

    // The old password is refused.
    await button(page, authCopy.login).click();
    const login = page.getByRole('dialog', { name: authCopy.titleLogin });
    await login.getByLabel(dialogCopy.auth.email, { exact: true }).fill(user.email);
    await login.getByLabel(dialogCopy.auth.password, { exact: true }).fill(user.password);
    await login.getByRole('button', { name: authCopy.login, exact: true }).click();
    await toast(page, authCopy.loginFailed).waitFor();
    await page.keyboard.press('Escape');

    // The new one logs in.
    await logIn(page, { ...user, password: NEW_PASSWORD });
    expect(pageErrors).toEqual([]);
  });

  it('is answered alike for an address with no account, and nothing is mailed to it', async () => {
    const nobody = uniqueEmail('recovery-nobody');
    const user = await signedInUser(gatewayFor('full'), 'recovery-twice');
    const { page, pageErrors } = await openPortal();
    // askForReset waits for the same words and toast each time: no account, an account, and that
    // account asked again at once (which hosted GoTrue refuses as too soon, HTTP 429).
    await askForReset(page, nobody);
    await askForReset(page, user.email);
    await askForReset(page, user.email);

    // Asked for first, a mail to the address without an account would be in by the time the
    // account's link is: only then does its empty inbox say anything.
    await linkMailedTo('full', user.email, /reset your password/i, RECOVERY_LINK);
    expect(await mailedTo('full', nobody)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
