import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readAppConfig } from '../../src/config/app-config.ts';
import { appCopy, portalCopy, shellCopy, shortAddress, walletCopy } from '../../src/copy/index.ts';
import { watchTokenCopy } from '../../src/copy/watch-token.ts';
import { walletMachine } from '../../src/machines/wallet/wallet.machine.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import {
  openPortal,
  type PortalOptions,
  type WalletHandle,
  type WalletSetup,
} from '../support/e2e/browser.ts';
import { e2e } from '../support/e2e/context.ts';

// The wallet on the portal screen (docs/product.md#wallet-panel, #wallet, #wallet-toasts):
// connect through the mock EIP-6963 wallet, the 6 + 4 address, copy,
// disconnect, each connection error, the account and chain changes a
// wallet announces, and adding DDEX to the wallet. Read-only accounts: nothing here sends.

const viewer = e2eAccount('viewer');
const viewerAlt = e2eAccount('viewerAlt');
/** How long after 'Wallet Connected!' a visitor is advised to log in. */
const LOGIN_HINT_DELAY_MS = Number(walletMachine.implementations.delays['loginHintDelay']);

/** The one toast on screen (status or alert region), by its title. */
function toast(page: Page, title: string) {
  return page.locator('[role="status"], [role="alert"]').getByText(title, { exact: true });
}

async function openWithWallet(setup: WalletSetup, options: Omit<PortalOptions, 'wallet'> = {}) {
  const portal = await openPortal({ ...options, wallet: setup });
  const { wallet } = portal;
  if (!wallet) throw new Error('the portal opened without the mock wallet');
  return { ...portal, wallet };
}

function connectButton(page: Page) {
  return page.getByRole('button', { name: walletCopy.connectWallet, exact: true });
}

async function connect(page: Page, address: string) {
  await connectButton(page).click();
  await page.getByText(shortAddress(address), { exact: true }).waitFor();
}

