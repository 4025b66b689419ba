import { LOCAL_WALLET_KEY } from '../../src/services/local-wallet/names.ts';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { botCopy } from '../../src/copy/bots.ts';
import { dexCopy } from '../../src/copy/dex.ts';
import { faucetCopy } from '../../src/copy/faucet.ts';
import { localHumanCheckCopy } from '../../src/copy/faucet-local.ts';
import { appCopy, authCopy, balanceCopy, sendCopy, shellCopy, walletCopy } from '../../src/copy/index.ts';
import { localWalletCopy } from '../../src/copy/local-wallet.ts';
import { localWalletOfferCopy } from '../../src/copy/local-wallet-offer.ts';
import { openPortal } from '../support/e2e/browser.ts';
import { swapsOnTheSharedPool } from '../support/e2e/pool-lock.ts';
import { button } from '../support/e2e/portal-page.ts';
import { screenshot } from '../support/e2e/screenshot.ts';
import { consoleAndErrors, domText, keyForms, recordTraffic } from '../support/e2e/secret-sweep.ts';
import { balanceExact, recordToasts, toast } from '../support/e2e/ui.ts';

// The first minute without any extension (issue: a wallet for every newcomer): the portal says
// MetaMask is not installed, word for word, and offers its local test wallet. Taken, it is funded
// with gas, signs the person in with Ethereum, claims DDEX from the faucet, sends DDEX, buys DDEX
// on the Trading tab and sets up a bot, each wallet request only after Approve in its dialog,
// which shows what is signed; a Reject ends that flow with its rejection, and nothing was sent.

swapsOnTheSharedPool();

const walletDialog = (page: Page) => page.getByRole('dialog', { name: localWalletCopy.dialogTitle });
const swapCard = (page: Page) => page.getByRole('region', { name: dexCopy.swapTitle, exact: true });
const cardButton = (page: Page, name: string) => swapCard(page).getByRole('button', { name, exact: true });
const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: shellCopy.sections }).getByRole('button', { name, exact: true });
const ddex = async (page: Page) => Number(await balanceExact(page, balanceCopy.token));

