import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  http,
  maxUint256,
  parseEther,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dexCopy } from '../../src/copy/dex.ts';
import { appCopy, shellCopy } from '../../src/copy/index.ts';
import { tradingCopy } from '../../src/copy/trading.ts';
import { CHART_MIN_WINDOW_S } from '../../src/machines/trading/market-figures.ts';
import { pairAbi } from '../../src/services/dex/abi.ts';
import { startChain, type Chain } from '../../stack/chain/index.ts';
import { uniswapArtifact } from '../../stack/chain/uniswap.ts';
import { runAxe } from '../support/e2e/axe.ts';
import { openPortal, PHONE_VIEWPORT } from '../support/e2e/browser.ts';
import { e2e } from '../support/e2e/context.ts';
import { clearToasts } from '../support/e2e/portal-page.ts';
import { reportScreenshot } from '../support/e2e/screenshot.ts';

// The price chart on the narrowest phone, dark, with a fresh market's one price point and then with
// the 500 it keeps (docs/product.md#market-card): the time axis spans the points' own time (at least
// ten minutes up to the last), never the years uPlot guesses for a lone timestamp, and the chart
// fits the screen. The market is on a chain of this file's own, started as the stack starts one:
// its deployer puts DDEX and the pool at the addresses the portal was built with, so the page, whose
// node requests go to that chain, sees a pool with its seed liquidity only. The swaps made on it
// move no price another file reads.

const PHONE = { width: PHONE_VIEWPORT.width, height: 740 };
/** Sepolia's block time: the swaps come one a block, as on a busy testnet. */
const BLOCK_S = 12;
const ROUTER = uniswapArtifact('UniswapV2Router02');

const shared = e2e().chain;
let fresh: Chain;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ddex-chart-'));
  fresh = await startChain({ port: 0, dataDir });
  expect({ token: fresh.tokenAddress, ...fresh.uniswap }).toEqual({
    token: shared.tokenAddress,
    ...shared.uniswap,
  });
});

