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
// without an account is answered in the same words, and nothing is mailed to it. The link's session
// stays out of the browser's history and out of other open tabs' dialogs, and a link used up says so.

const NEW_PASSWORD = 'Recovered-pass-9';
const RECOVERY_LINK = /https?:\/\/\S+verify\S+type=recovery\S*/;
const SESSION_IN_URL = /access_token|refresh_token/;

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

  it("leaves the link's session in no history entry, and another open tab is not asked for a password", async () => {
    const user = await signedInUser(gatewayFor('full'), 'recovery-history');
    const { page, context, appUrl, pageErrors } = await openPortal();
    const other = await context.newPage();
    await other.goto(appUrl, { waitUntil: 'load' });
    await button(other, authCopy.login).waitFor();
    await askForReset(page, user.email);

    await page.goto(await linkMailedTo('full', user.email, /reset your password/i, RECOVERY_LINK));
    await page.getByRole('dialog', { name: authCopy.titleRecovery }).waitFor();
    expect(page.url()).not.toMatch(SESSION_IN_URL);

    // The other tab shares the session, so it is signed in too (its Logout is there, also under a
    // dialog); the link was not opened there, so no dialog asks it for a password.
    await other
      .locator('main')
      .getByRole('button', { name: authCopy.logout, exact: true, includeHidden: true })
      .waitFor({ state: 'attached' });
    const otherTabDialogs = await other.getByRole('dialog').count();

    // Back to the entry before: the portal as it was before the link, not the link's session
    // (supabase-js's own `location.hash = ''` added an entry and left the tokens in that one).
    await page.goBack({ waitUntil: 'commit' });
    const before = page.url();
    expect({ otherTabDialogs, sessionInHistory: SESSION_IN_URL.test(before) }).toEqual({
      otherTabDialogs: 0,
      sessionInHistory: false,
    });
    expect(pageErrors).toEqual([]);
  });

  it('opened a second time, says the link is used up and offers a new one', async () => {
    const user = await signedInUser(gatewayFor('full'), 'recovery-reused');
    const { page, pageErrors } = await openPortal();
    await askForReset(page, user.email);
    const link = await linkMailedTo('full', user.email, /reset your password/i, RECOVERY_LINK);
    await page.goto(link);
    await page.getByRole('dialog', { name: authCopy.titleRecovery }).waitFor();

    // What the gateway answers a used link: the portal, with the failure in the fragment.
    const used = await fetch(link, { redirect: 'manual' });
    expect(used.headers.get('location')).toMatch(/#error=access_denied&error_code=otp_expired&/);

    await page.goto(link);
    await toast(page, authCopy.linkFailed.title).waitFor();
    await toast(page, authCopy.linkFailed.description).waitFor();
    const forgot = page.getByRole('dialog', { name: authCopy.titleForgot });
    await forgot.getByRole('button', { name: dialogCopy.auth.sendLink, exact: true }).waitFor();
    expect(page.url()).not.toContain('error');
    expect(pageErrors).toEqual([]);
  });
});
