import type { Locator, Page } from 'playwright-core';
import {
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  erc20Abi,
  formatUnits,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  parseEventLogs,
  parseUnits,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { dexCopy } from '../../src/copy/dex.ts';
import {
  appCopy,
  balanceCopy,
  notificationCopy,
  profileCopy,
  shellCopy,
  transactionCopy,
  walletCopy,
} from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { tradingCopy } from '../../src/copy/trading.ts';
import { amountText } from '../../src/ui/common/amount-text.ts';
import { tokenBalance } from '../support/stack/chain.ts';
import { reserves } from '../support/stack/market.ts';
import { e2eAccount, type E2eRole } from '../support/e2e/accounts.ts';
import type { WalletHandle } from '../support/e2e/browser.ts';
import { e2e } from '../support/e2e/context.ts';
import { swapsOnTheSharedPool } from '../support/e2e/pool-lock.ts';
import { logToasts, takeToast } from '../support/e2e/toast-log.ts';
import { balancesLoaded, connect, openWithWallet } from '../support/e2e/portal-page.ts';
import { balanceExact, openSignedIn, openUserMenu } from '../support/e2e/ui.ts';

// The DEX Trading tab's swaps (docs/product.md#dex-trading) on the stack's DDEX/WETH Uniswap V2
// pool, through the mock wallet: a buy, a buy whose high slippage tolerance is confirmed first,
// sales with an exact and an unlimited approval, a swap the router reverts, and a signed-in user's
// swap in the history and the notifications. A refusal at
// each wallet step is swap.ui's (tests/model/swap.ui.test.ts). Every amount expected is read from
// the chain (the router's quote, the receipt's Swap log), never from the portal's code. The files
// that swap take turns with the pool (pool-lock.ts), and these tests run one after the other, so a
// quote read here is the pool's until the test itself swaps.

const chain = e2e().chain;
const { rpcUrl, tokenAddress, uniswap } = chain;
const reader = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
const BUY = [uniswap.weth, tokenAddress] as const;
const SELL = [tokenAddress, uniswap.weth] as const;
const ETH_IS_TOKEN0 = uniswap.weth.toLowerCase() < tokenAddress.toLowerCase();

const routerAbi = parseAbi([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
]);
const pairAbi = parseAbi([
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
]);

/** The router's exact-input quote for `path`. */
async function quoteOf(path: readonly [`0x${string}`, `0x${string}`], amountIn: bigint): Promise<bigint> {
  const amounts = await reader.readContract({
    address: uniswap.router,
    abi: routerAbi,
    functionName: 'getAmountsOut',
    args: [amountIn, [...path]],
  });
  return amounts[1] ?? 0n;
}

/** The server's notification of a buy, as process-payments words it (history-words.ts). */
const bought = (ddex: bigint, eth: string, hash: Hex) =>
  `You bought ${formatUnits(ddex, 18)} DDEX for ${eth} ETH (tx ${hash.slice(0, 10)}…).`;

/** What the pair's Swap log of a transaction says moved, and the receipt. */
async function swapOf(hash: Hex) {
  const receipt = await reader.getTransactionReceipt({ hash });
  const [swap] = parseEventLogs({ abi: pairAbi, eventName: 'Swap', logs: receipt.logs }).filter(
    (log) => log.address.toLowerCase() === uniswap.pair.toLowerCase(),
  );
  if (!swap) return { receipt, ethIn: 0n, ddexIn: 0n, ethOut: 0n, ddexOut: 0n };
  const { amount0In, amount1In, amount0Out, amount1Out } = swap.args;
  return ETH_IS_TOKEN0
    ? { receipt, ethIn: amount0In, ddexIn: amount1In, ethOut: amount0Out, ddexOut: amount1Out }
    : { receipt, ethIn: amount1In, ddexIn: amount0In, ethOut: amount1Out, ddexOut: amount0Out };
}

/** An account's ETH, DDEX, router allowance and nonce, to show that nothing moved. */
async function holdings(address: `0x${string}`) {
  const [eth, ddex, allowance, nonce] = await Promise.all([
    reader.getBalance({ address }),
    tokenBalance(chain, address),
    reader.readContract({
      address: tokenAddress,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [address, uniswap.router],
    }),
    reader.getTransactionCount({ address }),
  ]);
  return { eth, ddex, allowance, nonce };
}

/**
 * An 18-decimal amount as the tab writes it for reading (docs/product.md#dex-trading): rounded
 * down, four digits after the point from 1 up, six significant digits below 1, no trailing zeros.
 */
function shown(raw: bigint): string {
  const [whole = '0', fraction = ''] = formatUnits(raw, 18).split('.');
  const zeros = /^0*/.exec(fraction)?.[0].length ?? 0;
  const kept = (whole === '0' ? fraction.slice(0, zeros + 6) : fraction.slice(0, 4)).replace(/0+$/, '');
  return kept ? `${whole}.${kept}` : whole;
}

/** The pool's mid price, ETH per DDEX, to six significant digits: the chart's last price. */
const midPrice = ({ eth, ddex }: { eth: bigint; ddex: bigint }) =>
  String(Number((Number(eth) / Number(ddex)).toPrecision(6)));

const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: shellCopy.sections }).getByRole('button', { name, exact: true });
const swapCard = (page: Page) => page.getByRole('region', { name: dexCopy.swapTitle, exact: true });
const marketCard = (page: Page) => page.getByRole('region', { name: dexCopy.marketTitle, exact: true });
const cardButton = (page: Page, name: string) => swapCard(page).getByRole('button', { name, exact: true });
/** The value of a figure (the <dd> after its <dt>) in a card. */
const figure = (scope: Locator, label: string) =>
  scope
    .locator('dt')
    .filter({ hasText: exactly(label) })
    .locator('xpath=following-sibling::dd[1]');