afterAll(async () => {
  await fresh?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const reader = () => createPublicClient({ transport: http(fresh.rpcUrl, { retryCount: 0 }) });

/** The block times of the pool's price points so far: one Sync per change of its reserves. */
async function pricePointTimes(): Promise<number[]> {
  const client = reader();
  const syncs = await client.getContractEvents({
    address: fresh.uniswap.pair,
    abi: pairAbi,
    eventName: 'Sync',
    fromBlock: 0n,
  });
  const blocks = await Promise.all(syncs.map((log) => client.getBlock({ blockNumber: log.blockNumber })));
  return blocks.map((block) => Number(block.timestamp));
}

/**
 * `count` swaps on the fresh pool by one trader, one a block, BLOCK_S seconds apart: 25 buys, then
 * 25 sales, and so on, so the line goes up and down. Returns the last one's block time. Each is
 * mined as it is sent; the caller counts the pool's price points to see that every one went through.
 */
async function tradeEveryBlock(count: number): Promise<number> {
  const client = reader();
  const [, trader] = fresh.accounts;
  if (!trader) throw new Error('the chain has no trader account');
  // The node holds the test mnemonic's keys: it signs, and each transaction is mined as it is sent.
  const wallet = createWalletClient({
    account: trader.address,
    transport: http(fresh.rpcUrl, { retryCount: 0 }),
  });
  const node = createTestClient({ mode: 'hardhat', transport: http(fresh.rpcUrl, { retryCount: 0 }) });
  const approval = await wallet.writeContract({
    address: fresh.tokenAddress,
    abi: erc20Abi,
    functionName: 'approve',
    args: [fresh.uniswap.router, maxUint256],
    chain: null,
  });
  expect((await client.getTransactionReceipt({ hash: approval })).status).toBe('success');
  const path = {
    buy: [fresh.uniswap.weth, fresh.tokenAddress],
    sell: [fresh.tokenAddress, fresh.uniswap.weth],
  };
  let time = Number((await client.getBlock()).timestamp);
  for (let index = 0; index < count; index += 1) {
    time += BLOCK_S;
    await node.setNextBlockTimestamp({ timestamp: BigInt(time) });
    const buying = Math.floor(index / 25) % 2 === 0;
    await (buying
      ? wallet.writeContract({
          address: fresh.uniswap.router,
          abi: ROUTER.abi,
          functionName: 'swapExactETHForTokens',
          args: [0n, path.buy, trader.address, maxUint256],
          value: parseEther('0.1'),
          gas: 200_000n,
          chain: null,
        })
      : wallet.writeContract({
          address: fresh.uniswap.router,
          abi: ROUTER.abi,
          functionName: 'swapExactTokensForETH',
          args: [parseEther('480'), 0n, path.sell, trader.address, maxUint256],
          gas: 200_000n,
          chain: null,
        }));
  }
  return time;
}

const marketCard = (page: Page) => page.getByRole('region', { name: dexCopy.marketTitle, exact: true });
const chartOf = (page: Page) => marketCard(page).getByRole('img', { name: dexCopy.chartTitle, exact: true });

/**
 * What the chart's description says of its time axis (a screen reader's words for the axis drawn on
 * the canvas), with its two ends in seconds; null until the chart has drawn.
 */
async function timeAxis(chart: Locator): Promise<{ text: string; from: number; to: number } | null> {
  const ids = ((await chart.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  return chart.page().evaluate((ids) => {
    for (const id of ids) {
      const element = document.getElementById(id);
      const ends = [...(element?.querySelectorAll('time') ?? [])].map(
        (time) => Date.parse(time.dateTime) / 1000,
      );
      const [from, to] = ends;
      if (element && ends.length === 2 && from !== undefined && to !== undefined) {
        return { text: element.textContent ?? '', from, to };
      }
    }
    return null;
  }, ids);
}

/** The page is no wider than the phone, and the chart's canvas lies within its card. */
async function fitsThePhone(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const card = await marketCard(page).boundingBox();
  const canvas = await chartOf(page).locator('canvas').boundingBox();
  if (!card || !canvas) throw new Error('the market card or its chart is not on screen');
  expect(canvas.x).toBeGreaterThanOrEqual(card.x);
  expect(canvas.x + canvas.width).toBeLessThanOrEqual(card.x + card.width);
}

/** The chart, and the whole tab from its top, in reports/screenshots/ for a person to look at. */
async function shoot(page: Page, points: string): Promise<void> {
  const figure = marketCard(page).locator('figure');
  await figure.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await reportScreenshot(figure, `trading-chart-phone-${points}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await reportScreenshot(page, `trading-tab-phone-${points}`);
}

describe('DEX Trading: the price chart on a phone', () => {
  // Its 500 transactions take about 10 s alone, three times that beside the rest of the layer.
  it('spans minutes for a fresh market’s one point and the points’ own time for 500, with the context folded', async () => {
    const { page, pageErrors } = await openPortal({
      colorScheme: 'dark',
      viewport: PHONE,
      beforeLoad: (opening) =>
        opening.route(
          (url) => url.origin === new URL(shared.rpcUrl).origin,
          (route) => route.continue({ url: fresh.rpcUrl }),
        ),
    });
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    // A visitor is welcomed, reads it and closes it: the toast would cover the chart.
    await page.getByRole('status').filter({ hasText: appCopy.welcome.title }).waitFor();
    await clearToasts(page);
    await page
      .getByRole('navigation', { name: shellCopy.sections })
      .getByRole('button', { name: appCopy.tabs.trading, exact: true })
      .click();

    // A fresh market: the seed liquidity's one price point, and ten minutes up to it.
    const [seeded, ...others] = await pricePointTimes();
    expect(others).toEqual([]);
    if (seeded === undefined) throw new Error('the fresh pool has no price point');
    const chart = chartOf(page);
    await chart.waitFor();
    await expect.poll(() => timeAxis(chart)).toMatchObject({ from: seeded - CHART_MIN_WINDOW_S, to: seeded });
    expect((await timeAxis(chart))?.text).toMatch(
      new RegExp(`^${dexCopy.timeAxis.from} .+ ${dexCopy.timeAxis.to} `),
    );
    await fitsThePhone(page);
    await shoot(page, '1-point');

    // Below the market, the account's context is folded under its title, and opens on a tap.
    const context = page.getByRole('region', { name: tradingCopy.contextTitle, exact: true });
    await context.waitFor();
    const noWallet = context.getByText(tradingCopy.noWallet, { exact: true });
    expect(await noWallet.isVisible()).toBe(false);
    await context.getByText(tradingCopy.contextTitle, { exact: true }).click();
    await noWallet.waitFor();
    expect(await runAxe(page, 'trading, phone, dark')).toEqual([]);
    await fitsThePhone(page);

    // 499 swaps later, a block apart: the chart keeps 500 points, from the seed to the last swap.
    const last = await tradeEveryBlock(499);
    const times = await pricePointTimes();
    expect([times.length, times[0], times.at(-1)]).toEqual([500, seeded, last]);
    await expect.poll(() => timeAxis(chart), { timeout: 30_000 }).toMatchObject({ from: seeded, to: last });
    await fitsThePhone(page);
    await shoot(page, '500-points');
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
