import type { Page } from 'playwright-core';
import { createPublicClient, http, parseUnits } from 'viem';
import { getTransactionCount } from 'viem/actions';
import { describe, expect, it, onTestFinished } from 'vitest';
import { backoffMs } from '../../src/machines/shared.ts';
import { toastDurations } from '../../src/machines/toast.machine.ts';
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
import { openPortal, type PortalOptions, type WalletSetup } from '../support/e2e/browser.ts';
import { e2e } from '../support/e2e/context.ts';
import { admin, balanceValue, openSignedIn, openUserMenu, READABLE_AMOUNT } from '../support/e2e/ui.ts';

// The send form (docs/product.md#send-form, #send-form-order, #send-steps,
// #send-toasts): what a visitor sees checking, refusing and making a real DDEX
// transfer on the local chain, and the 'Configuration Error' build.
//
// The first check (docs/product.md#send-form-order), 'Wallet Not Connected', cannot be reached
// from the page: the form is shown only while a wallet is connected (docs/product.md#send-form), so its
// refusal is covered by the send machine's unit and model tests instead. The order of the other
// refusals, a refused key and a plain transfer are send.ui's paths (tests/model/send.ui.test.ts).

const sender = e2eAccount('sender');
const recipient = e2eAccount('recipient');
const viewer = e2eAccount('viewer');

function toast(page: Page, title: string) {
  return page.locator('[role="status"], [role="alert"]').getByText(title, { exact: true });
}

async function openConnected(setup: WalletSetup, options: Omit<PortalOptions, 'wallet'> = {}) {
  const portal = await openPortal({ ...options, wallet: setup });
  const { page } = portal;
  await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).click();
  await page
    .getByText(shortAddress(typeof setup.account === 'string' ? setup.account : setup.account.address), {
      exact: true,
    })
    .waitFor();
  return portal;
}

function form(page: Page) {
  return {
    recipient: page.getByLabel(sendCopy.recipient, { exact: true }),
    amount: page.getByLabel(sendCopy.amount, { exact: true }),
    privateKey: page.getByLabel(sendCopy.privateKey, { exact: true }),
    submit: page.getByRole('button', { name: sendCopy.submit, exact: true }),
    withWallet: page.getByRole('button', { name: sendCopy.sendWithWallet, exact: true }),
  };
}