describe('wallet', () => {
  it('connects from the visitor prompt, showing the address shortened 6 + 4 with the full one for assistive tech', async () => {
    const { page, wallet } = await openWithWallet({ account: viewer }, { clock: true });
    await page.getByText(appCopy.visitorPrompt, { exact: true }).waitFor();
    // The button comes once the portal has looked for the wallet (its own requests answered).
    await connectButton(page).waitFor();

    // A prompt left open in the wallet: the button says so and cannot be pressed again.
    const release = await wallet.holdNext();
    await connectButton(page).click();
    const busy = page.getByRole('button', { name: walletCopy.connectingWallet, exact: true });
    await expect.poll(() => busy.isDisabled()).toBe(true);
    await release();

    const address = page.getByText(shortAddress(viewer.address), { exact: true });
    await address.waitFor();
    expect(shortAddress(viewer.address)).toMatch(/^0x[0-9a-fA-F]{4}\.\.\.[0-9a-fA-F]{4}$/);
    await expect.poll(() => toast(page, walletCopy.connected).isVisible()).toBe(true);
    await expect
      .poll(() => page.getByText(walletCopy.connectedDescription(viewer.address)).isVisible())
      .toBe(true);
    // The full address: on hover, and as the text a screen reader reads.
    expect(await page.getByTitle(viewer.address, { exact: true }).count()).toBe(1);
    expect(await page.getByText(viewer.address, { exact: true }).count()).toBe(1);
    expect(await page.getByText(appCopy.visitorPrompt).count()).toBe(0);
    // A visitor is advised to log in once the first toast has been read: 5 s on the page's clock.
    await page.clock.fastForward(LOGIN_HINT_DELAY_MS);
    await toast(page, walletCopy.loginRecommended.title).waitFor();
  });

  it('copies the full address to the clipboard, and says so when the clipboard refuses', async () => {
    const { page } = await openWithWallet({ account: viewer });
    await connect(page, viewer.address);

    await page.getByRole('button', { name: portalCopy.copyAddress }).click();
    await toast(page, walletCopy.copied.title).waitFor();
    await page.getByText(walletCopy.copied.description, { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(viewer.address);

    // A browser that refuses the write (permission denied, page not focused).
    await page.evaluate(() => {
      navigator.clipboard.writeText = () =>
        Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    });
    await page.getByRole('button', { name: portalCopy.copyAddress }).click();
    await toast(page, walletCopy.copyFailed.title).waitFor();
    await page.getByText(walletCopy.copyFailed.description, { exact: true }).waitFor();
  });

  it('disconnects: the address goes, the visitor prompt returns, and a reload does not reconnect', async () => {
    const { page } = await openWithWallet({ account: viewer });
    await connect(page, viewer.address);

    await page.getByRole('button', { name: portalCopy.disconnectWallet }).click();
    await toast(page, walletCopy.disconnected.title).waitFor();
    await page.getByText(appCopy.visitorPrompt, { exact: true }).waitFor();
    expect(await page.getByText(shortAddress(viewer.address)).count()).toBe(0);

    await page.reload();
    await connectButton(page).waitFor();
    await expect.poll(() => connectButton(page).isEnabled()).toBe(true);
    expect(await page.getByText(shortAddress(viewer.address)).count()).toBe(0);
  });

  it('reconnects silently on load when the wallet has approved the site before', async () => {
    const { page } = await openWithWallet({ account: viewer, connected: true });
    await page.getByText(shortAddress(viewer.address), { exact: true }).waitFor();
    expect(await page.getByText(appCopy.visitorPrompt).count()).toBe(0);
    // No prompt was needed, and no 'Wallet Connected!' toast announces what the visitor already had.
    expect(await toast(page, walletCopy.connected).count()).toBe(0);
  });

  it('says why the connection failed: the user rejects the request (4001), a request is already pending (-32002), the wallet fails otherwise', async () => {
    const { page, wallet } = await openWithWallet({ account: viewer });
    const failures: [string, (wallet: WalletHandle) => Promise<void>, string][] = [
      ['the user rejects the request (4001)', (mock) => mock.rejectNext(4001), walletCopy.denied],
      ['a request is already pending (-32002)', (mock) => mock.pendingNext(), walletCopy.pending],
      [
        'the wallet fails otherwise',
        (mock) => mock.rejectNext(-32603, 'Internal wallet failure.'),
        'Internal wallet failure.',
      ],
    ];
    for (const [what, arrange, description] of failures) {
      await expect.poll(() => connectButton(page).isEnabled(), { message: what }).toBe(true);
      await arrange(wallet);
      await connectButton(page).click();
      await toast(page, walletCopy.connectionFailed).waitFor();
      await page.getByText(description, { exact: true }).waitFor();
      // Nothing connected; the button is ready for another try.
      await expect.poll(() => connectButton(page).isEnabled(), { message: what }).toBe(true);
      expect(await page.getByText(appCopy.visitorPrompt).count(), what).toBe(1);
      // Dismissed, so the next failure's toast is a new one.
      await page.getByRole('button', { name: shellCopy.dismissToast }).click();
      await toast(page, walletCopy.connectionFailed).waitFor({ state: 'detached' });
    }
  });

  it('says MetaMask is not installed in a browser without a wallet', async () => {
    const { page } = await openPortal({ wallet: false });
    await expect.poll(() => connectButton(page).isEnabled()).toBe(true);
    await connectButton(page).click();
    await toast(page, walletCopy.connectionFailed).waitFor();
    await page.getByText(walletCopy.notInstalled, { exact: true }).waitFor();
  });

  it('follows an account switch in the wallet, and a disconnect from it', async () => {
    const { page, wallet } = await openWithWallet({ account: viewer, otherAccounts: [viewerAlt] });
    await connect(page, viewer.address);

    await wallet.emitAccountsChanged([viewerAlt.address]);
    await page.getByText(shortAddress(viewerAlt.address), { exact: true }).waitFor();
    await toast(page, walletCopy.accountChanged).waitFor();
    expect(await page.getByText(shortAddress(viewer.address)).count()).toBe(0);

    // The wallet revokes every account: the portal is disconnected.
    await wallet.emitAccountsChanged([]);
    await page.getByText(appCopy.visitorPrompt, { exact: true }).waitFor();
    await toast(page, walletCopy.disconnected.title).waitFor();
  });

  it('shows the wrong-network banner on another chain, and its button switches back', async () => {
    const { page, wallet } = await openWithWallet({ account: viewer });
    await connect(page, viewer.address);
    const expected = readAppConfig(e2e().apps.full.env).chain.name;
    const banner = page.getByText(walletCopy.wrongNetwork(expected), { exact: true });
    expect(await banner.count()).toBe(0);

    await wallet.emitChainChanged(1);
    await banner.waitFor();
    await page.getByRole('button', { name: walletCopy.switchNetwork, exact: true }).click();
    await banner.waitFor({ state: 'detached' });
    expect(await wallet.requests()).toContain('wallet_switchEthereumChain');
    // Still connected, on the right chain.
    await page.getByText(shortAddress(viewer.address), { exact: true }).waitFor();

    // A refused switch keeps the banner and says why.
    await wallet.emitChainChanged(1);
    await banner.waitFor();
    await wallet.rejectNext(4001);
    await page.getByRole('button', { name: walletCopy.switchNetwork, exact: true }).click();
    await toast(page, walletCopy.switchFailed).waitFor();
    await page.getByText(walletCopy.switchRejected, { exact: true }).waitFor();
    expect(await banner.count()).toBe(1);
  });

  it('adds DDEX to the wallet: the wallet is asked to watch the token, and each answer has its toast', async () => {
    const { page, wallet } = await openWithWallet({ account: viewer });
    await connect(page, viewer.address);
    const { tokenAddress } = readAppConfig(e2e().apps.full.env);
    if (!tokenAddress) throw new Error('the full build has no DDEX contract');
    const add = page.getByRole('button', { name: walletCopy.addToken, exact: true });

    // The wallet's prompt left open: the button waits for its answer.
    const release = await wallet.holdNextOf('wallet_watchAsset');
    await add.click();
    await expect.poll(() => add.isDisabled()).toBe(true);
    await release();
    await toast(page, watchTokenCopy.added.title).waitFor();
    await page.getByText(watchTokenCopy.added.description, { exact: true }).waitFor();
    // EIP-747: the ERC-20 by its address, symbol and decimals.
    expect(await wallet.watchedAssets()).toEqual([
      { type: 'ERC20', options: { address: tokenAddress, symbol: 'DDEX', decimals: 18 } },
    ]);

    const answers: [string, false | 4001 | -32601, string][] = [
      ['the wallet answers false', false, watchTokenCopy.declined],
      ['the user refuses the prompt (4001)', 4001, watchTokenCopy.declined],
      ['the wallet has no wallet_watchAsset (-32601)', -32601, watchTokenCopy.unsupported(tokenAddress)],
    ];
    for (const [what, answer, description] of answers) {
      // Dismissed, so the next answer's toast is a new one.
      await page.getByRole('button', { name: shellCopy.dismissToast }).click();
      await expect.poll(() => add.isEnabled(), { message: what }).toBe(true);
      await wallet.watchAssetNext(answer);
      await add.click();
      await toast(page, walletCopy.tokenNotAdded).waitFor();
      await page.getByText(description, { exact: true }).waitFor();
    }
    expect(await wallet.watchedAssets()).toHaveLength(1 + answers.length);

    // On another network the wallet would list it there: the button waits for the switch.
    await wallet.emitChainChanged(1);
    await expect.poll(() => add.isDisabled()).toBe(true);
  });
});
