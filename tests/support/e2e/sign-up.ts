import type { Page } from 'playwright-core';
import { authCopy } from '../../../src/copy/index.ts';
import { dialogCopy } from '../../../src/copy/dialogs.ts';
import { PASSWORD, uniqueEmail, type StackInfo } from '../stack/users.ts';
import { sessionStorageKey } from './session.ts';

/**
 * Signs up through the Sign Up dialog (confirmations off) and waits for the signed-in portal; the
 * user id is read from the session the page stored. Takes the gateway outright, so the benchmarks
 * can use it outside the e2e layer. A test that only needs a signed-in user opens the portal with
 * one (`openSignedIn` in ui.ts).
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
  const userId = await page.evaluate((key) => {
    const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as { user?: { id?: unknown } };
    return typeof stored.user?.id === 'string' ? stored.user.id : null;
  }, sessionStorageKey(gateway.url));
  if (!userId) throw new Error('the signed-in page holds no stored session to read the user id from');
  return { email, userId };
}
