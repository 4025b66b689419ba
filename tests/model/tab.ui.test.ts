import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { botCopy } from '../../src/copy/bots.ts';
import { faqCopy } from '../../src/copy/faq.ts';
import { appCopy, shellCopy } from '../../src/copy/index.ts';
import { privacyCopy } from '../../src/copy/privacy.ts';
import { termsCopy } from '../../src/copy/terms.ts';
import { tradingCopy } from '../../src/copy/trading.ts';
import { tabMachine, tabs, type Tab } from '../../src/machines/tab.machine.ts';
import { openUserMenu } from '../support/e2e/ui.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { openWorld, pathUser } from '../support/ui/world.ts';

// The tab chart through the portal: the tab bar's three tabs and the user menu's pages (FAQ,
// Privacy, Terms, which only a signed-in user's menu offers). Each page is told apart by its
// heading and by which tab, if any, is marked current.

const barTabs = ['portal', 'trading', 'bots'] as const satisfies readonly Tab[];
type BarTab = (typeof barTabs)[number];
type MenuPage = Exclude<Tab, BarTab>;

const headings: Record<Tab, string> = {
  portal: appCopy.heading,
  trading: tradingCopy.title,
  bots: botCopy.title,
  faq: faqCopy.title,
  privacy: privacyCopy.title,
  terms: termsCopy.title,
};
const menuItems: Record<MenuPage, string> = {
  faq: appCopy.menu.faq,
  privacy: appCopy.menu.privacy,
  terms: appCopy.menu.terms,
};

const noOtherTab =
  'the portal has no URL routes: the tab bar, the user menu and the pages only ask for the six tabs, so no action on the page selects anything else';

const isBarTab = (tab: string): tab is BarTab => (barTabs as readonly string[]).includes(tab);
const tabOf = (event: object) => (event as { tab: string }).tab;

const tabButton = (page: Page, tab: BarTab) =>
  page
    .getByRole('navigation', { name: shellCopy.sections })
    .getByRole('button', { name: appCopy.tabs[tab], exact: true });

/** The page's heading, and the tab bar marking the current tab (none for a menu page). */
async function showsPage(page: Page, tab: Tab): Promise<void> {
  await page.getByRole('heading', { level: 1, name: headings[tab], exact: true }).waitFor();
  for (const other of barTabs) {
    await expect
      .poll(() => tabButton(page, other).getAttribute('aria-current'))
      .toBe(other === tab ? 'page' : null);
  }
}

describeUiModel({
  name: 'tab',
  tours: true,
  machine: tabMachine,
  events: { 'tab.select': tabs.map((tab) => ({ type: 'tab.select', tab })) },
  // The menu's pages need a signed-in user; the others are there for anybody.
  async open(path) {
    const signedIn = path.events.some((event) => !isBarTab(tabOf(event)));
    return openWorld(signedIn ? { signedInAs: await pathUser() } : {});
  },
  views: Object.fromEntries(tabs.map((tab) => [tab, (world: { page: Page }) => showsPage(world.page, tab)])),
  causes: {
    'tab.select': async (world, event) => {
      const tab = tabOf(event);
      if (isBarTab(tab)) {
        await tabButton(world.page, tab).click();
        return;
      }
      await openUserMenu(world.page);
      await world.page
        .getByRole('dialog', { name: shellCopy.userMenuLabel })
        .getByRole('button', { name: menuItems[tab as MenuPage], exact: true })
        .click();
    },
  },
  reasons: { 'tab --tab.select#6--> tab.notFound': noOtherTab, 'tab.notFound': noOtherTab },
});
