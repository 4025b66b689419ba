import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appCopy, transactionCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { runAxe } from '../support/e2e/axe.ts';
import { PHONE_VIEWPORT } from '../support/e2e/browser.ts';
import { e2e } from '../support/e2e/context.ts';
import { admin, openSignedIn, openUserMenu, toast } from '../support/e2e/ui.ts';

// docs/product.md#history-dialog (type with underscores as spaces, amount or asset_amount,
// symbol, hash), #calls (20 newest), #notification-and-history-toasts, #constants (hash
// preview). Rows are recorded with the service role, as the backend records
// transfers.

const hash = (n: number) => `0x${String(n).repeat(64)}`;

async function openHistory(page: Page) {
  await openUserMenu(page);
  await page.getByRole('button', { name: appCopy.menu.transactions, exact: true }).click();
  return page.getByRole('dialog', { name: dialogCopy.transactions.title });
}

type Row = { type: string; status: string; created_at: string } & Record<string, string | null>;

async function record(userId: string, rows: Row[]) {
  const { error } = await admin()
    .from('transactions')
    .insert(rows.map((row) => ({ user_id: userId, tx_hash: '', ...row })));
  if (error) throw new Error(`could not record transactions: ${error.message}`);
}

/** API keys and Security, opened from the user menu: under construction, two-factor marked Soon. */
async function underConstruction(page: Page, colorScheme: 'light' | 'dark') {
  await openUserMenu(page);
  await page.getByRole('button', { name: new RegExp(`^${appCopy.menu.apiKeys}`) }).click();
  let dialog = page.getByRole('dialog', { name: dialogCopy.apiKeys.title });
  await dialog.getByText(dialogCopy.apiKeys.body, { exact: true }).waitFor();
  expect(await runAxe(page, `api keys dialog, ${colorScheme}`, { include: '[role="dialog"]' })).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).click();

  await openUserMenu(page);
  await page.getByRole('button', { name: new RegExp(`^${appCopy.menu.security}`) }).click();
  dialog = page.getByRole('dialog', { name: dialogCopy.security.title });
  await dialog.getByText(dialogCopy.security.body, { exact: true }).waitFor();
  await dialog.getByRole('heading', { name: dialogCopy.security.twoFactor }).waitFor();
  await dialog.getByText(appCopy.menu.soon, { exact: true }).waitFor();
  expect(await runAxe(page, `security dialog, ${colorScheme}`, { include: '[role="dialog"]' })).toEqual([]);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

describe('transaction history dialog', () => {
  it('lists recorded transfers newest first with type, status, amount, symbol and hash preview; API keys and security are under construction (light)', async () => {
    const { page, pageErrors, user } = await openSignedIn('history');
    const userId = user.id;
    let dialog = await openHistory(page);
    await dialog.getByText(dialogCopy.transactions.empty, { exact: true }).waitFor();
    await page.keyboard.press('Escape');

    const now = Date.now();
    await record(userId, [
      {
        type: 'token_sent',
        status: 'confirmed',
        amount: '12.5',
        token_symbol: 'DDEX',
        tx_hash: hash(1),
        created_at: new Date(now - 60_000).toISOString(),
      },
      {
        type: 'payment_received',
        status: 'pending',
        asset_amount: '0.75',
        asset_symbol: 'ETH',
        transaction_hash: hash(2),
        created_at: new Date(now).toISOString(),
      },
    ]);
    dialog = await openHistory(page);
    const items = dialog.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(2);

    const newest = items.nth(0);
    await newest
      .getByRole('heading', { name: transactionCopy.typeLabel('payment_received'), exact: true })
      .waitFor();
    await newest.getByText('pending', { exact: true }).waitFor();
    await newest.getByText('0.75 ETH', { exact: true }).waitFor();
    await newest.getByText(transactionCopy.hashPreview(hash(2))).waitFor();

    const older = items.nth(1);
    await older.getByRole('heading', { name: 'token sent', exact: true }).waitFor();
    await older.getByText('confirmed', { exact: true }).waitFor();
    await older.getByText('12.5 DDEX', { exact: true }).waitFor();
    await older.getByText(`${hash(1).slice(0, 10)}...`).waitFor();

    // With a block explorer configured the preview links to the transaction; else it is text
    // with the full hash in its title.
    const explorer = e2e().apps.full.env['VITE_BLOCK_EXPLORER_URL']?.replace(/\/+$/, '');
    const links = dialog.getByRole('link');
    if (explorer) {
      expect(await links.count()).toBe(2);
      const link = newest.getByRole('link', { name: new RegExp(`^${transactionCopy.hashPreview(hash(2))}`) });
      expect(await link.getAttribute('href')).toBe(`${explorer}/tx/${hash(2)}`);
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await link.getAttribute('title')).toBe(hash(2));
    } else {
      expect(await links.count()).toBe(0);
      expect(await newest.getByText(transactionCopy.hashPreview(hash(2))).getAttribute('title')).toBe(
        hash(2),
      );
    }

    expect(await runAxe(page, 'transactions dialog, light', { include: '[role="dialog"]' })).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await underConstruction(page, 'light');
    expect(pageErrors).toEqual([]);
  });

  it('says when the history cannot be loaded, and loads it on Try Again; API keys and security are under construction (dark, phone)', async () => {
    const { page, user } = await openSignedIn('history', { colorScheme: 'dark', viewport: PHONE_VIEWPORT });
    const userId = user.id;
    await record(userId, [
      {
        type: '<b>odd_type</b>',
        status: 'confirmed',
        amount: '1',
        token_symbol: 'DDEX',
        tx_hash: hash(3),
        created_at: new Date().toISOString(),
      },
    ]);
    await page.route('**/rest/v1/transactions**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"history is down"}' }),
    );
    const dialog = await openHistory(page);
    await toast(page, transactionCopy.fetchError).waitFor();
    await dialog.getByText(dialogCopy.transactions.error, { exact: true }).waitFor();
    expect(await runAxe(page, 'transactions dialog error, dark', { include: '[role="dialog"]' })).toEqual([]);

    await page.unroute('**/rest/v1/transactions**');
    await dialog.getByRole('button', { name: dialogCopy.transactions.retry, exact: true }).click();
    // Markup in a field is shown as text.
    await dialog.getByRole('heading', { name: '<b>odd type</b>', exact: true }).waitFor();
    expect(await dialog.locator('b').count()).toBe(0);
    expect(await dialog.getByText(dialogCopy.transactions.error, { exact: true }).count()).toBe(0);
    expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(await runAxe(page, 'transactions dialog, dark, phone', { include: '[role="dialog"]' })).toEqual(
      [],
    );
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await underConstruction(page, 'dark');
  });
});
