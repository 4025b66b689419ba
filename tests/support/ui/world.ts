import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { authCopy } from '../../../src/copy/index.ts';
import { signedInUser, type TestUser } from '../stack/users.ts';
import { openPortal, type Portal, type PortalOptions, type WalletHandle } from '../e2e/browser.ts';
import { gatewayFor, type AppVariant } from '../e2e/context.ts';
import { button, logIn } from '../e2e/portal-page.ts';
import { signUpByApi, type SeededUser } from '../e2e/session.ts';
import { toast } from '../e2e/ui.ts';
import type { UiWorld } from './index.ts';

// The world most UI maps act on: the built portal (`full` variant) in a fresh
// browser context, with the mock wallet when the path needs one, and a user of
// the local stack to log in as.
//
// A map whose chart is not the sign-in's (everything but auth and portal) opens the world already
// signed in (`signedInAs`): the user's session is stored before the portal loads, as supabase-js
// leaves it after a sign-in, so no path spends the Login dialog on what its chart does not cover.
// The auth and portal maps log in through the dialog (`logInThroughUi`), which is theirs to check.

export type PortalWorld = UiWorld & {
  portal: Portal;
  /** The mock wallet; null when the browser has none. */
  wallet: WalletHandle | null;
  /** Created on first use (or the one the world opened signed in as): a confirmed user of the gateway. */
  user(): Promise<TestUser>;
};

export type WorldOptions = Omit<PortalOptions, 'session'> & {
  /** Opens the portal signed in as this user (`pathUser`): their session is stored before it loads. */
  signedInAs?: SeededUser;
};

/** A new user for one path, made through the variant's gateway (`signedInAs` of `openWorld`). */
export function pathUser(variant: AppVariant = 'full'): Promise<SeededUser> {
  return signUpByApi(gatewayFor(variant), 'ui-path');
}

export async function openWorld(options: WorldOptions = {}): Promise<PortalWorld> {
  const { signedInAs, ...portalOptions } = options;
  const portal = await openPortal({
    ...portalOptions,
    ...(signedInAs ? { session: signedInAs.session } : {}),
  });
  let user: Promise<TestUser> | null = signedInAs ? Promise.resolve(signedInAs) : null;
  if (signedInAs) await button(portal.page, authCopy.logout).waitFor();
  return {
    page: portal.page,
    portal,
    wallet: portal.wallet,
    user: () => (user ??= signedInUser(gatewayFor(options.variant ?? 'full'), 'ui-path')),
  };
}

/** The mock wallet of a world that must have one. */
export function walletOf(world: PortalWorld): WalletHandle {
  if (!world.wallet) throw new Error('this path needs the mock wallet; open the world with one');
  return world.wallet;
}

/**
 * Logs the world's user in through the Login dialog: for the auth and portal maps, and for a step
 * whose cause is a sign-in in the middle of a path. Other maps open their world `signedInAs`.
 */
export async function logInThroughUi(world: PortalWorld): Promise<void> {
  await logIn(world.page, await world.user());
}

export async function logOutThroughUi(world: PortalWorld): Promise<void> {
  await button(world.page, authCopy.logout).click();
  await button(world.page, authCopy.login).waitFor();
}

/** A toast with this title (or description) is on screen. */
export async function seesToast(page: Page, text: string): Promise<void> {
  await toast(page, text).first().waitFor();
}

/** The page shows `locator`-like text exactly. */
export async function sees(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor();
}

/** No element with this text is on screen (checked after something that proves the page settled). */
export async function seesNo(page: Page, text: string): Promise<void> {
  await expect.poll(() => page.getByText(text, { exact: true }).count()).toBe(0);
}
