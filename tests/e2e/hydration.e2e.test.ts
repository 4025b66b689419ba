import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appCopy, authCopy, portalCopy, shellCopy, walletCopy } from '../../src/copy/index.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { launchBrowser, openPortal, type Portal } from '../support/e2e/browser.ts';
import { e2e, type AppVariant } from '../support/e2e/context.ts';

// The first screen comes as HTML, rendered when the portal was built (src/prerender.tsx), and the
// page hydrates it (src/main.tsx): in each build, and in either theme, React takes that HTML over
// without finding anything in it that it would have drawn otherwise, a dark-theme visitor never
// sees the light theme, and without JavaScript the screen is there all the same.

const VARIANTS: AppVariant[] = ['full', 'noToken', 'confirmEmail'];

declare global {
  interface Window {
    __boot?: { themes: string[]; rootChildrenRemoved: number };
  }
}

/**
 * Runs before the page's own scripts: records every html[data-theme] the page ever has, and the
 * children of #root taken away (hydration keeps the HTML's nodes; a render from scratch replaces them).
 */
function watchBoot() {
  const boot = { themes: [] as string[], rootChildrenRemoved: 0 };
  window.__boot = boot;
  new MutationObserver((records) => {
    for (const record of records) {
      const target = record.target as Element;
      if (record.type === 'attributes' && target === document.documentElement) {
        boot.themes.push(document.documentElement.dataset.theme ?? '');
      }
      if (record.type === 'childList' && target.id === 'root')
        boot.rootChildrenRemoved += record.removedNodes.length;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-theme'] });
}

/** What React or the boot said about hydration, and what the page threw. */
function hydrationProblems(portal: Portal): string[] {
  return [
    ...portal.console
      .filter(
        ({ type, text }) => text.includes('[hydration]') || (type === 'error' && /react|hydrat/i.test(text)),
      )
      .map(({ text }) => text),
    ...portal.pageErrors.map((error) => error.message),
  ];
}

/** The page once the portal has settled: a visitor without a wallet is welcomed, and may connect. */
async function settled(page: Page) {
  await page.getByRole('status').filter({ hasText: appCopy.welcome.title }).waitFor({ state: 'visible' });
  await page
    .getByRole('button', { name: walletCopy.connectWallet, exact: true })
    .waitFor({ state: 'visible' });
}

const bootRecord = async (page: Page) => (await page.evaluate(() => window.__boot)) ?? null;

async function openWatched(variant: AppVariant, colorScheme: 'light' | 'dark', storedTheme?: 'dark') {
  const portal = await openPortal({ variant, colorScheme });
  await portal.context.addInitScript(watchBoot);
  // The stored choice wins over the system's (index.html's theme script, the theme machine).
  if (storedTheme) await portal.page.evaluate((theme) => localStorage.setItem('theme', theme), storedTheme);
  await portal.page.reload({ waitUntil: 'load' });
  return portal;
}

describe('hydration of the prerendered first screen', () => {
  describe.each(VARIANTS)('the %s build', (variant) => {
    it('hydrates in the light theme without a mismatch, keeping the HTML it was sent', async () => {
      const portal = await openWatched(variant, 'light');
      const { page } = portal;
      await settled(page);
      expect(hydrationProblems(portal)).toEqual([]);
      const boot = await bootRecord(page);
      expect(boot?.rootChildrenRemoved).toBe(0);
      expect(boot?.themes.every((theme) => theme === 'light')).toBe(true);
      await page.getByRole('button', { name: shellCopy.themeToDark }).waitFor({ state: 'visible' });
    });

    it.each([
      ['the system', undefined],
      ['a stored choice', 'dark' as const],
    ])('shows a dark theme chosen by %s from the first paint on, never the light one', async (_, stored) => {
      const portal = await openWatched(variant, stored ? 'light' : 'dark', stored);
      const { page } = portal;
      await settled(page);
      expect(hydrationProblems(portal)).toEqual([]);
      const boot = await bootRecord(page);
      expect(boot?.themes.length).toBeGreaterThan(0);
      expect(boot?.themes.every((theme) => theme === 'dark')).toBe(true);
      expect(boot?.rootChildrenRemoved).toBe(0);
      // The toggle's name follows the live theme once hydrated; CSS drew its sun icon all along.
      const toggle = page.getByRole('button', { name: shellCopy.themeToLight });
      await toggle.waitFor({ state: 'visible' });
      const shown = await toggle
        .locator('svg')
        .evaluateAll((icons) => icons.map((icon) => getComputedStyle(icon).display !== 'none'));
      expect(shown).toEqual([true, false]);
    });
  });

  it('draws the same class names as a render in the browser, so the HTML is styled as the page is', async () => {
    const portal = await openWatched('full', 'light');
    const { page } = portal;
    await settled(page);
    const classes = () =>
      page.evaluate(() =>
        [
          'main section',
          'h1',
          'main button',
          'main button + button',
          'main p',
          'main section section button',
        ].map((selector) => document.querySelector(selector)?.getAttribute('class') ?? null),
      );
    const prerendered = await classes();
    expect(prerendered.every((value) => value !== null)).toBe(true);
    // Away and back: the portal screen is drawn anew in the browser, from the bundle's components.
    const tabs = page.getByRole('navigation', { name: shellCopy.sections });
    await tabs.getByRole('button', { name: appCopy.tabs.bots, exact: true }).click();
    await tabs.getByRole('button', { name: appCopy.tabs.portal, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: appCopy.heading }).waitFor({ state: 'visible' });
    expect(await classes()).toEqual(prerendered);
    expect(hydrationProblems(portal)).toEqual([]);
  });

  it('hydrates the visitor screen it was sent while a returning wallet reconnects, then shows the wallet', async () => {
    // Read-only: the account's balances are shown, nothing is sent.
    const portal = await openPortal({
      colorScheme: 'dark',
      wallet: { account: e2eAccount('viewer'), connected: true },
    });
    await portal.context.addInitScript(watchBoot);
    await portal.page.reload({ waitUntil: 'load' });
    await portal.page.getByRole('button', { name: portalCopy.refreshBalances }).waitFor({ state: 'visible' });
    expect(hydrationProblems(portal)).toEqual([]);
    expect((await bootRecord(portal.page))?.rootChildrenRemoved).toBe(0);
  });

  it('renders the page anew with the developer panel, whose nodes the HTML does not have', async () => {
    const portal = await openPortal({ path: '/?devtools' });
    await portal.context.addInitScript(watchBoot);
    await portal.page.reload({ waitUntil: 'load' });
    await settled(portal.page);
    expect(hydrationProblems(portal)).toEqual([]);
    expect((await bootRecord(portal.page))?.rootChildrenRemoved).toBeGreaterThan(0);
  });

  it.each(VARIANTS)('shows the first screen of the %s build without JavaScript', async (variant) => {
    const browser = await launchBrowser();
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${e2e().apps[variant].url}/`, { waitUntil: 'load' });
      await page.getByRole('heading', { level: 1, name: appCopy.heading }).waitFor({ state: 'visible' });
      for (const name of [authCopy.login, authCopy.signUp]) {
        await page.getByRole('button', { name, exact: true }).waitFor({ state: 'visible' });
      }
      await page.getByText(appCopy.visitorPrompt).waitFor({ state: 'visible' });
      // Styled: the HTML carries its CSS, and the light theme's colours stand without the theme script.
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).not.toBe('rgba(0, 0, 0, 0)');
    } finally {
      await context.close();
    }
  });
});
