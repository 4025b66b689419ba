import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { appCopy, authCopy } from '../../../src/copy/index.ts';
import { dialogCopy } from '../../../src/copy/dialogs.ts';
import type { TestUser } from '../stack/users.ts';
import { button, logIn } from '../e2e/portal-page.ts';
import type { Snapshot } from '../model/paths.ts';
import { holdNextRequest, type HeldRequest } from './hold.ts';
import type { PortalWorld } from './world.ts';

// The session as a person meets it across tabs, and the toasts that tell them about it.
//
// Tabs of one browser share the stored session, and supabase-js tells every tab of the portal
// what another did (a sign-in, a sign-out): the auth and dialogs maps use another tab for the
// changes that reach a page without anything done in it.
//
// The portal shows one toast at a time and a newer one replaces it, so a toast a step causes may
// be gone before a check looks; every toast the page shows is therefore recorded as it appears.

declare global {
  interface Window {
    __uiToasts?: string[];
  }
}

/** The portal opened in another tab of the world's browser, once it has drawn its screen. */
export async function anotherTab(world: PortalWorld): Promise<Page> {
  const page = await world.portal.context.newPage();
  await page.goto(world.portal.appUrl, { waitUntil: 'load' });
  await page.getByRole('heading', { level: 1, name: appCopy.heading, exact: true }).waitFor();
  return page;
}

/**
 * Logs out in another tab: its sign-out reaches the world's page as a session that ended without a
 * logout there. The other tab is closed afterwards; it told the other tabs when it signed out.
 */
export async function logOutInAnotherTab(world: PortalWorld): Promise<void> {
  const tab = await anotherTab(world);
  await button(tab, authCopy.logout).click();
  await button(tab, authCopy.login).waitFor();
  await tab.close();
}

/** Logs `user` in through another tab's Login dialog. */
export async function logInInAnotherTab(world: PortalWorld, user: TestUser): Promise<void> {
  const tab = await anotherTab(world);
  await logIn(tab, user);
  await tab.close();
}

/** Another tab with its Login dialog open, left so while this one goes on. */
export async function loginLeftOpenInAnotherTab(world: PortalWorld): Promise<Page> {
  const tab = await anotherTab(world);
  await button(tab, authCopy.login).click();
  await tab.getByRole('dialog', { name: authCopy.titleLogin }).waitFor();
  return tab;
}

/** Logs `user` in through the Login dialog `tab` left open. */
export async function logInThere(tab: Page, user: TestUser): Promise<void> {
  const dialog = tab.getByRole('dialog', { name: authCopy.titleLogin });
  await dialog.getByLabel(dialogCopy.auth.email, { exact: true }).fill(user.email);
  await dialog.getByLabel(dialogCopy.auth.password, { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: authCopy.login, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Makes the session the page stored expired, with a refresh token the gateway no longer knows. */
export async function expireStoredSession(page: Page): Promise<void> {
  // Off the portal first: a running portal keeps its session in memory and may store it again
  // (a refresh, another tab's news) after it was expired here, and the reload would find it valid.
  await page.goto(`${new URL(page.url()).origin}/favicon.svg`);
  await page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => /^sb-.+-auth-token$/.test(name));
    if (!key) throw new Error('no stored session');
    const session = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
    const expired = { ...session, expires_at: Math.floor(Date.now() / 1000) - 60, refresh_token: 'revoked' };
    localStorage.setItem(key, JSON.stringify(expired));
  });
}

/**
 * Opens the portal in another tab while a user is signed in: as it starts, it reads the shared
 * session and tells the other tabs it is signed in (the same user again).
 */
export async function reopenInAnotherTab(world: PortalWorld): Promise<void> {
  const tab = await anotherTab(world);
  await button(tab, authCopy.logout).waitFor();
  await tab.close();
}

/** From the next page load on, every toast the world's pages show is recorded (see `toastsSince`). */
export async function recordToasts(world: PortalWorld): Promise<void> {
  await recordToastsIn(world.portal.context);
}

/** `recordToasts` for a browser context whose portal has not loaded yet (`beforeLoad`). */
export async function recordToastsIn(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shown: string[] = [];
    window.__uiToasts = shown;
    const last = new WeakMap<Element, string>();
    new MutationObserver(() => {
      // The toast regions are the page's live regions; a change of their text is a new toast.
      for (const region of document.querySelectorAll('[aria-live]')) {
        const text = region.textContent ?? '';
        if (text !== '' && last.get(region) !== text) shown.push(text);
        last.set(region, text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** How many toasts the page has shown so far: a mark for `sawToast`. */
export function toastCount(page: Page): Promise<number> {
  return page.evaluate(() => window.__uiToasts?.length ?? 0);
}

function toastsSince(page: Page, mark: number): Promise<string[]> {
  return page.evaluate((from) => (window.__uiToasts ?? []).slice(from), mark);
}

/** The page has shown a toast with this text since `mark` (waiting for it). */
export async function sawToast(page: Page, text: string, mark: number): Promise<void> {
  await expect
    .poll(async () => (await toastsSince(page, mark)).some((shown) => shown.includes(text)), {
      message: `a toast saying '${text}'`,
    })
    .toBe(true);
}

/** The page has shown no toast with any of these texts since `mark` (checked once, now). */
export async function sawNoToast(page: Page, texts: string[], mark: number): Promise<void> {
  const shown = await toastsSince(page, mark);
  expect(shown.filter((toast) => texts.some((text) => toast.includes(text)))).toEqual([]);
}

/** A world whose steps hold one request at a time and check the toasts each step shows. */
export type StepWorld = PortalWorld & {
  /** The request the current waiting state holds. */
  held: HeldRequest | null;
  /** Toasts shown before this mark belong to earlier steps. */
  mark: number;
  /** The step just caused, for the toasts it shows. */
  step: { event: AnyEventObject; from: Snapshot } | null;
};

export async function hold(world: StepWorld, url: RegExp, method?: string): Promise<void> {
  world.held = await holdNextRequest(world.page, url, method);
}

/** Lets the held request go on: the server answers. Nothing when none is held. */
export async function release(world: StepWorld): Promise<void> {
  const held = world.held;
  world.held = null;
  await held?.release();
}

/** Fails the held request as a stopped server does. */
export async function failHeld(world: StepWorld): Promise<void> {
  const held = world.held;
  world.held = null;
  if (!held) throw new Error('no request is held to fail');
  await held.fail();
}

type Cause<W extends StepWorld, E> = (world: W, event: E, from: Snapshot) => Promise<unknown>;

/** A cause whose step shows its own toasts: those shown before it belong to earlier steps. */
export function acting<W extends StepWorld, E extends AnyEventObject = AnyEventObject>(
  act: Cause<W, E>,
): (world: W, event: AnyEventObject, from: Snapshot) => Promise<void> {
  return async (world, event, from) => {
    world.mark = await toastCount(world.page);
    world.step = { event, from };
    await act(world, event as E, from);
  };
}

/** A step the page takes by itself after the one before, whose toasts it may already have shown. */
export async function following(world: StepWorld, event: AnyEventObject, from: Snapshot): Promise<void> {
  world.step = { event, from };
  await release(world);
}
