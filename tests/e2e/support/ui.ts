import type { Locator, Page } from 'playwright-core';
import { appCopy, authCopy, dialogCopy, shellCopy } from '../../../src/copy/index.ts';
import { anonClient, PASSWORD, serviceClient, uniqueEmail } from '../../support/clients.ts';
import { gatewayFor } from './context.ts';

// What several e2e files do the way a person does it: read a toast, sign up
// through the dialog. One copy, so a change to the dialog is one edit here.

/** A toast's title or description; the toast regions stay readable even under a modal dialog. */
export const toast = (page: Page, text: string, exact = true) =>
  page.locator('[aria-live]').getByText(text, { exact });

/** The service-role client of the `full` variant's gateway, to write what the backend would. */
export const admin = () => serviceClient(gatewayFor('full'));

/** Signs up through the Sign Up dialog (confirmations off) and waits for the signed-in portal. */
export async function signUpThroughUi(page: Page, label: string): Promise<{ email: string; userId: string }> {
  const email = uniqueEmail(label);
  await page.getByRole('button', { name: authCopy.signUp, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: authCopy.titleSignUp });
  await dialog.getByLabel(dialogCopy.auth.email, { exact: true }).fill(email);
  await dialog.getByLabel(dialogCopy.auth.password, { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: authCopy.signUp, exact: true }).click();
  await page.getByRole('button', { name: authCopy.logout, exact: true }).waitFor();
  // The page keeps its session to itself; a second sign-in from Node reads the user id.
  const { data, error } = await anonClient(gatewayFor('full')).auth.signInWithPassword({
    email,
    password: PASSWORD,
  });
  if (error || !data.user) throw new Error(`could not read the user id: ${error?.message}`);
  return { email, userId: data.user.id };
}

/** Opens Edit Profile from the user menu and waits until its form holds the loaded profile. */
export async function openProfileDialog(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: new RegExp(`^${shellCopy.userMenu('')}`) }).click();
  await page.getByRole('button', { name: appCopy.menu.profile, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: dialogCopy.profile.title });
  await dialog.getByLabel(dialogCopy.profile.username, { exact: true }).waitFor();
  return dialog;
}
