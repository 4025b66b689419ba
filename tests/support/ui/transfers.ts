import { createPublicClient, createWalletClient, erc20Abi, formatUnits, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sendTransaction, waitForTransactionReceipt, writeContract } from 'viem/actions';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  balanceCopy,
  portalCopy,
  profileCopy,
  sendCopy,
  shortAddress,
  walletCopy,
} from '../../../src/copy/index.ts';
import { walletMachine } from '../../../src/machines/wallet/wallet.machine.ts';
import type { ChainAccount } from '../../../stack/chain/index.ts';
import { tokenBalance } from '../stack/chain.ts';
import { e2e } from '../e2e/context.ts';
import { button } from '../e2e/portal-page.ts';
import { admin, balanceValue } from '../e2e/ui.ts';
import { seesToast, type PortalWorld } from './world.ts';

// What the balances, send and history maps share: connecting the mock wallet
// the way a visitor or a signed-in user does, freeing a wallet an earlier path
// linked, transfers on the chain made outside the page, and the send form.

/** The delay after which a visitor's wallet gets the 'Login Recommended' toast. */
const LOGIN_HINT_MS = (() => {
  const delay: unknown = walletMachine.implementations.delays['loginHintDelay'];
  if (typeof delay !== 'number') throw new Error('the wallet machine has no fixed loginHintDelay');
  return delay;
})();

/**
 * Connects the world's wallet with the panel's button and waits for its address. A visitor's
 * 'Login Recommended' toast is brought forward on the page's clock (the world is opened with
 * `clock: true`), so it cannot replace the toast of a later step.
 */
export async function connectWallet(world: PortalWorld, address: string, signedIn: boolean): Promise<void> {
  await button(world.page, signedIn ? walletCopy.connectYourWallet : walletCopy.connectWallet).click();
  await world.page.getByText(shortAddress(address), { exact: true }).waitFor();
  if (signedIn) {
    // The profile proves and links the wallet as soon as it is connected.
    await seesToast(world.page, profileCopy.createdAndLinked);
  } else {
    await world.page.clock.fastForward(LOGIN_HINT_MS);
    await seesToast(world.page, walletCopy.loginRecommended.title);
  }
}

/** Frees wallets an earlier path linked to its user, so this path's user can prove them. */
export async function unlinkWallets(...accounts: ChainAccount[]): Promise<void> {
  for (const { address } of accounts) {
    const { error } = await admin()
      .from('profiles')
      .update({ wallet_address: null })
      .ilike('wallet_address', address);
    if (error) throw new Error(`could not unlink ${address}: ${error.message}`);
  }
}

const transport = () => http(e2e().chain.rpcUrl, { retryCount: 0 });

/** `from` pays `to` this many DDEX on the chain, outside the page; resolves once it is mined. */
export async function payDdex(from: ChainAccount, to: string, amount: string): Promise<void> {
  const { tokenAddress } = e2e().chain;
  const hash = await writeContract(
    createWalletClient({ account: privateKeyToAccount(from.privateKey), transport: transport() }),
    {
      address: tokenAddress,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to as `0x${string}`, parseUnits(amount, 18)],
      chain: null,
    },
  );
  await waitForTransactionReceipt(createPublicClient({ transport: transport() }), { hash });
}

/**
 * Another transaction from `account`, sent outside the page and mined: it takes the account's next
 * nonce, as a second wallet holding the same key would.
 */
export async function takeNonce(account: ChainAccount): Promise<void> {
  const hash = await sendTransaction(
    createWalletClient({ account: privateKeyToAccount(account.privateKey), transport: transport() }),
    { to: account.address, value: 0n, chain: null },
  );
  await waitForTransactionReceipt(createPublicClient({ transport: transport() }), { hash });
}

/** An account's exact DDEX balance, as the panel's hover title and copy button give it. */
export async function ddexExact(address: string): Promise<string> {
  return formatUnits(await tokenBalance(e2e().chain, address as `0x${string}`), 18);
}

/** The send form's fields and buttons, by their labels. */
export function sendForm(page: Page) {
  return {
    recipient: page.getByLabel(sendCopy.recipient, { exact: true }),
    amount: page.getByLabel(sendCopy.amount, { exact: true }),
    privateKey: page.getByLabel(sendCopy.privateKey, { exact: true }),
    submit: page.getByRole('button', { name: sendCopy.submit, exact: true }),
    busy: page.getByRole('button', { name: sendCopy.submitting, exact: true }),
    withWallet: page.getByRole('button', { name: sendCopy.sendWithWallet, exact: true }),
  };
}

/** Fills the send form as a user types it (a field left out is cleared). */
export async function fillSendForm(
  page: Page,
  fields: { recipient?: string; amount?: string; privateKey?: string },
): Promise<void> {
  const form = sendForm(page);
  await form.recipient.fill(fields.recipient ?? '');
  await form.amount.fill(fields.amount ?? '');
  await form.privateKey.fill(fields.privateKey ?? '');
}

/**
 * Whether the toast region announced `text` while `act` ran, however briefly: a toast that a
 * later one replaces in the same moment is never on screen long enough to wait for.
 */
export async function announces(page: Page, text: string, act: () => Promise<void>): Promise<void> {
  await page.evaluate(() => {
    const heard: string[] = [];
    Object.assign(window, { __toastsHeard: heard });
    new MutationObserver(() => {
      for (const region of document.querySelectorAll('[aria-live]')) heard.push(region.textContent ?? '');
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await act();
  await expect
    .poll(() =>
      page.evaluate(
        (words) =>
          ((window as unknown as { __toastsHeard?: string[] }).__toastsHeard ?? []).some((line) =>
            line.includes(words),
          ),
        text,
      ),
    )
    .toBe(true);
}

/** The wallet panel's balances are not loading: no read of theirs is on its way to the node. */
export async function balancesSettled(page: Page): Promise<void> {
  await expect.poll(() => button(page, portalCopy.refreshBalances).isEnabled()).toBe(true);
  await expect.poll(() => balanceValue(page, balanceCopy.token).textContent()).not.toBe(balanceCopy.loading);
}
