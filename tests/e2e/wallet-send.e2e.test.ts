import type { Page } from 'playwright-core';
import { parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  appCopy,
  balanceCopy,
  profileCopy,
  sendCopy,
  shellCopy,
  shortAddress,
  tokenCopy,
  transactionCopy,
  walletCopy,
} from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { tokenBalance } from '../support/stack/chain.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { openPortal, type Portal } from '../support/e2e/browser.ts';
import { e2e } from '../support/e2e/context.ts';
import { balanceValue, openSignedIn, READABLE_AMOUNT, toast } from '../support/e2e/ui.ts';

// 'Send with wallet' (docs/product.md#send-with-wallet): the connected wallet signs and broadcasts
// the DDEX transfer (eth_sendTransaction; the mock wallet has the local Hardhat node sign for the
// test account), on the local chain. A signed-in user's transfer lands in the history, and the amount
// is checked before the wallet is asked. A rejection in the wallet and a transaction mined with too
// little gas are wallet-send.ui's paths (tests/model/wallet-send.ui.test.ts).

const sender = e2eAccount('walletSender');
const recipient = e2eAccount('walletRecipient');

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

function form(page: Page) {
  return {
    recipient: page.getByLabel(sendCopy.recipient, { exact: true }),
    amount: page.getByLabel(sendCopy.amount, { exact: true }),
    privateKey: page.getByLabel(sendCopy.privateKey, { exact: true }),
    withWallet: button(page, sendCopy.sendWithWallet),
  };
}

/** The portal opened with the sender's mock wallet, not yet connected. */
async function opened(): Promise<Portal & { wallet: NonNullable<Portal['wallet']> }> {
  const portal = await openPortal({ wallet: { account: sender } });
  if (!portal.wallet) throw new Error('opened without the mock wallet');
  return { ...portal, wallet: portal.wallet };
}

async function connected(): Promise<Portal & { wallet: NonNullable<Portal['wallet']> }> {
  const portal = await opened();
  await button(portal.page, walletCopy.connectWallet).click();
  await portal.page.getByText(shortAddress(sender.address), { exact: true }).waitFor();
  await ddexShown(portal.page);
  return portal;
}

/** The DDEX balance is on screen, so the form's amount is checked against it. */
async function ddexShown(page: Page) {
  await expect.poll(() => balanceValue(page, balanceCopy.token).textContent()).toMatch(READABLE_AMOUNT);
}

describe('Send with wallet', () => {
  it('signed in: waits for the wallet, pays the recipient, and the history shows the transfer', async () => {
    const { page, wallet, pageErrors, user } = await openSignedIn('walletsend', {
      wallet: { account: sender },
    });
    if (!wallet) throw new Error('the portal opened without the mock wallet');
    // Connected while signed in: the wallet proves itself and is linked, so the send is recorded.
    await button(page, walletCopy.connectYourWallet).click();
    await page.getByText(shortAddress(sender.address), { exact: true }).waitFor();
    await toast(page, profileCopy.createdAndLinked).waitFor();
    await ddexShown(page);
    const before = await tokenBalance(e2e().chain, recipient.address);

    const fields = form(page);
    await fields.recipient.fill(recipient.address);
    await fields.amount.fill('2.5');
    // The wallet's prompt stays open until released.
    const release = await wallet.holdNext();
    await fields.withWallet.click();
    await toast(page, sendCopy.walletPrompt.title).waitFor();
    const waiting = button(page, sendCopy.walletWaiting);
    await waiting.waitFor();
    expect(await waiting.isDisabled()).toBe(true);
    expect(await button(page, sendCopy.submit).isDisabled()).toBe(true);
    await release();

    await toast(page, sendCopy.transferSubmitted).waitFor({ timeout: 30_000 });
    await page.getByText(/^Transaction hash: 0x[0-9a-f]{8}\.\.\.$/).waitFor();
    expect(await tokenBalance(e2e().chain, recipient.address)).toBe(before + parseUnits('2.5', 18));
    expect(await wallet.requests()).toContain('eth_sendTransaction');
    await expect.poll(() => fields.recipient.inputValue()).toBe('');

    await button(page, shellCopy.userMenu(user.email.split('@')[0] ?? '')).click();
    await page.getByRole('button', { name: appCopy.menu.transactions, exact: true }).click();
    const history = page.getByRole('dialog', { name: dialogCopy.transactions.title });
    await history.getByText(transactionCopy.typeLabel('token_sent'), { exact: true }).waitFor();
    await history.getByText('-2.5', { exact: false }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('checks the amount before the wallet is asked: the minimum, the decimals and the balance shown', async () => {
    const { page, wallet } = await connected();
    const fields = form(page);
    await fields.recipient.fill(recipient.address);
    for (const [amount, words] of [
      ['0', sendCopy.belowMinimum(sendCopy.minimumAmount)],
      ['1.0000000000000000001', tokenCopy.tooManyDecimals(18)],
      ['100000000', null],
    ] as const) {
      await fields.amount.fill(amount);
      await fields.withWallet.click();
      await toast(page, sendCopy.invalidTransfer).waitFor();
      if (words) await page.getByText(words, { exact: true }).waitFor();
      else
        await page
          .getByText(/^The sending account holds \d+(\.\d+)? tokens, but the transfer needs 100000000\.$/)
          .waitFor();
      await page.getByRole('button', { name: shellCopy.dismissToast }).click();
      await toast(page, sendCopy.invalidTransfer).waitFor({ state: 'detached' });
    }
    expect(await wallet.requests()).not.toContain('eth_sendTransaction');
  });

  it('a wallet ahead of a chain started afresh: says what happened and how to clear it, and nothing is sent', async () => {
    const { page, wallet } = await connected();
    const before = await tokenBalance(e2e().chain, recipient.address);
    const fields = form(page);
    await fields.recipient.fill(recipient.address);
    await fields.amount.fill('1');
    await wallet.sendWithNonceAheadNext(5);
    await fields.withWallet.click();

    await toast(page, sendCopy.transferFailed).waitFor();
    await page.getByText(walletCopy.nonceAhead, { exact: true }).waitFor();
    // Not 'may have been sent': the node refused it, so the form is free again at once.
    expect(await page.getByText(sendCopy.mayHaveBeenSent, { exact: true }).count()).toBe(0);
    expect(await tokenBalance(e2e().chain, recipient.address)).toBe(before);
  });
});