/** A toast (the swap's outcome repeats its title in the card, which is no status). */
const toastText = (page: Page, text: string) =>
  page.locator('[role="status"], [role="alert"]').getByText(text, { exact: true });
const tradeRows = (page: Page) => marketCard(page).locator('tbody tr');
const chartCaption = (page: Page) => marketCard(page).locator('figcaption');

/** The portal with the role's wallet connected and its balances shown, then the DEX Trading tab. */
async function openTrading(role: E2eRole) {
  const account = e2eAccount(role);
  const portal = await openWithWallet({ account });
  await connect(portal.page, account.address);
  await balancesLoaded(portal.page);
  await tab(portal.page, appCopy.tabs.trading).click();
  await cardButton(portal.page, dexCopy.enterAmount).waitFor();
  return { ...portal, account };
}

/** Picks the side, types the amount and waits for the quote the router gives now. */
async function quoted(page: Page, side: 'buy' | 'sell', amount: string): Promise<bigint> {
  const card = swapCard(page);
  await card.getByRole('radio', { name: dexCopy[side], exact: true }).check();
  const amountIn = parseUnits(amount, 18);
  const quote = await quoteOf(side === 'buy' ? BUY : SELL, amountIn);
  await card.getByLabel(dexCopy.youPay, { exact: true }).fill(amount);
  await expect
    .poll(() => card.getByLabel(dexCopy.youReceive, { exact: true }).inputValue())
    .toBe(shown(quote));
  return quote;
}

/** Waits for a swap's outcome and returns the hash it names. */
async function outcome(page: Page, title: string): Promise<Hex> {
  const card = swapCard(page);
  await card
    .getByRole('heading', { name: title, exact: true })
    .waitFor({ timeout: 30_000 })
    .catch(async (error: unknown) => {
      throw new Error(`no '${title}'; the swap card shows: ${await card.innerText()}`, { cause: error });
    });
  const text = await card.getByText(dexCopy.transactionHash('')).first().textContent();
  const hash = /0x[0-9a-f]{64}/.exec(text ?? '')?.[0];
  if (!hash) throw new Error(`the outcome names no transaction: ${text}`);
  return hash as Hex;
}

