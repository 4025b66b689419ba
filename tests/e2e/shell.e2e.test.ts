import type { Locator, Page } from 'playwright-core';
import { toastDurations } from '../../src/machines/toast.machine.ts';
import { describe, expect, it } from 'vitest';
import { botCopy } from '../../src/copy/bots.ts';
import { dexCopy } from '../../src/copy/dex.ts';
import { faqCopy } from '../../src/copy/faq.ts';
import { appCopy, authCopy, footerCopy, shellCopy, walletCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { privacyCopy } from '../../src/copy/privacy.ts';
import { termsCopy } from '../../src/copy/terms.ts';
import { tradingCopy } from '../../src/copy/trading.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { runAxe } from '../support/e2e/axe.ts';
import { openPortal, PHONE_VIEWPORT, type PortalOptions } from '../support/e2e/browser.ts';
import { openSignedIn, openUserMenu } from '../support/e2e/ui.ts';

// The shell of the portal as a person meets it: the header (tabs, theme
// toggle, notifications, user menu), the footer, the toast and the lazily
// loaded pages.

const SHOTS = '/tmp/shell-shots';

const visible = (locator: Locator) => locator.waitFor({ state: 'visible' });
const hidden = (locator: Locator) => locator.waitFor({ state: 'hidden' });

function tabButton(page: Page, name: string): Locator {
  return page
    .getByRole('navigation', { name: shellCopy.sections })
    .getByRole('button', { name, exact: true });
}

function pageHeading(page: Page, name: string): Locator {
  return page.getByRole('heading', { level: 1, name, exact: true });
}

/** Holds the lazily loaded chunk of `component` until the returned function is called. */
async function holdChunk(page: Page, component: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(new RegExp(`/assets/${component}-[^/]+\\.js$`), async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Selects a page (by the tab bar or a menu entry) and sees its loading message, then the page. */
async function seeLazyPage(
  page: Page,
  component: string,
  loading: string,
  title: string,
  select: () => Promise<void>,
) {
  const release = await holdChunk(page, component);
  await select();
  await visible(page.getByRole('status').filter({ hasText: loading }));
  release();
  await visible(pageHeading(page, title));
  expect(await page.getByText(loading).count()).toBe(0);
}

/** The portal signed in as a new user, with their menu at hand. */
async function openWithMenu(options: Omit<PortalOptions, 'session'> = {}) {
  const portal = await openSignedIn('shell', options);
  const { email } = portal.user;
  const name = email.split('@')[0] ?? '';
  const menuButton = portal.page.getByRole('button', { name: shellCopy.userMenu(name) });
  const menu = portal.page.getByRole('dialog', { name: shellCopy.userMenuLabel });
  const openMenu = async () => {
    await menuButton.click();
    await visible(menu);
    return menu;
  };
  return { ...portal, email, name, menuButton, menu, openMenu };
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true, animations: 'disabled' });
}

describe('shell', () => {
  it('shows a visitor the welcome toast once, announced politely, then hides it', async () => {
    // The page's clock: time flows, and the toast's 6 seconds pass when the test moves it on.
    const { page, pageErrors } = await openPortal({ clock: true });
    const welcome = page.getByRole('status').filter({ hasText: appCopy.welcome.title });
    await visible(welcome);
    expect(await welcome.textContent()).toContain(appCopy.welcome.description);
    // A visitor sees only the theme toggle in the top-right area.
    await visible(page.getByRole('button', { name: shellCopy.themeToDark }));
    expect(await page.getByRole('button', { name: shellCopy.notifications(0) }).count()).toBe(0);
    // The toast machine hides it after its 6 seconds; switching tabs does not bring it back.
    await page.clock.fastForward(toastDurations.welcome);
    await page.getByText(appCopy.welcome.title).waitFor({ state: 'hidden' });
    await tabButton(page, appCopy.tabs.bots).click();
    await visible(pageHeading(page, botCopy.title));
    await tabButton(page, appCopy.tabs.portal).click();
    await visible(page.getByRole('heading', { name: appCopy.heading }));
    expect(await page.getByText(appCopy.welcome.title).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('switches tabs, highlights the current one and loads each page with its loading message', async () => {
    const { page, pageErrors } = await openPortal({ wallet: { account: e2eAccount('viewer') } });
    expect(await tabButton(page, appCopy.tabs.portal).getAttribute('aria-current')).toBe('page');

    await seeLazyPage(page, 'TradingPage', appCopy.loading.trading, tradingCopy.title, () =>
      tabButton(page, appCopy.tabs.trading).click(),
    );
    expect(await tabButton(page, appCopy.tabs.trading).getAttribute('aria-current')).toBe('page');
    expect(await tabButton(page, appCopy.tabs.portal).getAttribute('aria-current')).toBeNull();
    // The market, and honest context: a visitor without a connected wallet.
    await visible(page.getByRole('region', { name: dexCopy.marketTitle }));
    await visible(page.getByText(tradingCopy.notLoggedIn));
    await visible(page.getByText(tradingCopy.noWallet));
    await visible(page.getByText(tradingCopy.tokenConfigured, { exact: true }));

    await seeLazyPage(page, 'BotsPage', appCopy.loading.bots, botCopy.title, () =>
      tabButton(page, appCopy.tabs.bots).click(),
    );
    // A visitor is told why bots never trade, and asked to log in: the button opens the log-in dialog.
    await visible(page.getByText(botCopy.watchOnly));
    await visible(page.getByText(botCopy.visitorPrompt));
    await page.getByRole('button', { name: botCopy.logIn, exact: true }).click();
    const login = page.getByRole('dialog', { name: authCopy.titleLogin });
    await visible(login);
    await page.keyboard.press('Escape');
    await hidden(login);

    // A page loaded once comes back at once.
    await tabButton(page, appCopy.tabs.trading).click();
    await visible(pageHeading(page, tradingCopy.title));
    await page.getByRole('button', { name: tradingCopy.goToPortal }).click();
    await visible(page.getByRole('heading', { name: appCopy.heading }));
    expect(pageErrors).toEqual([]);
  });

  it('says plainly that there is no market when no Uniswap router is configured', async () => {
    const { page } = await openPortal({ variant: 'noToken' });
    await tabButton(page, appCopy.tabs.trading).click();
    await visible(pageHeading(page, tradingCopy.title));
    await visible(page.getByText(tradingCopy.unavailable));
    await visible(page.getByText(tradingCopy.meanwhile));
    expect(await page.getByRole('region', { name: dexCopy.marketTitle }).count()).toBe(0);
  });

  it('shows the connected wallet on the trading page', async () => {
    const { page } = await openPortal({ wallet: { account: e2eAccount('viewer') } });
    const address = e2eAccount('viewer').address;
    await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).click();
    await visible(page.getByRole('status').filter({ hasText: walletCopy.connected }));
    await tabButton(page, appCopy.tabs.trading).click();
    await visible(pageHeading(page, tradingCopy.title));
    await visible(page.getByText(address, { exact: true }));
  });

  it('keeps the chosen theme across a reload, in both themes without serious axe findings', async () => {
    const { page } = await openPortal({ colorScheme: 'light' });
    const html = page.locator('html');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await html.getAttribute('data-theme')).toBe('light');
    const light = await background();
    await page.getByText(appCopy.welcome.title).waitFor({ state: 'visible' });
    expect(await runAxe(page, 'shell, light')).toEqual([]);

    await page.getByRole('button', { name: shellCopy.themeToDark }).click();
    await visible(page.getByRole('button', { name: shellCopy.themeToLight }));
    expect(await html.getAttribute('data-theme')).toBe('dark');
    const dark = await background();
    expect(dark).not.toBe(light);
    expect(await runAxe(page, 'shell, dark')).toEqual([]);

    // index.html applies the stored theme before the app starts: no light flash.
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await html.getAttribute('data-theme')).toBe('dark');
    await visible(page.getByRole('button', { name: shellCopy.themeToLight }));
    expect(await background()).toBe(dark);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

    await page.getByRole('button', { name: shellCopy.themeToLight }).click();
    await page.reload();
    await visible(page.getByRole('button', { name: shellCopy.themeToDark }));
    expect(await html.getAttribute('data-theme')).toBe('light');
    expect(await background()).toBe(light);
  });

  it('shows the demo notice, the contact address and the product site in the footer', async () => {
    const { page } = await openPortal();
    const footer = page.getByRole('contentinfo');
    await visible(footer.getByText(footerCopy.demo));
    const contact = footer.getByRole('link', { name: 'contact@ddex.example' });
    expect(await contact.getAttribute('href')).toBe('mailto:contact@ddex.example');
    const site = footer.getByRole('link', { name: footerCopy.productSite });
    expect(await site.getAttribute('href')).toMatch(/^https:\/\/ddex\.example\/?$/);
  });

  it('opens the user menu on the first click once its late code has arrived', async () => {
    // The menu's chunk comes late, as on a slow connection: held until the signed-in portal shows
    // the menu's stand-in, then let through.
    let release = () => {};
    const arrived = new Promise<void>((resolve) => (release = resolve));
    const { page } = await openSignedIn('menu-early', {
      beforeLoad: (opening) =>
        opening.route(
          (url) => /\/assets\/UserMenu-[^/]+\.js$/.test(url.pathname),
          async (route) => {
            await arrived;
            await route.continue();
          },
        ),
    });
    await page.getByRole('button', { name: new RegExp(`^${shellCopy.userMenu('')}`) }).waitFor();
    release();
    await openUserMenu(page);
    await visible(page.getByRole('button', { name: appCopy.menu.profile, exact: true }));
  });

  it('gives a signed-in user the menu: dialogs, pages, Soon tags, About disabled, Log out', async () => {
    const { page, email, name, menu, menuButton, openMenu, pageErrors } = await openWithMenu();

    await openMenu();
    await visible(menu.getByText(name, { exact: true }));
    await visible(menu.getByText(email, { exact: true }));
    expect(await menu.getByRole('button', { name: appCopy.menu.about }).isDisabled()).toBe(true);
    expect(await menu.getByRole('button', { name: appCopy.menu.apiKeys }).textContent()).toContain(
      appCopy.menu.soon,
    );
    expect(await menu.getByRole('button', { name: appCopy.menu.security }).textContent()).toContain(
      appCopy.menu.soon,
    );
    const logOut = menu.getByRole('button', { name: appCopy.menu.logOut });
    const [logOutColour, profileColour] = await Promise.all(
      [logOut, menu.getByRole('button', { name: appCopy.menu.profile })].map((item) =>
        item.evaluate((element) => getComputedStyle(element).color),
      ),
    );
    expect(logOutColour).not.toBe(profileColour);
    expect(await runAxe(page, 'user menu, light')).toEqual([]);
    await page.keyboard.press('Escape');
    await hidden(menu);

    const dialogsByItem = [
      [appCopy.menu.profile, dialogCopy.profile.title],
      [appCopy.menu.transactions, dialogCopy.transactions.title],
      [appCopy.menu.apiKeys, dialogCopy.apiKeys.title],
      [appCopy.menu.security, dialogCopy.security.title],
    ] as const;
    for (const [item, title] of dialogsByItem) {
      await openMenu();
      await menu.getByRole('button', { name: item }).click();
      const dialog = page.getByRole('dialog', { name: title });
      await visible(dialog);
      await hidden(menu);
      // Focus moved from the menu into the dialog, not back to the menu button behind it.
      await expect
        .poll(() => dialog.evaluate((element) => element.contains(document.activeElement)))
        .toBe(true);
      await page.keyboard.press('Escape');
      await hidden(dialog);
    }

    const pagesByItem = [
      ['BotsPage', appCopy.menu.bots, appCopy.loading.bots, botCopy.title],
      ['FaqPage', appCopy.menu.faq, appCopy.loading.faq, faqCopy.title],
      ['PrivacyPage', appCopy.menu.privacy, appCopy.loading.privacy, privacyCopy.title],
      ['TermsPage', appCopy.menu.terms, appCopy.loading.terms, termsCopy.title],
    ] as const;
    for (const [component, item, loading, title] of pagesByItem) {
      await seeLazyPage(page, component, loading, title, async () => {
        await openMenu();
        await menu.getByRole('button', { name: item }).click();
      });
      await hidden(menu);
    }
    // The last page, Terms of Service, is no tab: none is highlighted.
    expect(await tabButton(page, appCopy.tabs.bots).getAttribute('aria-current')).toBeNull();

    await openMenu();
    await menu.getByRole('button', { name: appCopy.menu.logOut }).click();
    await visible(page.getByRole('status').filter({ hasText: authCopy.loggedOut.title }));
    await hidden(menuButton);
    expect(await page.getByRole('button', { name: shellCopy.notifications(0) }).count()).toBe(0);
    await tabButton(page, appCopy.tabs.portal).click();
    await visible(page.getByRole('button', { name: authCopy.login, exact: true }));
    expect(await page.getByRole('button', { name: shellCopy.notifications(0) }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('has no serious axe findings on the pages and the open menu in both themes', async () => {
    const { page, openMenu, menu } = await openWithMenu({ colorScheme: 'dark' });
    const pages = [
      ['trading', appCopy.tabs.trading, tradingCopy.title, null],
      ['bots', appCopy.tabs.bots, botCopy.title, null],
      ['faq', null, faqCopy.title, appCopy.menu.faq],
      ['privacy', null, privacyCopy.title, appCopy.menu.privacy],
      ['terms', null, termsCopy.title, appCopy.menu.terms],
    ] as const;
    for (const theme of ['dark', 'light'] as const) {
      await openMenu();
      expect(await runAxe(page, `user menu, ${theme}`)).toEqual([]);
      await page.keyboard.press('Escape');
      await hidden(menu);
      for (const [id, tab, title, item] of pages) {
        if (tab) await tabButton(page, tab).click();
        else {
          await openMenu();
          await menu.getByRole('button', { name: item ?? '' }).click();
        }
        await visible(pageHeading(page, title));
        expect(await runAxe(page, `${id} page, ${theme}`)).toEqual([]);
        await shoot(page, `${id}-${theme}`);
      }
      if (theme === 'dark') await page.getByRole('button', { name: shellCopy.themeToLight }).click();
    }
  });

  it('works at 360 px: every tab is reachable and nothing overflows sideways', async () => {
    const { page, openMenu } = await openWithMenu({ viewport: PHONE_VIEWPORT });
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    // The three tabs fit side by side without scrolling.
    for (const tab of Object.values(appCopy.tabs)) {
      const box = await tabButton(page, tab).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE_VIEWPORT.width).toBe(true);
    }
    for (const [tab, title] of [
      [appCopy.tabs.bots, botCopy.title],
      [appCopy.tabs.trading, tradingCopy.title],
    ] as const) {
      await tabButton(page, tab).click();
      await visible(pageHeading(page, title));
      expect(await overflow()).toBe(0);
      await shoot(page, `phone-${title.replaceAll(' ', '-').toLowerCase()}`);
    }
    const menu = await openMenu();
    const box = await menu.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE_VIEWPORT.width).toBe(true);
    await shoot(page, 'phone-menu');
    await menu.getByRole('button', { name: appCopy.menu.faq }).click();
    await visible(pageHeading(page, faqCopy.title));
    expect(await overflow()).toBe(0);
    await shoot(page, 'phone-faq');
  });
});
