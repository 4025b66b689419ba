import type { Page } from 'playwright-core';
import { authCopy, dialogCopy } from '../../../src/copy/index.ts';
import { anonClient, PASSWORD, uniqueEmail, type StackInfo } from '../../support/clients.ts';

/**
 * Signs up through the Sign Up dialog (confirmations off) and waits for the signed-in portal; the
 * user id is read by signing in from Node too, since the page keeps its session to itself. Takes
 * the gateway outright, so the benchmarks can use it outside the e2e layer.
 */
export async function signUpOnPage(
  page: Page,
  gateway: StackInfo,
  label: string,
): Promise<{ email: string; userId: string }> {
  const email = uniqueEmail(label);
  await page.getByRole('button', { name: authCopy.signUp, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: authCopy.titleSignUp });
  await dialog.getByLabel(dialogCopy.auth.email, { exact: true }).fill(email);
  await dialog.getByLabel(dialogCopy.auth.password, { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: authCopy.signUp, exact: true }).click();
  await page.getByRole('button', { name: authCopy.logout, exact: true }).waitFor();
  const { data, error } = await anonClient(gateway).auth.signInWithPassword({ email, password: PASSWORD });
  if (error || !data.user) throw new Error(`could not read the user id: ${error?.message}`);
  return { email, userId: data.user.id };
}