/** Waits for the wallet's dialog to ask `question` and answers it. */
async function answer(page: Page, question: string, choice: string) {
  const dialog = walletDialog(page);
  await dialog.getByText(question, { exact: true }).waitFor({ timeout: 30_000 });
  await dialog.getByRole('button', { name: choice, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('the local test wallet, in a browser with no extension', () => {
  it('is taken from the not-installed toast, signs in, claims, sends, trades and sets up a bot, asking each time', async () => {
    const portal = await openPortal({ wallet: false });
    const { page, pageErrors } = portal;
    const traffic = recordTraffic(portal.context, page);
    // The visitor prompt offers it under the button once no wallet was found.
    await page.getByText(localWalletOfferCopy.visitorLine, { exact: false }).waitFor();
    await button(page, walletCopy.connectWallet).click();
    await page.getByText(walletCopy.notInstalled, { exact: true }).waitFor();
    await page
      .locator('[role="status"], [role="alert"]')
      .getByRole('button', { name: localWalletOfferCopy.offer, exact: true })
      .click();
    await toast(page, walletCopy.connected).waitFor({ timeout: 30_000 });
    const key = await page.evaluate((name) => window.localStorage.getItem(name), LOCAL_WALLET_KEY);
    expect(key).toMatch(/^0x[0-9a-f]{64}$/);
    // Funded on first use with gas.
    await expect.poll(() => balanceExact(page, balanceCopy.native)).toBe('1');

    // Sign in with Ethereum: the dialog shows the message it signs, naming the portal's origin.
    await button(page, authCopy.login).click();
    const login = page.getByRole('dialog', { name: authCopy.titleLogin });
    await login.getByRole('button', { name: new RegExp(`^${authCopy.continueWithWallet}`) }).click();
    await walletDialog(page).getByText(new URL(page.url()).host, { exact: false }).first().waitFor();
    // The README's picture of the wallet's dialog (npm run screenshots).
    await screenshot(page, 'local-wallet-sign', { fullPage: false });
    await answer(page, localWalletCopy.askSign, localWalletCopy.approve);
    await toast(page, authCopy.loginSuccess.title).waitFor();
    await button(page, authCopy.logout).waitFor();

    // The wallet it signed in with is proven: the faucet pays it, after the local human check.
    const seen = await recordToasts(page);
    await button(page, faucetCopy.getTestDdex).click();
    await page
      .getByRole('group', { name: faucetCopy.humanCheck.title })
      .getByRole('checkbox', { name: localHumanCheckCopy.label })
      .click();
    // Its toast can make way at once for the notice of the transfer it paid: seen as it came.
    await expect
      .poll(async () => (await seen()).some((text) => text.includes(faucetCopy.paid('100').title)))
      .toBe(true);
    await expect.poll(() => ddex(page), { timeout: 30_000 }).toBe(100);

    // Send DDEX with the wallet: the dialog shows the call it sends.
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    await page.getByLabel(sendCopy.recipient, { exact: true }).fill(recipient);
    await page.getByLabel(sendCopy.amount, { exact: true }).fill('2.5');
    await button(page, sendCopy.sendWithWallet).click();
    await walletDialog(page).getByText(localWalletCopy.data, { exact: true }).waitFor();
    await answer(page, localWalletCopy.askTransaction, localWalletCopy.approve);
    await toast(page, sendCopy.transferSubmitted).waitFor({ timeout: 30_000 });
    await expect.poll(() => ddex(page)).toBe(97.5);

    // A swap rejected in the dialog ends with its rejection, and nothing was sent.
    await tab(page, appCopy.tabs.trading).click();
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

    // A bot: the server keeps it; nothing to sign.
    await tab(page, appCopy.tabs.bots).click();
    await page.getByRole('button', { name: botCopy.newBot, exact: true }).click();
    const form = page.getByRole('region', { name: botCopy.createTitle, exact: true });
    await form.getByLabel(botCopy.fields.name, { exact: true }).fill('First bot');
    await form.getByLabel(botCopy.fields.kind, { exact: true }).selectOption('priceAbove');
    await form.getByLabel(botCopy.fields.level, { exact: true }).fill('1');
    await form.getByRole('button', { name: botCopy.create, exact: true }).click();
    await toast(page, botCopy.created).waitFor();

    // The key stayed in this browser's storage: it was in no request, socket frame, URL, console
    // line or piece of the page while hidden.
    const forms = keyForms(key ?? '', 'the local wallet key');
    const sent = [
      ...(await traffic.requests()).map(({ url, headers, body }) => `${url}\n${headers}\n${body}`),
      ...traffic.frames,
      ...traffic.sockets,
      ...traffic.navigations,
      consoleAndErrors(portal),
      (await domText(page)).markup,
      (await domText(page)).values,
    ];
    expect(forms.filter((form) => sent.some((text) => form.in(text))).map(({ name }) => name)).toEqual([]);

    // Its menu under the address reveals the key, and replaces the wallet by a new one.
    await tab(page, appCopy.tabs.portal).click();
    await button(page, localWalletCopy.revealKey).click();
    expect(await page.getByTestId('local-wallet-key').textContent()).toBe(key);
    await button(page, localWalletCopy.hideKey).click();
    await page.getByTestId('local-wallet-key').waitFor({ state: 'detached' });
    await button(page, localWalletCopy.replace).click();
    await page.getByText(localWalletCopy.replaceQuestion, { exact: true }).waitFor();
    const reloaded = page.waitForEvent('load');
    await button(page, localWalletCopy.replaceConfirm).click();
    await reloaded;
    const replaced = await page.evaluate((name) => window.localStorage.getItem(name), LOCAL_WALLET_KEY);
    expect(replaced).toMatch(/^0x[0-9a-f]{64}$/);
    expect(replaced).not.toBe(key);
    expect(pageErrors).toEqual([]);
  });

  it('pays its gas again to a stored wallet the chain does not know, as after npm start -- --fresh', async () => {
    // A key this browser kept from an earlier chain: its account holds nothing on this one.
    const key = generatePrivateKey();
    const { page, pageErrors } = await openPortal({
      wallet: false,
      beforeLoad: (opened) =>
        opened.addInitScript(([name, stored]) => window.localStorage.setItem(name, stored), [
          LOCAL_WALLET_KEY,
          key,
        ] as const),
    });
    await page.getByRole('button', { name: localWalletOfferCopy.offer, exact: true }).click();
    await toast(page, walletCopy.connected).waitFor({ timeout: 30_000 });
    await page.getByText(privateKeyToAccount(key).address.slice(0, 6), { exact: false }).first().waitFor();
    await expect.poll(() => balanceExact(page, balanceCopy.native)).toBe('1');
    expect(pageErrors).toEqual([]);
  });
});