/**
 * Presses the card's button once, as a person would, and waits for the wallet to be asked. A new
 * block re-quotes in the background, so the button keeps its word and a single press is enough.
 */
async function press(page: Page, wallet: WalletHandle, label: string) {
  const sends = async () =>
    (await wallet.requests()).filter((method) => method === 'eth_sendTransaction').length;
  const before = await sends();
  await cardButton(page, label).click();
  await expect.poll(sends).toBeGreaterThan(before);
}

async function approve(page: Page, wallet: WalletHandle, words: string) {
  await press(page, wallet, dexCopy.approve);
  await toastText(page, dexCopy.approved).waitFor({ timeout: 30_000 });
  await toastText(page, words).waitFor();
  // The form quotes again with the new allowance.
  await cardButton(page, dexCopy.swap).waitFor();
}

/** Dismisses the outcome of a swap that went through, back to an empty form. */
async function newSwap(page: Page) {
  await cardButton(page, dexCopy.newSwap).click();
  await cardButton(page, dexCopy.enterAmount).waitFor();
}

swapsOnTheSharedPool();

describe('DEX Trading: swapping through the wallet', () => {
  it('buys DDEX: the quote, the DDEX received, the balance, a new trade and a new point on the chart', async () => {
    const { page, account, wallet, pageErrors } = await openTrading('tradingBuyer');
    const before = await tokenBalance(chain, account.address);
    await tab(page, appCopy.tabs.portal).click();
    await expect.poll(() => balanceExact(page, balanceCopy.token)).toBe(formatUnits(before, 18));
    await tab(page, appCopy.tabs.trading).click();
    await cardButton(page, dexCopy.enterAmount).waitFor();
    await chartCaption(page).waitFor();
    const rowsBefore = await tradeRows(page).count();
    const captionBefore = await chartCaption(page).textContent();

    const quote = await quoted(page, 'buy', '0.5');
    const card = swapCard(page);
    await expect.poll(() => figure(card, dexCopy.poolFee).textContent()).toBe(dexCopy.percent('0.3'));
    await press(page, wallet, dexCopy.swap);
    const hash = await outcome(page, dexCopy.swapConfirmed);

    // Nobody traded in between: the pool paid exactly what the router quoted.
    const { ddexOut, ethIn, receipt } = await swapOf(hash);
    expect(receipt.status).toBe('success');
    expect(ethIn).toBe(parseEther('0.5'));
    expect(ddexOut).toBe(quote);
    expect(await tokenBalance(chain, account.address)).toBe(before + ddexOut);
    expect(await figure(card, dexCopy.youPaid).textContent()).toBe(dexCopy.amountOf('0.5', dexCopy.eth));
    expect(await figure(card, dexCopy.youReceived).textContent()).toBe(
      dexCopy.amountOf(shown(ddexOut), dexCopy.ddex),
    );
    await toastText(page, dexCopy.swapConfirmedDescription('0.5 ETH', `${shown(ddexOut)} DDEX`)).waitFor();

    // The market follows the block: the trade heads the list, the chart ends at the new price.
    const row = tradeRows(page).filter({ has: page.locator(`a[href$="/tx/${hash}"]`) });
    await row.waitFor();
    expect(await row.locator('td').allTextContents()).toEqual([
      expect.any(String),
      dexCopy.sides.buy,
      dexCopy.amountOf('0.5', dexCopy.eth),
      dexCopy.amountOf(shown(ddexOut), dexCopy.ddex),
      midPrice({ eth: ethIn, ddex: ddexOut }),
    ]);
    expect(await tradeRows(page).count()).toBe(Math.min(rowsBefore + 1, 20));
    const caption = dexCopy.lastPrice(midPrice(await reserves(chain, uniswap)));
    await expect.poll(() => chartCaption(page).textContent()).toBe(caption);
    expect(caption).not.toBe(captionBefore);

    // The Token Portal tab shows the DDEX received.
    await tab(page, appCopy.tabs.portal).click();
    await expect.poll(() => balanceExact(page, balanceCopy.token)).toBe(formatUnits(before + ddexOut, 18));
    expect(pageErrors).toEqual([]);
  });

  it('asks before a swap with a 10 % slippage tolerance: cancelled, the wallet is not asked; confirmed, the swap goes through', async () => {
    const { page, account, wallet, pageErrors } = await openTrading('tradingHighSlippage');
    const card = swapCard(page);
    const sends = async () =>
      (await wallet.requests()).filter((method) => method === 'eth_sendTransaction').length;
    const start = await holdings(account.address);
    await card.getByLabel(dexCopy.slippageTolerance, { exact: true }).fill('10');
    const quote = await quoted(page, 'buy', '0.1');
    await card.getByText(dexCopy.slippageWarning, { exact: true }).waitFor();
    // The router is to guarantee the quote less 10 %.
    const minimum = (quote * 9n) / 10n;

    // 'Swap' asks first, with the tolerance and the least it accepts, and the wallet is not asked.
    await cardButton(page, dexCopy.swap).click();
    const question = card.getByRole('group', { name: dexCopy.highSlippageTitle(dexCopy.percent('10')) });
    await question.waitFor();
    await question
      .getByText(dexCopy.highSlippageDescription(dexCopy.amountOf(shown(minimum), dexCopy.ddex)), {
        exact: true,
      })
      .waitFor();
    expect(await cardButton(page, dexCopy.swap).count()).toBe(0);
    expect(await sends()).toBe(0);

    // Cancel: the form as it was left, and still nothing asked of the wallet or sent.
    await cardButton(page, dexCopy.cancel).click();
    await cardButton(page, dexCopy.swap).waitFor();
    expect(await question.count()).toBe(0);
    expect(await card.getByLabel(dexCopy.slippageTolerance, { exact: true }).inputValue()).toBe('10');
    expect(await card.getByLabel(dexCopy.youPay, { exact: true }).inputValue()).toBe('0.1');
    expect(await sends()).toBe(0);
    expect(await holdings(account.address)).toEqual(start);

    // 'Swap' again and 'Swap anyway': the wallet is asked once, and the swap goes through.
    await cardButton(page, dexCopy.swap).click();
    await question.waitFor();
    await press(page, wallet, dexCopy.confirmHighSlippage);
    const hash = await outcome(page, dexCopy.swapConfirmed);
    const { receipt, ethIn, ddexOut } = await swapOf(hash);
    expect(receipt.status).toBe('success');
    expect(ethIn).toBe(parseEther('0.1'));
    expect(ddexOut).toBe(quote);
    const sent = await reader.getTransaction({ hash });
    expect(decodeFunctionData({ abi: routerAbi, data: sent.input }).args[0]).toBe(minimum);
    expect(await sends()).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it('sells DDEX: approves first (exactly), then with Allow unlimited once, and then needs no approval', async () => {
    const { page, account, wallet, pageErrors } = await openTrading('tradingSeller');
    const card = swapCard(page);
    const router = () => holdings(account.address).then((held) => held.allowance);

    // The first sale asks for an approval of exactly the amount.
    const quote = await quoted(page, 'sell', '1000');
    await card.getByText(dexCopy.needsApproval, { exact: true }).waitFor();
    await approve(page, wallet, dexCopy.approvedDescription('1000'));
    expect(await router()).toBe(parseUnits('1000', 18));
    const before = await tokenBalance(chain, account.address);
    await press(page, wallet, dexCopy.swap);
    const first = await swapOf(await outcome(page, dexCopy.swapConfirmed));
    expect(first.ddexIn).toBe(parseUnits('1000', 18));
    expect(first.ethOut).toBe(quote);
    expect(await figure(card, dexCopy.youReceived).textContent()).toBe(
      dexCopy.amountOf(shown(first.ethOut), dexCopy.eth),
    );
    expect(await tokenBalance(chain, account.address)).toBe(before - parseUnits('1000', 18));
    // The exact allowance is spent: a smaller second sale needs another approval.
    expect(await router()).toBe(0n);
    await newSwap(page);
    await quoted(page, 'sell', '500');
    await cardButton(page, dexCopy.approve).waitFor();

    // With 'Allow unlimited', the router may spend any amount from now on.
    await card.getByRole('checkbox', { name: dexCopy.allowUnlimited, exact: true }).check();
    await approve(page, wallet, dexCopy.approvedUnlimitedDescription);
    expect(await router()).toBe(maxUint256);
    await press(page, wallet, dexCopy.swap);
    expect((await swapOf(await outcome(page, dexCopy.swapConfirmed))).ddexIn).toBe(parseUnits('500', 18));

    // So the next sale goes straight to the swap: one transaction, no approval.
    await newSwap(page);
    await quoted(page, 'sell', '200');
    expect(await cardButton(page, dexCopy.approve).count()).toBe(0);
    const sent = (await wallet.requests()).filter((method) => method === 'eth_sendTransaction').length;
    await press(page, wallet, dexCopy.swap);
    expect((await swapOf(await outcome(page, dexCopy.swapConfirmed))).ddexIn).toBe(parseUnits('200', 18));
    expect((await wallet.requests()).filter((method) => method === 'eth_sendTransaction')).toHaveLength(
      sent + 1,
    );
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('a swap the price moved away from is reverted by the router: its reason in plain words, nothing swapped', async () => {
    const { page, account, wallet, pageErrors } = await openTrading('tradingRefused');
    const start = await holdings(account.address);
    await quoted(page, 'buy', '1');

    // The wallet's prompt stays open while another trader buys ahead; then it sends with a gas
    // limit of its own, as Hardhat would otherwise refuse the doomed call at its gas estimate.
    const release = await wallet.holdNextOf('eth_sendTransaction');
    await wallet.sendWithGasNext(400_000);
    await press(page, wallet, dexCopy.swap);
    const other = e2eAccount('tradingBuyer');
    const transport = http(rpcUrl, { retryCount: 0 });
    const ahead = await createWalletClient({
      account: privateKeyToAccount(other.privateKey),
      transport,
    }).writeContract({
      address: uniswap.router,
      abi: routerAbi,
      functionName: 'swapExactETHForTokens',
      args: [0n, [...BUY], other.address, BigInt(Math.floor(Date.now() / 1000) + 600)],
      value: parseEther('5'),
      chain: null,
    });
    expect((await reader.waitForTransactionReceipt({ hash: ahead })).status).toBe('success');
    await release();

    const hash = await outcome(page, dexCopy.swapReverted);
    await swapCard(page).getByText(dexCopy.revertedSlippage, { exact: true }).waitFor();
    const { receipt, ddexOut } = await swapOf(hash);
    expect(receipt.status).toBe('reverted');
    expect(ddexOut).toBe(0n);
    // Only the network fee was spent.
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await holdings(account.address)).toEqual({
      ...start,
      eth: start.eth - fee,
      nonce: start.nonce + 1,
    });
    expect(pageErrors).toEqual([]);
  });

  it('a signed-in user’s swaps join the history once each, made in the portal or by a script on the router', async () => {
    const account = e2eAccount('tradingHistory');
    const { page, wallet, pageErrors, feed } = await openSignedIn('trader', { wallet: { account } });
    if (!wallet) throw new Error('the portal opened without the mock wallet');
    await connect(page, account.address, walletCopy.connectYourWallet);
    // The wallet signs its proof and is linked; the server then watches it (no webhook demo needed).
    await toastText(page, profileCopy.createdAndLinked).waitFor();
    await feed;
    // The server's notification of a swap can come before or after the portal's own 'Swap Confirmed'
    // (one toast at a time, the newer replaces): what counts is that the page announced it.
    await logToasts(page);

    await tab(page, appCopy.tabs.trading).click();
    await cardButton(page, dexCopy.enterAmount).waitFor();
    // The account's context: no DEX activity before this user's first swap.
    const lastActivity = page
      .locator('dt', { hasText: tradingCopy.lastActivity })
      .locator('xpath=following-sibling::dd[1]');
    expect(await lastActivity.textContent()).toBe(tradingCopy.noActivity);
    await quoted(page, 'buy', '0.2');
    await press(page, wallet, dexCopy.swap);
    const inPortal = await outcome(page, dexCopy.swapConfirmed);
    const portalSwap = await swapOf(inPortal);
    // Once the swap is in the history, the context shows when it was (the row's time, recorded).
    await expect.poll(() => lastActivity.textContent(), { timeout: 10_000 }).not.toBe(tradingCopy.noActivity);
    const shownTime = Date.parse((await lastActivity.textContent()) ?? '');
    expect(Math.abs(shownTime - Date.now())).toBeLessThan(120_000);
    // The server tells of the swap once the chain confirms it, in the words of a swap made anywhere.
    const portalSwapTold = notificationCopy.preview(bought(portalSwap.ddexOut, '0.2', inPortal));
    await expect.poll(() => takeToast(page, portalSwapTold), { timeout: 30_000 }).toBe(true);

    // Another app, or a script, swaps straight on the router with the same wallet.
    const script = createWalletClient({
      account: privateKeyToAccount(account.privateKey),
      transport: http(rpcUrl, { retryCount: 0 }),
    });
    const byScript = await script.writeContract({
      address: uniswap.router,
      abi: routerAbi,
      functionName: 'swapExactETHForTokens',
      args: [0n, [...BUY], account.address, BigInt(Math.floor(Date.now() / 1000) + 600)],
      value: parseEther('0.05'),
      chain: null,
    });
    const scriptSwap = await swapOf(byScript);
    expect(scriptSwap.receipt.status).toBe('success');
    // The promise: in the user's history within two seconds of the receipt, with nothing
    // but the chain and the server's watch of the proven wallet to put it there.
    const scriptSwapTold = notificationCopy.preview(bought(scriptSwap.ddexOut, '0.05', byScript));
    await expect.poll(() => takeToast(page, scriptSwapTold), { timeout: 2_000 }).toBe(true);

    await openUserMenu(page);
    await page.getByRole('button', { name: appCopy.menu.transactions, exact: true }).click();
    const history = page.getByRole('dialog', { name: dialogCopy.transactions.title });
    const swapRows = history
      .getByRole('listitem')
      .filter({ has: page.getByText(transactionCopy.typeLabel('swap'), { exact: true }) });
    await expect.poll(() => swapRows.count()).toBe(2);
    for (const [hash, { ddexOut }] of [
      [inPortal, portalSwap],
      [byScript, scriptSwap],
    ] as const) {
      const row = swapRows.filter({ hasText: transactionCopy.hashPreview(hash) });
      expect(await row.count()).toBe(1);
      // The DDEX received for reading, and exactly on hovering it.
      expect((await row.textContent()) ?? '').toContain(
        `${amountText(formatUnits(ddexOut, 18), 'en-US')} DDEX`,
      );
      expect(await row.getByTitle(`${formatUnits(ddexOut, 18)} DDEX`, { exact: true }).count()).toBe(1);
    }
    // The DDEX the pair paid and the ETH the wallet paid are the swaps' own legs: the history lists
    // each trade once, not also as DDEX received or ETH sent.
    for (const type of ['token_received', 'native_sent']) {
      const legs = history
        .getByRole('listitem')
        .filter({ has: page.getByText(transactionCopy.typeLabel(type), { exact: true }) });
      expect(await legs.count()).toBe(0);
    }
    expect(pageErrors).toEqual([]);
  });
});
