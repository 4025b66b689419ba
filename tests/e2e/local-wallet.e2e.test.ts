import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appCopy, authCopy, shellCopy, walletCopy } from '../../src/copy/index.ts';
import { dexCopy } from '../../src/copy/dex.ts';
import { localWalletCopy } from '../../src/copy/local-wallet.ts';
import { localWalletOfferCopy } from '../../src/copy/local-wallet-offer.ts';
import { openPortal } from '../support/e2e/browser.ts';
import { button } from '../support/e2e/portal-page.ts';
import { toast } from '../support/e2e/ui.ts';

// The first minute without any extension (issue: a wallet for every newcomer): the portal says
// MetaMask is not installed, word for word, and offers its local test wallet; taken, it is funded
// with gas, signs the person in with Ethereum and buys DDEX on the Trading tab, each request only
// after Approve in its dialog, which shows what is signed; a Reject ends that flow with its
// rejection, and nothing was sent.

const walletDialog = (page: Page) => page.getByRole('dialog', { name: localWalletCopy.dialogTitle });
const swapCard = (page: Page) => page.getByRole('region', { name: dexCopy.swapTitle, exact: true });
const cardButton = (page: Page, name: string) => swapCard(page).getByRole('button', { name, exact: true });

/** Waits for the wallet's dialog to ask `question` and answers it. */
async function answer(page: Page, question: string, choice: string) {
  const dialog = walletDialog(page);
  await dialog.getByText(question, { exact: true }).waitFor({ timeout: 30_000 });
  await dialog.getByRole('button', { name: choice, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('the local test wallet, in a browser with no extension', () => {
  it('is taken from the not-installed toast, signs in with Ethereum and trades, asking each time', async () => {
    const { page, pageErrors } = await openPortal({ wallet: false });
    const connectButton = page.getByRole('button', { name: walletCopy.connectWallet, exact: true });
    // The visitor prompt offers it under the button once no wallet was found.
    await page.getByText(localWalletOfferCopy.visitorLine, { exact: false }).waitFor();
    await connectButton.click();
    await page.getByText(walletCopy.notInstalled, { exact: true }).waitFor();
    await page
      .locator('[role="status"], [role="alert"]')
      .getByRole('button', { name: localWalletOfferCopy.offer, exact: true })
      .click();
    await toast(page, walletCopy.connected).waitFor({ timeout: 30_000 });
    const key = await page.evaluate(() => window.localStorage.getItem('ddex.localTestWallet.key'));
    expect(key).toMatch(/^0x[0-9a-f]{64}$/);

    // Sign in with Ethereum: the dialog shows the message it signs, naming the portal's origin.
    await button(page, authCopy.login).click();
    const login = page.getByRole('dialog', { name: authCopy.titleLogin });
    await login.getByRole('button', { name: new RegExp(`^${authCopy.continueWithWallet}`) }).click();
    await walletDialog(page).getByText(new URL(page.url()).host, { exact: false }).first().waitFor();
    await answer(page, localWalletCopy.askSign, localWalletCopy.approve);
    await toast(page, authCopy.loginSuccess.title).waitFor();
    await button(page, authCopy.logout).waitFor();

    // A swap rejected in the dialog ends with its rejection, and nothing was sent.
    await page
      .getByRole('navigation', { name: shellCopy.sections })
      .getByRole('button', { name: appCopy.tabs.trading, exact: true })
      .click();
    await cardButton(page, dexCopy.enterAmount).waitFor();
    await swapCard(page).getByLabel(dexCopy.youPay, { exact: true }).fill('0.01');
    await cardButton(page, dexCopy.swap).click();
    await answer(page, localWalletCopy.askTransaction, localWalletCopy.reject);
    await swapCard(page).getByRole('heading', { name: dexCopy.swapRejected.title, exact: true }).waitFor();

    // Back at the form, approved, the same swap goes through.
    await cardButton(page, dexCopy.backToForm).click();
    await cardButton(page, dexCopy.swap).click();
    await answer(page, localWalletCopy.askTransaction, localWalletCopy.approve);
    await swapCard(page)
      .getByRole('heading', { name: dexCopy.swapConfirmed, exact: true })
      .waitFor({ timeout: 30_000 });
    expect(pageErrors).toEqual([]);
  });
});
