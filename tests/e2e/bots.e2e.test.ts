import type { Page } from 'playwright-core';
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  parseAbi,
  parseEventLogs,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { botCopy } from '../../src/copy/bots.ts';
import { appCopy, profileCopy, shellCopy, transactionCopy, unsubscribeCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { reserves } from '../support/stack/market.ts';
import { signedInUser } from '../support/stack/users.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { openPortal } from '../support/e2e/browser.ts';
import { e2e, gatewayFor } from '../support/e2e/context.ts';
import { feedJoined } from '../support/e2e/feed.ts';
import { swapsOnTheSharedPool } from '../support/e2e/pool-lock.ts';
import { logIn } from '../support/e2e/portal-page.ts';
import { linkMailedTo, mailedTo } from '../support/e2e/mailbox.ts';
import { openProfileDialog, toast } from '../support/e2e/ui.ts';

// A signed-in user's bot on the Trading Bots tab (docs/product.md#trading-bots), fired by a real
// swap on the stack's DDEX/WETH pool: the user creates it in the page, another account buys DDEX
// through the router, the stack's Tatum emulator delivers the pair's transfers to market-bots, and
// the page shows the notification live and the run under the bot. The level is set just above the
// pool's price as read from the chain, and the file holds the pool (pool-lock.ts), so the only swap
// that can cross it is this file's own; the trader sells back afterwards.

swapsOnTheSharedPool();

const chain = e2e().chain;
const { rpcUrl, tokenAddress, uniswap } = chain;
const trader = e2eAccount('botsTrader');
const reader = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
const wallet = createWalletClient({
  account: privateKeyToAccount(trader.privateKey),
  transport: http(rpcUrl, { retryCount: 0 }),
});
const ETH_IS_TOKEN0 = uniswap.weth.toLowerCase() < tokenAddress.toLowerCase();

const routerAbi = parseAbi([
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
]);
const pairAbi = parseAbi([
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
]);

/** A level a little above the pool's price (ETH per DDEX), written with six significant digits. */
function levelAbove({ eth, ddex }: { eth: bigint; ddex: bigint }): string {
  return String(Number(((Number(eth) / Number(ddex)) * 1.002).toPrecision(6)));
}

const deadline = () => BigInt(Math.floor(Date.now() / 1000) + 600);

/** Buys DDEX for `value` wei of ETH from the trader's key; the DDEX it got, from the pair's Swap log. */
async function buy(value: bigint): Promise<{ hash: Hex; ddexOut: bigint }> {
  const hash = await wallet.writeContract({
    address: uniswap.router,
    abi: routerAbi,
    functionName: 'swapExactETHForTokens',
    args: [0n, [uniswap.weth, tokenAddress], trader.address, deadline()],
    value,
    chain: null,
  });
  const receipt = await reader.waitForTransactionReceipt({ hash });
  const [swap] = parseEventLogs({ abi: pairAbi, eventName: 'Swap', logs: receipt.logs });
  if (!swap) throw new Error('the buy emitted no Swap');
  return { hash, ddexOut: ETH_IS_TOKEN0 ? swap.args.amount1Out : swap.args.amount0Out };
}

/** Sells `amount` DDEX back, so the pool leaves this file near the price it found. */
async function sell(amount: bigint): Promise<void> {
  const approve = await wallet.writeContract({
    address: tokenAddress,
    abi: erc20Abi,
    functionName: 'approve',
    args: [uniswap.router, amount],
    chain: null,
  });
  await reader.waitForTransactionReceipt({ hash: approve });
  const hash = await wallet.writeContract({
    address: uniswap.router,
    abi: routerAbi,
    functionName: 'swapExactTokensForETH',
    args: [amount, 0n, [tokenAddress, uniswap.weth], trader.address, deadline()],
    chain: null,
  });
  await reader.waitForTransactionReceipt({ hash });
}

const botsTab = (page: Page) =>
  page
    .getByRole('navigation', { name: shellCopy.sections })
    .getByRole('button', { name: appCopy.tabs.bots, exact: true });

describe('a trading bot', () => {
  it('created on the tab, fires on a swap that crosses its level: the notification arrives live and the run shows under the bot', async () => {
    const user = await signedInUser(gatewayFor('full'), 'bots');
    const { page, pageErrors } = await openPortal();
    const joined = feedJoined(page);
    await logIn(page, user);
    await joined;
    await botsTab(page).click();
    await page.getByText(botCopy.watchOnly, { exact: true }).waitFor();

    const level = levelAbove(await reserves(chain, uniswap));
    const name = 'Breakout watch';
    await page.getByRole('button', { name: botCopy.newBot, exact: true }).click();
    const form = page.getByRole('region', { name: botCopy.createTitle, exact: true });
    await form.getByLabel(botCopy.fields.name, { exact: true }).fill(name);
    await form.getByLabel(botCopy.fields.kind, { exact: true }).selectOption('priceAbove');
    await form.getByLabel(botCopy.fields.level, { exact: true }).fill(level);
    await form.getByRole('button', { name: botCopy.create, exact: true }).click();
    await toast(page, botCopy.created).waitFor();

    const card = page.getByRole('region', { name, exact: true });
    await card.getByText(botCopy.statuses.active, { exact: true }).waitFor();
    await card.getByText(botCopy.rules.priceAbove(level), { exact: true }).waitFor();
    await card.getByText(botCopy.noRuns, { exact: true }).waitFor();

    // About 1 % of the pool's ETH moves the price about 2 %, well past the level 0.2 % above it.
    const { eth } = await reserves(chain, uniswap);
    const { hash, ddexOut } = await buy(eth / 100n);
    try {
      const title = `DDEX above ${level} ETH`;
      await toast(page, title).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: shellCopy.notifications(1), exact: true }).waitFor();

      const run = card.getByRole('listitem');
      await run.filter({ hasText: transactionCopy.hashPreview(hash) }).waitFor();
      expect(await run.count()).toBe(1);
      expect(await run.textContent()).toMatch(/ DDEX bought/);
      await card.getByText(botCopy.neverFired, { exact: true }).waitFor({ state: 'detached' });
    } finally {
      await sell(ddexOut);
    }
    expect(pageErrors).toEqual([]);
  });

  it('with bot emails on, a firing arrives as one mail whose unsubscribe link turns bot emails off', async () => {
    const user = await signedInUser(gatewayFor('full'), 'bots-mail');
    const { page, pageErrors } = await openPortal();
    await logIn(page, user);

    // The profile's Notifications section: bot firings by email too.
    const profile = await openProfileDialog(page);
    const botsByEmail = profile.getByRole('checkbox', { name: dialogCopy.profile.emailBots, exact: true });
    await botsByEmail.click();
    await toast(page, profileCopy.emailAlertsSaved.title).waitFor();
    await expect.poll(() => botsByEmail.isChecked()).toBe(true);
    await page.keyboard.press('Escape');

    const level = levelAbove(await reserves(chain, uniswap));
    const created = await user.client
      .from('bots')
      .insert({ name: 'Mail me', kind: 'price_above', level: Number(level) });
    expect(created.error).toBeNull();
    const { eth } = await reserves(chain, uniswap);
    const { ddexOut } = await buy(eth / 100n);
    let link: string;
    try {
      const title = `DDEX above ${level} ETH`;
      await toast(page, title).waitFor({ timeout: 30_000 });
      // One mail, titled as the notification, with the link that stops these emails.
      link = await linkMailedTo(
        'full',
        user.email,
        new RegExp(title),
        /https?:\/\/\S+\?unsubscribe=\S+/,
        30_000,
      );
      expect((await mailedTo('full', user.email)).filter((mail) => mail.subject === title)).toHaveLength(1);
    } finally {
      await sell(ddexOut);
    }

    // The link opens the portal, which asks before it turns bot emails off. The signed-in page has
    // read the profile (bots on) before the answer, so what the section shows after it is a re-read.
    const profileRead = page.waitForResponse(
      (response) => response.url().includes('/rest/v1/profiles') && response.request().method() === 'GET',
    );
    await page.goto(link);
    await profileRead;
    const ask = page.getByRole('dialog', { name: dialogCopy.unsubscribe.title });
    await ask.getByText(dialogCopy.unsubscribe.question('bots'), { exact: true }).waitFor();
    await ask.getByRole('button', { name: dialogCopy.unsubscribe.stop, exact: true }).click();
    await toast(page, unsubscribeCopy.done('bots').title).waitFor();
    // Signed in, the page reads the profile again: the section shows bot emails off.
    const after = await openProfileDialog(page);
    await expect
      .poll(() =>
        after.getByRole('checkbox', { name: dialogCopy.profile.emailBots, exact: true }).isChecked(),
      )
      .toBe(false);
    // Still the one mail, now that every drain since the firing has run.
    expect(
      (await mailedTo('full', user.email)).filter((mail) => mail.subject === `DDEX above ${level} ETH`),
    ).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });
});
