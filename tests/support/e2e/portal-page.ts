import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { authCopy, balanceCopy, shellCopy, shortAddress, walletCopy } from '../../../src/copy/index.ts';
import { dialogCopy } from '../../../src/copy/dialogs.ts';
import { serviceClient, type TestUser } from '../stack/users.ts';
import { openPortal, type PortalOptions, type WalletSetup } from './browser.ts';
import { gatewayFor } from './context.ts';
import { balanceValue } from './ui.ts';

// The portal screen as the portal tests and the README screenshots drive it:
// open it with the mock wallet, log in, connect, wait for the balances, clear
// the toasts, give a user an avatar.

export function button(page: Page, name: string) {
  return page.getByRole('button', { name, exact: true });
}

export async function openWithWallet(setup: WalletSetup, options: Omit<PortalOptions, 'wallet'> = {}) {
  const portal = await openPortal({ ...options, wallet: setup });
  const { wallet } = portal;
  if (!wallet) throw new Error('the portal opened without the mock wallet');
  return { ...portal, wallet };
}

export async function connect(page: Page, address: string, label: string = walletCopy.connectWallet) {
  await button(page, label).click();
  await page.getByText(shortAddress(address), { exact: true }).waitFor();
}

export async function balancesLoaded(page: Page) {
  await expect.poll(() => balanceValue(page, balanceCopy.native).textContent()).not.toBe(balanceCopy.loading);
  await expect.poll(() => balanceValue(page, balanceCopy.token).textContent()).not.toBe(balanceCopy.loading);
}

export async function logIn(page: Page, user: TestUser) {
  await button(page, authCopy.login).click();
  const dialog = page.getByRole('dialog', { name: authCopy.titleLogin });
  await dialog.getByLabel(dialogCopy.auth.email).fill(user.email);
  await dialog.getByLabel(dialogCopy.auth.password).fill(user.password);
  await dialog.getByRole('button', { name: authCopy.login, exact: true }).click();
  await button(page, authCopy.logout).waitFor();
}

/** Dismisses whatever toast is showing until none is left, so a screenshot shows the screen alone. */
export async function clearToasts(page: Page) {
  const dismiss = page.getByRole('button', { name: shellCopy.dismissToast });
  await expect
    .poll(
      async () => {
        if ((await dismiss.count()) === 0) return 0;
        await dismiss
          .first()
          .click({ timeout: 1000 })
          .catch(() => undefined);
        return dismiss.count();
      },
      { timeout: 15_000 },
    )
    .toBe(0);
}

/** An avatar as the profile's avatar_url: a small picture with the user's initial. */
export const AVATAR_URL = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6366f1"/><stop offset="1" stop-color="#14b8a6"/></linearGradient></defs><rect width="64" height="64" fill="url(#g)"/><text x="32" y="42" font-family="sans-serif" font-size="30" font-weight="700" fill="#fff" text-anchor="middle">S</text></svg>',
)}`;

export async function setAvatar(user: TestUser) {
  const admin = serviceClient(gatewayFor('full'));
  // The portal creates the profile row on the first sign-in.
  await expect
    .poll(async () => (await admin.from('profiles').select('id').eq('id', user.id)).data?.length ?? 0, {
      timeout: 10_000,
    })
    .toBe(1);
  const { error } = await admin.from('profiles').update({ avatar_url: AVATAR_URL }).eq('id', user.id);
  if (error) throw new Error(`could not set the avatar: ${error.message}`);
}
