import type { Locator, Page } from 'playwright-core';
import { appCopy, authCopy, shellCopy } from '../../../src/copy/index.ts';
import { dialogCopy } from '../../../src/copy/dialogs.ts';
import { serviceClient } from '../stack/users.ts';
import { openPortal, type Portal, type PortalOptions } from './browser.ts';
import { gatewayFor } from './context.ts';
import { feedJoined } from './feed.ts';
import { signUpByApi, type SeededUser } from './session.ts';
import { signUpOnPage } from './sign-up.ts';

// What several e2e files do the way a person does it: read a toast, sign up
// through the dialog. One copy, so a change to the dialog is one edit here.
// A test whose subject is not signing up opens the portal signed in instead.

/** A toast's title or description; the toast regions stay readable even under a modal dialog. */
export const toast = (page: Page, text: string, exact = true) =>
  page.locator('[aria-live]').getByText(text, { exact });

/**
 * Every text that enters the toast regions from now on, as it enters. A toast that another one
 * replaces at once (one toast at a time: a claim's answer, then the notice of the transfer it
 * paid) is still seen, which waiting for it on screen could miss.
 */
export async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __toastsSeen: string[] }).__toastsSeen = seen;
    // A toast replaced by another may keep its nodes and change their text (characterData).
    const regionOf = (node: Node) =>
      (node instanceof Element ? node : node.parentElement)?.closest('[aria-live]') ?? null;
    new MutationObserver((records) => {
      for (const record of records) {
        const nodes = record.type === 'characterData' ? [record.target] : [...record.addedNodes];
        for (const node of nodes) if (regionOf(node) && node.textContent) seen.push(node.textContent);
      }
    }).observe(document.body, { childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { __toastsSeen: string[] }).__toastsSeen);
}

/** The service-role client of the `full` variant's gateway, to write what the backend would. */
export const admin = () => serviceClient(gatewayFor('full'));

/** Signs up through the Sign Up dialog of the `full` variant (confirmations off). */
export const signUpThroughUi = (page: Page, label: string) => signUpOnPage(page, gatewayFor('full'), label);

export type SignedInPortal = Portal & {
  user: SeededUser;
  /** Resolves once the live notifications feed has joined (a row inserted before arrives as no toast). */
  feed: Promise<void>;
};

/**
 * Opens the portal signed in as a new user: made through the gateway's auth API, their session
 * stored before the page loads (session.ts), so the portal starts with it as after a sign-up; waits
 * for the signed-in header. For tests whose subject is not the sign-up; `signUpThroughUi` goes
 * through the dialog.
 */
export async function openSignedIn(
  label: string,
  options: Omit<PortalOptions, 'session'> = {},
): Promise<SignedInPortal> {
  const user = await signUpByApi(gatewayFor(options.variant ?? 'full'), label);
  let feed: Promise<void> = new Promise(() => undefined);
  const portal = await openPortal({
    ...options,
    session: user.session,
    beforeLoad: async (page) => {
      feed = feedJoined(page);
      await options.beforeLoad?.(page);
    },
  });
  await portal.page.getByRole('button', { name: authCopy.logout, exact: true }).waitFor();
  return { ...portal, user, feed };
}

/** Opens the signed-in user's menu, whatever their name. */
export const openUserMenu = (page: Page) =>
  page.getByRole('button', { name: new RegExp(`^${shellCopy.userMenu('')}`) }).click();

/** The text shown for a balance, by its label (the <dd> after the <dt>): grouped and cut for reading. */
export const balanceValue = (page: Page, label: string) =>
  page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

/** A balance as the panel shows one read, in the tests' en-US: grouped, maybe with decimals. */
export const READABLE_AMOUNT = /^\d{1,3}(,\d{3})*(\.\d+)?$/;

/** A balance's exact value, as read (its hover title); null while none is on show. */
export const balanceExact = (page: Page, label: string) => balanceValue(page, label).getAttribute('title');

/** Opens Edit Profile from the user menu and waits until its form holds the loaded profile. */
export async function openProfileDialog(page: Page): Promise<Locator> {
  await openUserMenu(page);
  await page.getByRole('button', { name: appCopy.menu.profile, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: dialogCopy.profile.title });
  await dialog.getByLabel(dialogCopy.profile.username, { exact: true }).waitFor();
  return dialog;
}
