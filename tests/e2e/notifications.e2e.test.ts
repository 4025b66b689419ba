import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { notificationCopy, shellCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { runAxe } from '../support/e2e/axe.ts';
import { admin, openSignedIn, toast } from '../support/e2e/ui.ts';

// docs/product.md#notifications (live feed, toast with the 50-character preview, the
// dot, read on open, mark one, clear all), #calls, #notification-and-history-toasts, #constants. The
// rows are inserted with the service role, as the payment backend writes them.

async function notify(userId: string, title: string, message: string) {
  const { data, error } = await admin()
    .from('user_notifications')
    .insert({ user_id: userId, title, message })
    .select('id')
    .single();
  if (error) throw new Error(`could not insert a notification: ${error.message}`);
  return data.id;
}

async function unreadInDb(userId: string): Promise<number> {
  const { count } = await admin()
    .from('user_notifications')
    .select('id', { count: 'exact', head: true })
    .eq('user_id', userId)
    .eq('is_read', false);
  return count ?? -1;
}

const bell = (page: Page, unread: number) =>
  page.getByRole('button', { name: shellCopy.notifications(unread), exact: true });

describe('notifications dialog', () => {
  it('shows a live notification as a toast and a dot, marks all read on open, one by one, and clears', async () => {
    const { page, pageErrors, user, feed } = await openSignedIn('notified');
    const userId = user.id;
    await feed;
    await bell(page, 0).waitFor();
    expect(await page.locator('[data-unread-dot]').count()).toBe(0);

    const message = 'You received 25 DDEX from 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 on the testnet.';
    await notify(userId, 'Tokens Received', message);
    await toast(page, 'Tokens Received').waitFor();
    await toast(page, notificationCopy.preview(message)).waitFor();
    expect(notificationCopy.preview(message)).toBe(`${message.slice(0, 50)}...`);
    await bell(page, 1).waitFor();
    expect(await page.locator('[data-unread-dot]').count()).toBe(1);

    await bell(page, 1).click();
    const dialog = page.getByRole('dialog', { name: dialogCopy.notifications.title });
    await dialog.getByRole('heading', { name: 'Tokens Received' }).waitFor();
    await dialog.getByText(message, { exact: true }).waitFor();
    // Opening marked it read, here and at the backend.
    expect(await dialog.getByText(dialogCopy.notifications.unread, { exact: true }).count()).toBe(0);
    await expect.poll(() => unreadInDb(userId)).toBe(0);
    expect(await page.locator('[data-unread-dot]').count()).toBe(0);
    expect(await runAxe(page, 'notifications dialog, light', { include: '[role="dialog"]' })).toEqual([]);

    // One arriving while the list is open stays unread until marked.
    await notify(userId, 'Second One', 'Another transfer arrived.');
    const second = dialog.getByRole('listitem').filter({ hasText: 'Second One' });
    await second.getByText(dialogCopy.notifications.unread, { exact: true }).waitFor();
    expect(await dialog.getByRole('listitem').first().textContent()).toContain('Second One');
    await expect.poll(() => unreadInDb(userId)).toBe(1);
    await second.getByRole('button', { name: new RegExp(`^${dialogCopy.notifications.markRead}`) }).click();
    await expect
      .poll(() => second.getByText(dialogCopy.notifications.unread, { exact: true }).count())
      .toBe(0);
    await expect.poll(() => unreadInDb(userId)).toBe(0);

    await dialog.getByRole('button', { name: dialogCopy.notifications.clearAll, exact: true }).click();
    await toast(page, notificationCopy.cleared.title).waitFor();
    await dialog.getByText(dialogCopy.notifications.empty, { exact: true }).waitFor();
    const { count } = await admin()
      .from('user_notifications')
      .select('id', { count: 'exact', head: true })
      .eq('user_id', userId);
    expect(count).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('renders titles and messages holding HTML as text, in the toast and the list (dark theme)', async () => {
    const { page, user, feed } = await openSignedIn('notified', { colorScheme: 'dark' });
    const alerts: string[] = [];
    page.on('dialog', (alert) => {
      alerts.push(alert.message());
      void alert.dismiss();
    });
    const userId = user.id;
    // A row inserted before the feed has joined would arrive as no toast.
    await feed;
    const title = '<img src=x onerror=alert(1)>';
    const message = '<script>alert(2)</script><b>not bold</b>';
    await notify(userId, title, message);
    await toast(page, title).waitFor();

    await bell(page, 1).click();
    const dialog = page.getByRole('dialog', { name: dialogCopy.notifications.title });
    await dialog.getByRole('heading', { name: title }).waitFor();
    await dialog.getByText(message, { exact: true }).waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await dialog.locator('b, script').count()).toBe(0);
    expect(alerts).toEqual([]);
    expect(await runAxe(page, 'notifications dialog, dark', { include: '[role="dialog"]' })).toEqual([]);

    await dialog.getByRole('button', { name: dialogCopy.notifications.clearAll, exact: true }).click();
    await dialog.getByText(dialogCopy.notifications.empty, { exact: true }).waitFor();
    expect(await runAxe(page, 'notifications dialog empty, dark', { include: '[role="dialog"]' })).toEqual(
      [],
    );
  });
});
