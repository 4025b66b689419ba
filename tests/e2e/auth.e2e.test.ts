import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { authCopy, shellCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { anonClient, PASSWORD, uniqueEmail } from '../support/stack/users.ts';
import { runAxe } from '../support/e2e/axe.ts';
import { openPortal } from '../support/e2e/browser.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { confirmationLink } from '../support/e2e/mailbox.ts';

// docs/product.md#auth-dialog, #session, #email-and-password and #auth-toasts: what a
// person sees signing up (both confirmation modes), logging in and closing the dialog.

/** The toast regions stay in the accessibility tree's live regions even under a modal. */
const toast = (page: Page, title: string) => page.locator('[aria-live]').getByText(title, { exact: true });

async function openAuth(page: Page, mode: 'login' | 'signup') {
  await page
    .getByRole('button', { name: mode === 'login' ? authCopy.login : authCopy.signUp, exact: true })
    .click();
  const dialog = page.getByRole('dialog', {
    name: mode === 'login' ? authCopy.titleLogin : authCopy.titleSignUp,
  });
  await dialog.waitFor();
  return dialog;
}

async function fill(page: Page, email: string, password: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(dialogCopy.auth.email, { exact: true }).fill(email);
  await dialog.getByLabel(dialogCopy.auth.password, { exact: true }).fill(password);
}

const signedIn = (page: Page) => page.getByRole('button', { name: authCopy.logout, exact: true });

describe('auth dialog', () => {
  it('requires both fields, then signs up with confirmations off: Signup Successful! and the signed-in portal', async () => {
    const { page, pageErrors } = await openPortal();
    const dialog = await openAuth(page, 'signup');
    const email = uniqueEmail('signup');

    expect(await runAxe(page, 'sign-up dialog, light', { include: '[role="dialog"]' })).toEqual([]);
    const emailField = dialog.getByLabel(dialogCopy.auth.email, { exact: true });
    const password = dialog.getByLabel(dialogCopy.auth.password, { exact: true });
    expect(await password.getAttribute('autocomplete')).toBe('new-password');
    expect(await emailField.getAttribute('type')).toBe('email');

    // Both fields are required (docs/product.md#email-and-password): the browser keeps the form
    // open on the empty email.
    expect(await emailField.evaluate((input: HTMLInputElement) => input.required)).toBe(true);
    expect(await password.evaluate((input: HTMLInputElement) => input.required)).toBe(true);
    await dialog.getByRole('button', { name: authCopy.signUp, exact: true }).click();
    expect(await emailField.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    await page.getByRole('dialog', { name: authCopy.titleSignUp }).waitFor();

    await fill(page, email, PASSWORD);
    await dialog.getByRole('button', { name: authCopy.signUp, exact: true }).click();

    await toast(page, authCopy.signupSuccess.title).waitFor();
    await expect.poll(() => toast(page, authCopy.signupSuccess.description).count()).toBe(1);
    await signedIn(page).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('button', { name: shellCopy.userMenu(email.split('@')[0] ?? '') }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('signs up with confirmations on: Confirm Your Email with the address, then the mailed link signs in', async () => {
    const { page } = await openPortal({ variant: 'confirmEmail', colorScheme: 'dark' });
    const dialog = await openAuth(page, 'signup');
    const email = uniqueEmail('confirm');
    await fill(page, email, PASSWORD);
    await dialog.getByRole('button', { name: authCopy.signUp, exact: true }).click();

    const check = page.getByRole('dialog', { name: authCopy.confirmTitle });
    await check.waitFor();
    await toast(page, authCopy.confirmationSent.title).waitFor();
    await check.getByText(email, { exact: false }).waitFor();
    await check.getByText(authCopy.confirmSpamHint, { exact: true }).waitFor();
    // The password left the page with the form.
    expect(await check.locator('input[type="password"]').count()).toBe(0);
    expect(await runAxe(page, 'check-your-email dialog, dark', { include: '[role="dialog"]' })).toEqual([]);

    await check.getByRole('button', { name: authCopy.confirmOk, exact: true }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await signedIn(page).count()).toBe(0);

    await page.goto(await confirmationLink('confirmEmail', email));
    await signedIn(page).waitFor();
  });

  it('refuses a wrong password with Login Failed and the server message, then logs in', async () => {
    const gateway = gatewayFor('full');
    const email = uniqueEmail('login');
    const signUp = await anonClient(gateway).auth.signUp({ email, password: PASSWORD });
    expect(signUp.error).toBeNull();
    const refused = await anonClient(gateway).auth.signInWithPassword({
      email,
      password: 'wrong-password-1',
    });
    const serverMessage = refused.error?.message ?? '';
    expect(serverMessage).not.toBe('');

    const { page } = await openPortal({ colorScheme: 'dark' });
    const dialog = await openAuth(page, 'login');
    expect(await runAxe(page, 'login dialog, dark', { include: '[role="dialog"]' })).toEqual([]);
    const passwordInput = dialog.getByLabel(dialogCopy.auth.password, { exact: true });
    expect(await passwordInput.getAttribute('autocomplete')).toBe('current-password');

    await fill(page, email, 'wrong-password-1');
    await dialog.getByRole('button', { name: authCopy.login, exact: true }).click();
    await toast(page, authCopy.loginFailed).waitFor();
    await toast(page, serverMessage).waitFor();
    // Still open, the email kept, the password gone.
    expect(await dialog.getByLabel(dialogCopy.auth.email, { exact: true }).inputValue()).toBe(email);
    expect(await passwordInput.inputValue()).toBe('');

    // While the request runs the button says so.
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/auth/v1/token**', async (route) => {
      await held;
      await route.continue();
    });
    await passwordInput.fill(PASSWORD);
    await dialog.getByRole('button', { name: authCopy.login, exact: true }).click();
    await dialog.getByRole('button', { name: dialogCopy.auth.loggingIn, exact: true }).waitFor();
    expect(await passwordInput.inputValue()).toBe('');
    release();

    await toast(page, authCopy.loginSuccess.title).waitFor();
    await signedIn(page).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('closes at once while a login runs; the login that succeeds still signs the user in', async () => {
    const gateway = gatewayFor('full');
    const email = uniqueEmail('login-closed');
    expect((await anonClient(gateway).auth.signUp({ email, password: PASSWORD })).error).toBeNull();

    const { page } = await openPortal();
    const dialog = await openAuth(page, 'login');
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/auth/v1/token**', async (route) => {
      await held;
      await route.continue();
    });
    await fill(page, email, PASSWORD);
    await dialog.getByRole('button', { name: authCopy.login, exact: true }).click();
    await dialog.getByRole('button', { name: dialogCopy.auth.loggingIn, exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    release();
    await signedIn(page).waitFor();
    // The answer of a request whose dialog was closed shows nothing of its own.
    expect(await toast(page, authCopy.loginSuccess.title).count()).toBe(0);
    // Opened again, the form is empty.
    await page.getByRole('button', { name: authCopy.logout, exact: true }).click();
    await toast(page, authCopy.loggedOut.title).waitFor();
    const again = await openAuth(page, 'login');
    expect(await again.getByLabel(dialogCopy.auth.email, { exact: true }).inputValue()).toBe('');
  });

  it('toggles between the modes and resets the fields when closed by Escape, the backdrop or X', async () => {
    const { page } = await openPortal();
    let dialog = await openAuth(page, 'login');
    await dialog.getByRole('button', { name: authCopy.signUp, exact: true }).click();
    await page.getByRole('dialog', { name: authCopy.titleSignUp }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: authCopy.login, exact: true }).click();
    await page.getByRole('dialog', { name: authCopy.titleLogin }).waitFor();

    const closers: [string, () => Promise<void>][] = [
      ['Escape', () => page.keyboard.press('Escape')],
      ['backdrop', () => page.mouse.click(4, 4)],
      ['X', () => page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()],
    ];
    for (const [how, close] of closers) {
      await fill(page, 'someone@example.com', 'typed-secret');
      await close();
      await expect.poll(() => page.getByRole('dialog').count(), { message: how }).toBe(0);
      dialog = await openAuth(page, 'login');
      expect(await dialog.getByLabel(dialogCopy.auth.email, { exact: true }).inputValue(), how).toBe('');
      expect(await dialog.getByLabel(dialogCopy.auth.password, { exact: true }).inputValue(), how).toBe('');
    }
    // Focus starts in the form, and Tab stays inside the dialog.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    for (let i = 0; i < 8; i += 1) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
  });
});
