import type { Page } from 'playwright-core';
import { createPublicClient, createWalletClient, erc20Abi, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { waitForTransactionReceipt, writeContract } from 'viem/actions';
import { describe, expect, it } from 'vitest';
import {
  shortAddress,
  notificationCopy,
  profileCopy,
  shellCopy,
  walletCopy,
  webhookCopy,
} from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { e2e } from '../support/e2e/context.ts';
import { openSignedIn, toast } from '../support/e2e/ui.ts';

// The loop the portal exists to show, in the browser: a signed-in user
// connects their wallet, proves it, and watches it with the Tatum demo; someone pays the
// wallet DDEX on chain; the notification arrives live (toast and dot) and is
// in the notifications list.

const button = (page: Page, name: string | RegExp) => page.getByRole('button', { name, exact: true });

describe('a payment to a watched wallet', () => {
  it('arrives live as a notification: toast, unread dot and the list', async () => {
    const wallet = e2eAccount('notified');
    const payer = e2eAccount('notifier');
    const { page, pageErrors } = await openSignedIn('paid', { wallet: { account: wallet } });
    await button(page, walletCopy.connectYourWallet).click();
    await page.getByText(shortAddress(wallet.address), { exact: true }).waitFor();
    // The wallet signs its proof and is linked: only a proven wallet can be watched.
    await toast(page, profileCopy.createdAndLinked).waitFor();

    await button(page, webhookCopy.create).click();
    await toast(page, webhookCopy.created).waitFor();

    const { chain } = e2e();
    const transport = http(chain.rpcUrl, { retryCount: 0 });
    const hash = await writeContract(
      createWalletClient({ account: privateKeyToAccount(payer.privateKey), transport }),
      {
        address: chain.tokenAddress,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [wallet.address, parseUnits('4', 18)],
        chain: null,
      },
    );
    await waitForTransactionReceipt(createPublicClient({ transport }), { hash });

    // process-payments words it; the portal shows the title and the 50-character preview.
    await toast(page, 'DDEX Received').waitFor();
    const message = `You received 4 DDEX from ${payer.address.slice(0, 6).toLowerCase()}…${payer.address.slice(-4).toLowerCase()} (tx ${hash.slice(0, 10)}…).`;
    await page.locator('[aria-live]').getByText(notificationCopy.preview(message), { exact: true }).waitFor();
    await button(page, shellCopy.notifications(1)).waitFor();

    await button(page, shellCopy.notifications(1)).click();
    const list = page.getByRole('dialog', { name: dialogCopy.notifications.title });
    await list.getByText(`(tx ${hash.slice(0, 10)}…)`, { exact: false }).waitFor();
    // Opening the list marked it read: once it is closed, the dot is gone.
    await page.keyboard.press('Escape');
    await button(page, shellCopy.notifications(0)).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