describe('send form', () => {
  it('is there only with a wallet, with the fields the spec lists and the visitor note', async () => {
    const { page } = await openPortal({ wallet: { account: sender } });
    await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).waitFor();
    expect(await form(page).recipient.count()).toBe(0);

    await page.getByRole('button', { name: walletCopy.connectWallet, exact: true }).click();
    const fields = form(page);
    await fields.recipient.waitFor();
    expect(await fields.recipient.getAttribute('type')).toBe('text');
    expect(await fields.amount.getAttribute('type')).toBe('number');
    expect(await fields.amount.getAttribute('min')).toBe(sendCopy.minimumAmount);
    expect(await fields.amount.getAttribute('step')).toBe('any');
    expect(await fields.privateKey.getAttribute('type')).toBe('password');
    expect(await fields.privateKey.getAttribute('autocomplete')).toBe('off');
    // The testnet-only warning is the key field's description.
    const describedBy = (await fields.privateKey.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(sendCopy.privateKeyWarning);
    // Beside the spec's button, the wallet's, which needs no key.
    expect(await fields.withWallet.getAttribute('type')).toBe('submit');
    // Not saved to history while logged out.
    await page.getByText(sendCopy.visitorNote, { exact: true }).waitFor();
    // The machine checks in the order of docs/product.md#send-form-order; the browser must not speak first.
    for (const field of [fields.recipient, fields.amount, fields.privateKey]) {
      expect(await field.getAttribute('required')).toBeNull();
    }
  });

  it('a broadcast whose answer is lost names the hash, and the same form then sends nothing twice', async () => {
    const { page, pageErrors } = await openConnected({ account: sender });
    const fields = form(page);
    await expect
      .poll(() => balanceValue(page, balanceCopy.token).textContent())
      .not.toBe(balanceCopy.loading);
    const before = await tokenBalance(e2e().chain, recipient.address);
    const { rpcUrl } = e2e().chain;
    const reader = createPublicClient({ transport: http(rpcUrl) });
    const nonce = () => getTransactionCount(reader, { address: sender.address });

    // The node takes the transaction, but its answer never reaches the page.
    let broadcasts = 0;
    await page.route(
      (url) => url.href.startsWith(rpcUrl),
      async (route) => {
        if (!(route.request().postData() ?? '').includes('eth_sendRawTransaction')) return route.fallback();
        broadcasts += 1;
        await route.fetch();
        await route.abort('failed');
      },
    );
    await fields.recipient.fill(recipient.address);
    await fields.amount.fill('0.75');
    await fields.privateKey.fill(sender.privateKey);
    await fields.submit.click();

    await toast(page, sendCopy.mayHaveBeenSent).waitFor({ timeout: 30_000 });
    const description = page.getByText(/^Transaction 0x[0-9a-f]{64} may have reached the network/);
    const hash = /0x[0-9a-f]{64}/.exec((await description.textContent()) ?? '')?.[0];
    expect(hash).toBeDefined();
    expect(broadcasts).toBe(1);
    // It was sent: the recipient is paid, once.
    const paid = before + parseUnits('0.75', 18);
    expect(await tokenBalance(e2e().chain, recipient.address)).toBe(paid);
    const used = await nonce();
    expect(await fields.recipient.inputValue()).toBe(recipient.address);
    expect(await fields.amount.inputValue()).toBe('0.75');

    // Send again for the same form: the transaction is looked up, nothing is signed or sent.
    await page.getByRole('button', { name: shellCopy.dismissToast }).click();
    await fields.privateKey.fill(sender.privateKey);
    await fields.submit.click();
    await toast(page, sendCopy.transferSubmitted).waitFor({ timeout: 30_000 });
    await page.getByText(sendCopy.transferSubmittedDescription(hash ?? ''), { exact: true }).waitFor();
    expect(broadcasts).toBe(1);
    expect(await nonce()).toBe(used);
    expect(await tokenBalance(e2e().chain, recipient.address)).toBe(paid);
    await expect.poll(() => fields.recipient.inputValue()).toBe('');
    expect(pageErrors).toEqual([]);
  });

  it('refuses an amount below the minimum or with more than 18 decimals before anything is signed', async () => {
    const { page } = await openConnected({ account: sender });
    const fields = form(page);
    await fields.recipient.fill(recipient.address);
    for (const [amount, words] of [
      ['0.0000000000000000001', sendCopy.belowMinimum(sendCopy.minimumAmount)],
      ['2.1234567890123456789', tokenCopy.tooManyDecimals(18)],
    ] as const) {
      await fields.amount.fill(amount);
      await fields.privateKey.fill(sender.privateKey);
      await fields.submit.click();
      await toast(page, sendCopy.invalidTransfer).waitFor();
      await page.getByText(words, { exact: true }).waitFor();
      expect(await fields.privateKey.inputValue()).toBe('');
      await page.getByRole('button', { name: shellCopy.dismissToast }).click();
      await toast(page, sendCopy.invalidTransfer).waitFor({ state: 'detached' });
    }
  });

  it("stops with 'Configuration Error' when no token contract is configured, and shows 'N/A (Config Error)' in red", async () => {
    const { page } = await openConnected({ account: viewer }, { variant: 'noToken' });
    const token = balanceValue(page, balanceCopy.token);
    await expect.poll(() => token.textContent()).toBe(balanceCopy.configError);
    await expect.poll(() => balanceValue(page, balanceCopy.native).textContent()).toMatch(READABLE_AMOUNT);
    const [colour, red] = await token.evaluate((element) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--color-danger)';
      document.body.append(probe);
      const danger = getComputedStyle(probe).color;
      probe.remove();
      return [getComputedStyle(element).color, danger];
    });
    expect(colour).toBe(red);

    const fields = form(page);
    await fields.recipient.fill(recipient.address);
    await fields.amount.fill('1');
    await fields.privateKey.fill(viewer.privateKey);
    await fields.submit.click();
    await toast(page, sendCopy.configurationError.title).waitFor();
    await page.getByText(sendCopy.configurationError.description, { exact: true }).waitFor();
    expect(await fields.privateKey.inputValue()).toBe('');
    expect(await fields.recipient.inputValue()).toBe(recipient.address);
  });
});

