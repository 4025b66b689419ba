import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  appCopy,
  notificationCopy,
  portalCopy,
  profileCopy,
  shellCopy,
  transactionCopy,
} from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { devtoolsCopy } from '../../src/devtools/panel/devtools.copy.ts';
import { IMAGES } from '../support/stack/avatar-images.ts';
import type { Portal } from '../support/e2e/browser.ts';
import { e2e } from '../support/e2e/context.ts';
import { admin, openProfileDialog, openSignedIn, openUserMenu, toast } from '../support/e2e/ui.ts';

// Issue 7/7 "Untrusted text": what users and the backend write — notification
// titles and messages, usernames, transaction fields — is shown as text, never
// as markup, wherever the portal shows it (toast, dialogs, header, user menu,
// the developer panel's journal). A website must be http(s), refused with the
// copy's reason before anything is saved, and the database refuses it too.
// An avatar must be a PNG, JPEG or GIF of at most 2 MB: checked in the page
// before any upload, and by the bucket for whatever gets past the page.

const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = '<script>window.__pwned=1</script>';
const BOLD = '<b>bold</b>';

/**
 * What markup taken as HTML would leave behind: the elements it made, and the handler's mark — or,
 * where the portal's Content-Security-Policy blocks the inline handler, the console's report of it.
 */
type Injected = { pwned: boolean; images: number; scripts: number; bold: number; blockedInline: string[] };
const CLEAN: Injected = { pwned: false, images: 0, scripts: 0, bold: 0, blockedInline: [] };

async function injected({ page, console: messages }: Portal): Promise<Injected> {
  const elements = await page.evaluate(() => ({
    pwned: '__pwned' in window,
    images: document.querySelectorAll('img[src="x"]').length,
    scripts: Array.from(document.querySelectorAll('script')).filter((script) =>
      script.textContent.includes('__pwned'),
    ).length,
    bold: Array.from(document.querySelectorAll('b')).filter((element) => element.textContent === 'bold')
      .length,
  }));
  const blockedInline = messages
    .map((entry) => entry.text)
    .filter((text) => text.includes('Content Security Policy') && /inline/i.test(text));
  return { ...elements, blockedInline };
}

/** alert(), confirm() and prompt() the page opened (none is expected). */
function watchAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', (alert) => {
    alerts.push(alert.message());
    void alert.dismiss();
  });
  return alerts;
}

/**
 * Closes the dialog, then the toast (a modal dialog keeps the pointer from the toast), so the next
 * refusal's toast is a new one even when its words are the same.
 */
async function closeDialogAndToast(page: Page, dialog: Locator) {
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  const dismiss = page.locator('[aria-live]').getByRole('button', { name: shellCopy.dismissToast });
  await dismiss.click();
  await dismiss.waitFor({ state: 'detached' });
}

async function storedProfile(userId: string) {
  const { data, error } = await admin().from('profiles').select('*').eq('id', userId).single();
  if (error) throw new Error(error.message);
  return data;
}

