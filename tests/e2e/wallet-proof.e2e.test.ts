import { dialogCopy } from '../../src/copy/dialogs.ts';
import { describe, expect, it } from 'vitest';
import {
  authCopy,
  portalCopy,
  profileCopy,
  shellCopy,
  shortAddress,
  walletCopy,
  walletProofCopy,
} from '../../src/copy/index.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import type { ChainAccount } from '../../stack/chain/index.ts';
import { openPortal } from '../support/e2e/browser.ts';
import { admin, openProfileDialog, openSignedIn, signUpThroughUi, toast } from '../support/e2e/ui.ts';
import type { Page } from 'playwright-core';

// docs/product.md#wallet-sync and #auth-dialog: a wallet is linked to a profile only after it signs
// an EIP-4361 message, and it can be the way in. The mock wallet signs through the chain's node,
// which holds the test accounts' keys, as an extension signs with the user's.

async function openWithWallet(account: ChainAccount) {
  const portal = await openPortal({ wallet: { account } });
  const { wallet } = portal;
  if (!wallet) throw new Error('the portal opened without the mock wallet');
  return { ...portal, wallet };
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** Connects from the visitor prompt, or (signed in) from the wallet panel's own button. */
async function connect(page: Page, address: string, label: string = walletCopy.connectWallet) {
  await button(page, label).click();
  await page.getByText(shortAddress(address), { exact: true }).first().waitFor();
}

/** The profile row as the server keeps it. */
async function storedWallet(userId: string) {
  const { data, error } = await admin()
    .from('profiles')
    .select('wallet_address, wallet_verified_at')
    .eq('id', userId)
    .maybeSingle();
  expect(error).toBeNull();
  return data;
}

describe('wallet proof', () => {
  it('links the connected wallet to a new profile once the wallet has signed', async () => {
    const account = e2eAccount('linker');
    const { page, wallet, pageErrors } = await openWithWallet(account);
    await connect(page, account.address);
    expect(await wallet.requests()).not.toContain('personal_sign');

    // Through the dialog: the sign-up of a visitor whose wallet is connected is what sets the proof off.
    const { userId } = await signUpThroughUi(page, 'linker');
    await toast(page, profileCopy.createdAndLinked).waitFor();
    expect(await wallet.requests()).toContain('personal_sign');
    const stored = await storedWallet(userId);
    expect(stored?.wallet_address?.toLowerCase()).toBe(account.address.toLowerCase());
    expect(stored?.wallet_verified_at).not.toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it('links nothing when the signature is refused, and links on the next connect', async () => {
    const account = e2eAccount('refuser');
    const { page, wallet, pageErrors, user } = await openSignedIn('refuser', { wallet: { account } });
    if (!wallet) throw new Error('the portal opened without the mock wallet');
    const userId = user.id;
    await wallet.rejectNextOf('personal_sign');
    // Connected during the session: the proof is asked for at once.
    await connect(page, account.address, walletCopy.connectYourWallet);
    await toast(page, walletProofCopy.notLinked).waitFor();
    await toast(page, walletProofCopy.declined).waitFor();
    expect(await storedWallet(userId)).toMatchObject({ wallet_address: null, wallet_verified_at: null });

    // Connecting again asks again; this time the wallet signs.
    // Nothing was linked, so disconnecting has nothing to unlink.
    await button(page, portalCopy.disconnectWallet).click();
    await connect(page, account.address, walletCopy.connectYourWallet);
    await toast(page, profileCopy.createdAndLinked).waitFor();
    expect((await storedWallet(userId))?.wallet_verified_at).not.toBeNull();
    expect(pageErrors).toEqual([]);
  });

  it('signs in with Ethereum from the auth dialog: a wallet-only user, named by the address', async () => {
    const account = e2eAccount('web3User');
    const { page, wallet, pageErrors } = await openWithWallet(account);
    await connect(page, account.address);

    await button(page, authCopy.login).click();
    const dialog = page.getByRole('dialog', { name: authCopy.titleLogin });
    await dialog.getByRole('button', { name: new RegExp(`^${authCopy.continueWithWallet}`) }).click();
    await toast(page, authCopy.loginSuccess.title).waitFor();
    await button(page, authCopy.logout).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await wallet.requests()).toContain('personal_sign');

    // No email: the menu names the user by the shortened address.
    const name = shortAddress(account.address);
    await page.getByRole('button', { name: shellCopy.userMenu(name), exact: true }).waitFor();

    // The wallet that signed in is linked and verified at once, without a second signature.
    const signatures = (await wallet.requests()).filter((method) => method === 'personal_sign').length;
    const profile = await openProfileDialog(page);
    await profile.getByText(account.address, { exact: false }).first().waitFor();
    // No address to mail: the Notifications section says why, and offers no email choice.
    await profile.getByText(dialogCopy.profile.noEmail, { exact: true }).waitFor();
    expect(await profile.getByRole('checkbox').count()).toBe(0);
    const { data: owners, error } = await admin()
      .from('profiles')
      .select('email, wallet_verified_at')
      .ilike('wallet_address', account.address);
    expect(error).toBeNull();
    expect(owners).toHaveLength(1);
    expect(owners?.[0]?.email ?? null).toBeNull();
    expect(owners?.[0]?.wallet_verified_at).not.toBeNull();
    expect((await wallet.requests()).filter((method) => method === 'personal_sign').length).toBe(signatures);
    expect(pageErrors).toEqual([]);
  });

  it('signs nobody in when the dialog was closed before the wallet signed', async () => {
    const account = e2eAccount('viewer');
    const { page, wallet } = await openWithWallet(account);
    await connect(page, account.address);
    const grants: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('grant_type=web3')) grants.push(request.url());
    });
    await button(page, authCopy.login).click();
    const dialog = page.getByRole('dialog', { name: authCopy.titleLogin });
    const release = await wallet.holdNext();
    await dialog.getByRole('button', { name: new RegExp(`^${authCopy.continueWithWallet}`) }).click();
    await expect.poll(() => wallet.requests()).toContain('personal_sign');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The prompt was left open; the user signs it now, after closing the dialog.
    await release();
    await expect.poll(() => wallet.answered()).toContain('personal_sign');
    // Anything the signature set off has started by the page's next task.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(grants).toEqual([]);
    await button(page, authCopy.login).waitFor();
    expect(await button(page, authCopy.logout).count()).toBe(0);
  });
});
