import type { Locator, Page } from 'playwright-core';
import { createPublicClient, http } from 'viem';
import { dexCopy } from '../../../src/copy/dex.ts';
import { appCopy, profileCopy, shellCopy } from '../../../src/copy/index.ts';
import { expect } from 'vitest';
import { tradingCopy } from '../../../src/copy/trading.ts';
import { e2e } from '../e2e/context.ts';
import { nodeTrafficOf, untilNodeAnswered } from './node-traffic.ts';
import { pauseClock } from './page-clock.ts';
import { logInInAnotherTab } from './session.ts';
import { seesToast, type PortalWorld } from './world.ts';

// What the market, swap and trading maps share: the DEX Trading tab's cards, a block mined on the
// local chain, and a paused page clock moved on in small steps. The tab's node calls go out in
// viem batches, each flushed on a zero-delay timer, so on a paused clock nothing reaches the node
// until the clock moves: `settle` moves it on until the page shows what the step expects, never
// far enough to fire a retry's back-off (1 s at least) on the way.

const { rpcUrl } = e2e().chain;
const node = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });

/** A step of the paused clock: well under every delay a map fires on purpose. */
const STEP_MS = 50;
/** The most `settle` moves the clock on: the tab's polling interval and a batch or two. */
const SETTLE_LIMIT_MS = 5_000;

export const tradingTab = (page: Page) =>
  page.getByRole('navigation', { name: shellCopy.sections }).getByRole('button', {
    name: appCopy.tabs.trading,
    exact: true,
  });
export const swapCard = (page: Page) => page.getByRole('region', { name: dexCopy.swapTitle, exact: true });
export const marketCard = (page: Page) =>
  page.getByRole('region', { name: dexCopy.marketTitle, exact: true });
export const cardButton = (page: Page, name: string) =>
  swapCard(page).getByRole('button', { name, exact: true });

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The value of a figure (the <dd> after its <dt>) in a card. */
export const figure = (scope: Locator, label: string) =>
  scope
    .locator('dt')
    .filter({ hasText: new RegExp(`^${escaped(label)}$`) })
    .locator('xpath=following-sibling::dd[1]');

/** The block the market card says it shows, or null. */
export async function blockShown(page: Page): Promise<bigint | null> {
  const pattern = new RegExp(`^${escaped(dexCopy.atBlock('#')).replace('#', '(\\d+)')}$`);
  const texts = await marketCard(page).locator('p').allTextContents();
  for (const text of texts) {
    const match = pattern.exec(text);
    if (match?.[1]) return BigInt(match[1]);
  }
  return null;
}

/** A new block on the local chain (no transaction: nobody's balance moves). */
export async function mineBlock(): Promise<bigint> {
  await node.request({ method: 'evm_mine' } as never);
  return node.getBlockNumber({ cacheTime: 0 });
}

/**
 * Moves the paused clock on in small steps until `done` holds; fails with `what` past the limit.
 * Not a sleep: no time passes for the page but what the steps give it.
 */
export async function settle(page: Page, what: string, done: () => Promise<boolean>): Promise<void> {
  for (let moved = 0; moved <= SETTLE_LIMIT_MS; moved += STEP_MS) {
    if (await done()) return;
    // The page's time moves only once the node has answered what the page asked (held calls
    // aside): on a busy machine an answer can take longer than the steps, and the limit is for
    // the page's time, not for the node's.
    await untilNodeAnswered(page);
    await page.clock.runFor(STEP_MS);
  }
  const shown = await page
    .locator('main')
    .innerText()
    .catch(() => '');
  const traffic = nodeTrafficOf(page)
    .map((line) => `\n    ${line}`)
    .join('');
  throw new Error(
    `the page never showed ${what}; it shows: ${shown.replace(/\s+/g, ' ').slice(0, 600)}` +
      (traffic ? `\n  its latest calls to the node:${traffic}` : ''),
  );
}

/** Whether `locator` has at least one visible element now. */
export const showing = async (locator: Locator) => (await locator.count()) > 0 && locator.first().isVisible();

/**
 * The world's user logs in in another tab of the browser: the Login button is on the Token Portal
 * tab, and leaving the Trading tab would stop its machines. The clock runs meanwhile (the other
 * tab's dialog loads lazily) and is paused again once the Trading tab says who is logged in. With
 * the wallet connected (and not linked: the maps unlink it first), the portal then asks the wallet
 * to prove itself and the mock wallet signs; the step waits for the link, as until then the wallet
 * refuses the form's next request with -32002 'already pending', as MetaMask does.
 */
export async function logInElsewhere(world: PortalWorld, walletConnected: boolean): Promise<void> {
  await world.page.clock.resume();
  await logInInAnotherTab(world, await world.user());
  await expect.poll(() => world.page.getByText(tradingCopy.notLoggedIn, { exact: true }).count()).toBe(0);
  if (walletConnected) await seesToast(world.page, profileCopy.createdAndLinked);
  await pauseClock(world.page);
}
