import type { Locator, Page } from 'playwright-core';
import { createPublicClient, formatUnits, http, parseAbiItem } from 'viem';
import { describe, expect, it } from 'vitest';
import { readAppConfig } from '../../src/config/app-config.ts';
import { dexCopy } from '../../src/copy/dex.ts';
import { appCopy, shellCopy } from '../../src/copy/index.ts';
import { reserves } from '../support/stack/market.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { openPortal } from '../support/e2e/browser.ts';
import { e2e } from '../support/e2e/context.ts';
import { connect, openWithWallet } from '../support/e2e/portal-page.ts';

// The DEX Trading tab before any swap (docs/product.md#dex-trading): the market as anyone sees it,
// without a wallet, and the swap form of a wallet on another network. Nothing here trades, but
// trading.e2e does meanwhile: each look at the market is compared with the pool as it is then.

const chain = e2e().chain;
const { rpcUrl, uniswap } = chain;
const reader = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
const ONE = 10n ** 18n;
const swapEvent = parseAbiItem(
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
);

/** How many trades the list shows: the pair's swaps so far, the last 20 at most. */
async function tradesOnChain(): Promise<number> {
  const logs = await reader.getLogs({ address: uniswap.pair, event: swapEvent, fromBlock: 0n });
  return Math.min(logs.length, 20);
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
const figure = (scope: Locator, label: string) =>
  scope
    .locator('dt')
    .filter({ hasText: exactly(label) })
    .locator('xpath=following-sibling::dd[1]');
/** A pair of what the page shows and what the chain says it should, for a poll that waits for both to agree. */
const agree = ([shownText, expected]: readonly [unknown, unknown]) => shownText === expected;

describe('DEX Trading: the market', () => {
  it('a visitor without a wallet sees reserves, prices, the chart and the trades, and is asked to connect', async () => {
    const { page, pageErrors } = await openPortal();
    await tab(page, appCopy.tabs.trading).click();
    const market = marketCard(page);
    await figure(market, dexCopy.reserves).waitFor();

    await expect
      .poll(async () => {
        const { eth, ddex } = await reserves(chain, uniswap);
        return [
          await figure(market, dexCopy.reserves).innerText(),
          `${dexCopy.amountOf(shown(eth), dexCopy.eth)}\n${dexCopy.amountOf(shown(ddex), dexCopy.ddex)}`,
        ] as const;
      })
      .toSatisfy(agree);
    await expect
      .poll(async () => {
        const { eth, ddex } = await reserves(chain, uniswap);
        return [
          await figure(market, dexCopy.price).innerText(),
          `${dexCopy.priceOfDdex(shown((eth * ONE) / ddex))}\n${dexCopy.priceOfEth(shown((ddex * ONE) / eth))}`,
        ] as const;
      })
      .toSatisfy(agree);

    // The chart is a picture with a name; its text alternative is the last price, then the time
    // axis (trading-chart.e2e reads that).
    const chart = market.getByRole('img', { name: dexCopy.chartTitle, exact: true });
    await chart.waitFor();
    const [lastPrice] = ((await chart.getAttribute('aria-describedby')) ?? '').split(' ');
    const description = page.locator(`[id="${lastPrice}"]`);
    await expect
      .poll(
        async () =>
          [
            await description.textContent(),
            dexCopy.lastPrice(midPrice(await reserves(chain, uniswap))),
          ] as const,
      )
      .toSatisfy(agree);

    // The last trades, as many as the pair has made (up to 20), or the words for none.
    await market.getByRole('heading', { name: dexCopy.tradesTitle, exact: true }).waitFor();
    await expect
      .poll(async () => {
        const rows = await market.locator('tbody tr').count();
        const none = await market.getByText(dexCopy.tradesEmpty, { exact: true }).count();
        return [rows === 0 && none === 1 ? 'none' : rows, (await tradesOnChain()) || 'none'] as const;
      })
      .toSatisfy(agree);

    // Read-only: the form cannot be filled, and in place of 'Swap' the card asks for a wallet.
    await cardButton(page, dexCopy.connectWallet).waitFor();
    expect(await swapCard(page).getByLabel(dexCopy.youPay, { exact: true }).isDisabled()).toBe(true);
    expect(await cardButton(page, dexCopy.swap).count()).toBe(0);
    expect(await cardButton(page, dexCopy.approve).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('a wallet on another network is asked to switch before it can swap, and the switch opens the form', async () => {
    const viewer = e2eAccount('viewer');
    const { page, wallet, pageErrors } = await openWithWallet({ account: viewer });
    await connect(page, viewer.address);
    await tab(page, appCopy.tabs.trading).click();
    await cardButton(page, dexCopy.enterAmount).waitFor();

    await wallet.emitChainChanged(1);
    const expected = readAppConfig(e2e().apps.full.env).chain.name;
    const switchNetwork = cardButton(page, dexCopy.switchNetwork(expected));
    await switchNetwork.waitFor();
    expect(await swapCard(page).getByLabel(dexCopy.youPay, { exact: true }).isDisabled()).toBe(true);
    expect(await cardButton(page, dexCopy.swap).count()).toBe(0);

    await switchNetwork.click();
    await cardButton(page, dexCopy.enterAmount).waitFor();
    expect(await wallet.requests()).toContain('wallet_switchEthereumChain');
    await swapCard(page).getByLabel(dexCopy.youPay, { exact: true }).fill('0.01');
    await cardButton(page, dexCopy.swap).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