describe('send form: the history row of a signed-in user', () => {
  /**
   * Signed in, with the sender's wallet connected, so the wallet is proven and linked (only a proven
   * wallet's sends are recorded). A wallet has one owner: it is unlinked after the test, so the
   * next test can prove it for its own user.
   */
  async function signedInSender() {
    const portal = await openSignedIn('outbox', { wallet: { account: sender }, clock: true });
    const userId = portal.user.id;
    onTestFinished(async () => {
      await admin().from('profiles').update({ wallet_address: null }).eq('id', userId);
    });
    await portal.page.getByRole('button', { name: walletCopy.connectYourWallet, exact: true }).click();
    await toast(portal.page, profileCopy.createdAndLinked).waitFor();
    return { ...portal, userId };
  }

  /**
   * record-transaction is down for its first `failures` calls: the first gets no answer, the
   * others a 503. Every later call reaches the real function. The second call is held until
   * `release()`, so the test can see the form while the save is still under way. `answered(n)`
   * resolves once the n-th call has had its failure, so the page's clock is moved on only then.
   */
  async function recordTransactionDown(page: Page, failures: number) {
    let calls = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answered: (() => void)[] = [];
    const answers = [1, 2, 3].map(() => new Promise<void>((resolve) => answered.push(resolve)));
    const recordTransaction = (url: URL) => url.pathname.endsWith('/functions/v1/record-transaction');
    await page.route(recordTransaction, async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      calls += 1;
      const call = calls;
      if (call === 2) await gate;
      if (call > failures) return route.fallback();
      if (call === 1) await route.abort('failed');
      else
        await route.fulfill({
          status: 503,
          contentType: 'application/json',
          headers: { 'access-control-allow-origin': '*' },
          body: JSON.stringify({ error: 'Unavailable', message: 'record-transaction is down' }),
        });
      answered[call - 1]?.();
    });
    return {
      calls: () => calls,
      release,
      answered: (call: number) => answers[call - 1],
      stop: () => page.unroute(recordTransaction),
    };
  }

  /** Sends 0.5 DDEX with the key and returns the hash preview 'Transfer Submitted' shows. */
  async function sendHalf(page: Page): Promise<string> {
    const fields = form(page);
    await fields.recipient.fill(recipient.address);
    await fields.amount.fill('0.5');
    await fields.privateKey.fill(sender.privateKey);
    await fields.submit.click();
    await toast(page, sendCopy.transferSubmitted).waitFor({ timeout: 30_000 });
    const description = await page.getByText(/^Transaction hash: 0x[0-9a-f]{8}\.\.\.$/).textContent();
    return /0x[0-9a-f]{8}/.exec(description ?? '')?.[0] ?? '';
  }

  const rowsOf = async (userId: string) => {
    const { data, error } = await admin()
      .from('transactions')
      .select('tx_hash, type, amount, token_symbol')
      .eq('user_id', userId);
    if (error) throw new Error(`could not read the history: ${error.message}`);
    return data;
  };

  it("saves the row on the third try while the form is free, and after three failed tries says 'Transfer not saved to history', the server's watch recording it still", async () => {
    const { page, userId, pageErrors } = await signedInSender();
    const saving = page.getByText(sendCopy.savingToHistory, { exact: true });

    // Down for two tries: the tries wait 1 s, then 2 s, on the page's clock.
    let down = await recordTransactionDown(page, 2);
    const first = await sendHalf(page);
    await saving.waitFor();
    await down.answered(1);
    await page.clock.fastForward(backoffMs(1));
    await expect.poll(() => down.calls()).toBe(2);
    // The form is free again while the row waits for the backend.
    await form(page).submit.waitFor();
    expect(await form(page).submit.isDisabled()).toBe(false);
    down.release();
    await down.answered(2);
    await page.clock.fastForward(backoffMs(2));
    await saving.waitFor({ state: 'detached' });
    expect(down.calls()).toBe(3);
    expect(await toast(page, sendCopy.historyNotSaved).count()).toBe(0);

    // One row of the send, whether the server's watch of the wallet (which also writes the fee)
    // or the portal's save wrote it first.
    const rows = (await rowsOf(userId)).filter((row) => row.type === 'token_sent');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'token_sent', amount: '-0.5', token_symbol: 'DDEX' });
    expect(rows[0]?.tx_hash.startsWith(first)).toBe(true);

    await openUserMenu(page);
    await page.getByRole('button', { name: appCopy.menu.transactions, exact: true }).click();
    const history = page.getByRole('dialog', { name: dialogCopy.transactions.title });
    const sent = history
      .getByRole('listitem')
      .filter({ has: page.getByText(transactionCopy.typeLabel('token_sent'), { exact: true }) });
    await sent.first().waitFor();
    expect(await sent.count()).toBe(1);
    expect((await sent.textContent()) ?? '').toContain(transactionCopy.hashPreview(rows[0]?.tx_hash ?? ''));
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });
    // The first transfer's toast has run out, so the second's is a new one.
    await page.clock.fastForward(toastDurations.default);
    await toast(page, sendCopy.transferSubmitted).waitFor({ state: 'detached' });

    // Down for all three tries.
    await down.stop();
    down = await recordTransactionDown(page, Number.POSITIVE_INFINITY);
    const second = await sendHalf(page);
    await saving.waitFor();
    await down.answered(1);
    await page.clock.fastForward(backoffMs(1));
    await expect.poll(() => down.calls()).toBe(2);
    down.release();
    await down.answered(2);
    await page.clock.fastForward(backoffMs(2));
    await toast(page, sendCopy.historyNotSaved).waitFor();
    await page.getByText(sendCopy.historyNotSavedDescription(second), { exact: true }).waitFor();
    expect(down.calls()).toBe(3);
    await saving.waitFor({ state: 'detached' });
    // The portal could not save it, but the chain's truth reaches the history all the same: the
    // server watches the proven wallet and records the send from its receipt.
    await expect
      .poll(async () =>
        (await rowsOf(userId)).filter((row) => row.type === 'token_sent' && row.tx_hash.startsWith(second)),
      )
      .toEqual([expect.objectContaining({ amount: '-0.5', token_symbol: 'DDEX' })]);
    expect(pageErrors).toEqual([]);
  });
});