describe('untrusted text is shown as text', () => {
  it('in a notification’s toast and in the notifications list, and in the developer panel’s journal', async () => {
    const portal = await openSignedIn('untrusted-notice', { path: '/?devtools' });
    const { page, pageErrors } = portal;
    const alerts = watchAlerts(page);
    const userId = portal.user.id;
    await portal.feed;
    const title = `${IMG} ${BOLD}`;
    const message = `${SCRIPT} ${BOLD} ${IMG}`;
    const { error } = await admin().from('user_notifications').insert({ user_id: userId, title, message });
    expect(error).toBeNull();

    // The live toast: the title and the 50-character preview, literally.
    await toast(page, title).waitFor();
    await toast(page, notificationCopy.preview(message)).waitFor();
    expect(await injected(portal)).toEqual(CLEAN);

    await page.getByRole('button', { name: shellCopy.notifications(1), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: dialogCopy.notifications.title });
    await dialog.getByRole('heading', { name: title, exact: true }).waitFor();
    await dialog.getByText(message, { exact: true }).waitFor();
    expect(await injected(portal)).toEqual(CLEAN);
    await page.keyboard.press('Escape');

    // The journal recorded the row; its payloads are in the panel's DOM, as text.
    await page.getByRole('button', { name: devtoolsCopy.toggleText, exact: true }).click();
    const panel = page.getByRole('region', { name: devtoolsCopy.title, exact: true });
    await panel.getByRole('tab', { name: devtoolsCopy.tabs.journal }).click();
    const payloads = panel.getByRole('list', { name: devtoolsCopy.journal.heading }).locator('pre');
    await expect.poll(async () => (await payloads.allTextContents()).join('\n')).toContain('onerror=');
    expect(await injected(portal)).toEqual(CLEAN);
    expect(alerts).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('in a username: the header, the wallet panel and the user menu', async () => {
    const portal = await openSignedIn('untrusted-name');
    const { page, pageErrors } = portal;
    const alerts = watchAlerts(page);
    const userId = portal.user.id;
    const username = `${IMG}${BOLD}`;
    const dialog = await openProfileDialog(page);
    await dialog.getByLabel(dialogCopy.profile.username, { exact: true }).fill(username);
    await dialog.getByRole('button', { name: dialogCopy.profile.save, exact: true }).click();
    await toast(page, profileCopy.updated).waitFor();
    expect((await storedProfile(userId)).username).toBe(username);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const trigger = page.getByRole('button', { name: shellCopy.userMenu(username), exact: true });
    expect(await trigger.innerText()).toBe(username);
    const account = page.getByText(portalCopy.loggedInAs, { exact: true }).locator('xpath=..');
    expect(await account.innerText()).toBe(`${portalCopy.loggedInAs}\n${username}`);
    await trigger.click();
    const menu = page.getByRole('dialog', { name: shellCopy.userMenuLabel });
    await menu.getByText(username, { exact: true }).waitFor();
    expect(await injected(portal)).toEqual(CLEAN);
    expect(alerts).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('in transaction fields; amounts the database refuses unless they are decimal numbers', async () => {
    const portal = await openSignedIn('untrusted-history');
    const { page, pageErrors } = portal;
    const alerts = watchAlerts(page);
    const userId = portal.user.id;
    const now = Date.now();
    const withHash = {
      user_id: userId,
      type: `${IMG}_${BOLD}`,
      status: SCRIPT,
      amount: '2.5',
      token_symbol: BOLD,
      tx_hash: `0x"><img src=x onerror="window.__pwned=1">`,
      created_at: new Date(now - 60_000).toISOString(),
    };
    const withAssetFields = {
      user_id: userId,
      type: 'payment_received',
      status: 'confirmed',
      asset_amount: '0.75',
      asset_symbol: IMG,
      tx_hash: '',
      transaction_hash: SCRIPT,
      created_at: new Date(now).toISOString(),
    };
    const { error } = await admin().from('transactions').insert([withHash, withAssetFields]);
    expect(error).toBeNull();

    // The amounts are numbers only: markup there is refused by the database, even from the service role.
    for (const column of ['amount', 'asset_amount'] as const) {
      const row = { user_id: userId, type: 'token_sent', status: 'confirmed', tx_hash: `0x${column}` };
      const refused = await admin()
        .from('transactions')
        .insert(column === 'amount' ? { ...row, amount: BOLD } : { ...row, asset_amount: BOLD });
      // The code differs (hosted PostgREST: 23514; the local gateway: SUP), the constraint does not.
      expect(refused.error?.message, column).toContain(`transactions_${column}_is_decimal`);
    }

    await openUserMenu(page);
    await page.getByRole('button', { name: appCopy.menu.transactions, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: dialogCopy.transactions.title });
    const items = dialog.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(2);

    const older = items.nth(1);
    await older
      .getByRole('heading', { name: transactionCopy.typeLabel(withHash.type), exact: true })
      .waitFor();
    await older.getByText(SCRIPT, { exact: true }).waitFor();
    await older.getByText(`2.5 ${BOLD}`, { exact: true }).waitFor();
    // The hash is text in the link, and only a path under the explorer in its address.
    const explorer = e2e().apps.full.env['VITE_BLOCK_EXPLORER_URL'] ?? '';
    const link = older.getByRole('link');
    expect(await link.getAttribute('title')).toBe(withHash.tx_hash);
    expect(await link.getAttribute('href')).toBe(`${explorer}/tx/${withHash.tx_hash}`);
    expect(await link.evaluate((anchor: HTMLAnchorElement) => anchor.origin)).toBe(new URL(explorer).origin);
    expect(await link.innerText()).toContain(transactionCopy.hashPreview(withHash.tx_hash));

    const newer = items.nth(0);
    await newer.getByText(`0.75 ${IMG}`, { exact: true }).waitFor();
    expect(await newer.getByRole('link').getAttribute('title')).toBe(SCRIPT);
    expect(await newer.getByRole('link').innerText()).toContain(transactionCopy.hashPreview(SCRIPT));

    expect(await injected(portal)).toEqual(CLEAN);
    expect(alerts).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

describe('a profile website', () => {
  it('is refused with the reason unless it is http(s), saving nothing; the database refuses it too', async () => {
    const portal = await openSignedIn('untrusted-site');
    const { page, pageErrors, user } = portal;
    const alerts = watchAlerts(page);
    const userId = user.id;
    const refused = [
      'javascript:alert(1)',
      'JavaScript:window.__pwned=1',
      `data:text/html,${SCRIPT}`,
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://example.com/',
    ];
    for (const value of refused) {
      const dialog = await openProfileDialog(page);
      const website = dialog.getByLabel(dialogCopy.profile.website, { exact: true });
      const fullName = dialog.getByLabel(dialogCopy.profile.fullName, { exact: true });
      await fullName.fill('Typed Name');
      await website.fill(value);
      await dialog.getByRole('button', { name: dialogCopy.profile.save, exact: true }).click();
      await toast(page, profileCopy.updateFailed).waitFor();
      await toast(page, profileCopy.websiteNotHttp).waitFor();
      // What was typed stays, to be corrected.
      expect(await website.inputValue(), value).toBe(value);
      expect(await fullName.inputValue(), value).toBe('Typed Name');
      await closeDialogAndToast(page, dialog);
    }
    expect(await storedProfile(userId)).toMatchObject({ website: null, full_name: null });

    // Written past the page (by the user's own client, as another app of theirs would), the
    // database's own check refuses it.
    const { error } = await user.client
      .from('profiles')
      .update({ website: 'javascript:alert(1)' })
      .eq('id', userId);
    expect(error?.message).toContain('profiles_website_is_http');
    expect((await storedProfile(userId)).website).toBeNull();

    // An https address is saved. The portal shows it only as the field's value (no link to it), and
    // every link that opens a new tab keeps the opener from it.
    const dialog = await openProfileDialog(page);
    const website = dialog.getByLabel(dialogCopy.profile.website, { exact: true });
    await dialog.getByLabel(dialogCopy.profile.fullName, { exact: true }).fill('Typed Name');
    await website.fill('https://example.com/ada');
    await dialog.getByRole('button', { name: dialogCopy.profile.save, exact: true }).click();
    await toast(page, profileCopy.updated).waitFor();
    expect(await storedProfile(userId)).toMatchObject({
      website: 'https://example.com/ada',
      full_name: 'Typed Name',
    });
    expect(await website.inputValue()).toBe('https://example.com/ada');
    expect(await page.locator('a[href="https://example.com/ada"]').count()).toBe(0);
    const newTabs = await page
      .locator('a[target="_blank"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('rel') ?? ''));
    for (const rel of newTabs) expect(rel.split(/\s+/)).toContain('noopener');
    expect(await injected(portal)).toEqual(CLEAN);
    expect(alerts).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

describe('an avatar file', () => {
  it('that is not a PNG, JPEG or GIF, or is over 2 MB, is refused before any upload; the bucket refuses it too', async () => {
    const portal = await openSignedIn('untrusted-avatar');
    const { page, pageErrors, user } = portal;
    const alerts = watchAlerts(page);
    const userId = user.id;
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/storage/v1/object')) uploads.push(`${request.method()} ${request.url()}`);
    });
    const picker = (dialog: Locator) => dialog.getByLabel(dialogCopy.profile.chooseAvatar, { exact: true });
    const noAvatar = (dialog: Locator) => dialog.getByRole('img', { name: dialogCopy.profile.noAvatar });

    const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1"><script>window.__pwned=1</script></svg>`;
    const huge = new Uint8Array(2 * 1024 * 1024 + 1);
    huge.set(IMAGES.png);
    const files = [
      { name: 'notes.png', mimeType: 'text/plain', buffer: Buffer.from('just some notes'), reason: 'type' },
      { name: 'drawing.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg), reason: 'type' },
      { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.from(huge), reason: 'size' },
    ] as const;
    for (const { reason, ...file } of files) {
      const dialog = await openProfileDialog(page);
      await picker(dialog).setInputFiles(file);
      await toast(page, profileCopy.avatarUploadFailed).waitFor();
      await toast(
        page,
        reason === 'type' ? profileCopy.avatarTypeRefused : profileCopy.avatarTooLarge,
      ).waitFor();
      expect(await noAvatar(dialog).count(), file.name).toBe(1);
      await closeDialogAndToast(page, dialog);
    }
    expect(uploads).toEqual([]);

    // Text the browser labels image/png (a renamed file) passes the page's check; the bucket reads the
    // bytes and refuses it. This upload also shows the request watch above does see uploads.
    const dialog = await openProfileDialog(page);
    await picker(dialog).setInputFiles({
      name: 'renamed.png',
      mimeType: 'image/png',
      buffer: Buffer.from('just some notes'),
    });
    await toast(page, profileCopy.avatarUploadFailed).waitFor();
    expect(uploads).toEqual([
      expect.stringMatching(new RegExp(`^POST .*/storage/v1/object/avatars/${userId}-`)),
    ]);
    expect(await noAvatar(dialog).count()).toBe(1);
    expect((await storedProfile(userId)).avatar_url).toBeNull();

    // Sent straight to the bucket as the user, each refused file is refused there as well
    // (tests/contract/storage.test.ts covers the bucket's every refusal).
    const bucket = user.client.storage.from('avatars');
    for (const [name, body, type, status] of [
      ['notes.png', 'just some notes', 'text/plain', 415],
      ['drawing.svg', svg, 'image/svg+xml', 415],
      ['huge.png', huge, 'image/png', 413],
    ] as const) {
      const { data, error } = await bucket.upload(
        `${userId}-${Date.now()}-${name}`,
        new Blob([body], { type }),
      );
      expect(data, name).toBeNull();
      expect(error, name).toMatchObject({ status });
    }
    const { data: stored } = await admin().storage.from('avatars').list('', { search: userId });
    expect(stored ?? []).toEqual([]);
    expect(await injected(portal)).toEqual(CLEAN);
    expect(alerts).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
