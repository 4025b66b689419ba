import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { authCopy } from '../../../src/copy/index.ts';
import { signedInUser, type TestUser } from '../../support/clients.ts';
import { openPortal, type Portal, type PortalOptions, type WalletHandle } from '../../e2e/support/browser.ts';
import { gatewayFor } from '../../e2e/support/context.ts';
import { button, logIn } from '../../e2e/support/portal-page.ts';
import { toast } from '../../e2e/support/ui.ts';
import type { UiWorld } from './index.ts';

// The world most UI maps act on: the built portal (`full` variant) in a fresh
// browser context, with the mock wallet when the path needs one, and a user of
// the local stack to log in as.

export type PortalWorld = UiWorld & {
  portal: Portal;
  /** The mock wallet; null when the browser has none. */
  wallet: WalletHandle | null;
  /** Created on first use: a confirmed user of the `full` gateway. */
  user(): Promise<TestUser>;
};

export async function openWorld(options: PortalOptions = {}): Promise<PortalWorld> {
  const portal = await openPortal(options);
  let user: Promise<TestUser> | null = null;
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

/** Logs the world's user in through the Login dialog. */
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
