import type { Browser } from 'playwright-core';
import { shellCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { signUpOnPage } from '../../tests/support/e2e/sign-up.ts';
import { serviceClient, type StackInfo } from '../../tests/support/stack/users.ts';
import { freshPage } from './browser.ts';

// DB insert → on screen: a user signed up in the browser has the notifications
// list open; each row is inserted with the service role (as the backend's
// functions do) and timed until its title is in the list. The page stamps the
// moment with the same wall clock Node reads before the insert.

declare global {
  interface Window {
    __seen?: Record<string, number>;
  }
}

export async function notificationLatencies(
  browser: Browser,
  appUrl: string,
  stack: StackInfo,
  inserts: number,
): Promise<number[]> {
  const { context, page } = await freshPage(browser);
  try {
    await page.goto(appUrl, { waitUntil: 'load' });
    const { userId } = await signUpOnPage(page, stack, 'bench');
    const admin = serviceClient(stack);

    await page.getByRole('button', { name: shellCopy.notifications(0), exact: true }).click();
    const list = page.getByRole('dialog', { name: dialogCopy.notifications.title });
    await list.getByText(dialogCopy.notifications.empty, { exact: true }).waitFor();
    // Stamps each bench title the moment it is first in the open dialog.
    await page.evaluate(() => {
      window.__seen = {};
      const seen = window.__seen;
      new MutationObserver(() => {
        const dialog = document.querySelector('[role="dialog"]');
        for (const match of (dialog?.textContent ?? '').matchAll(/bench-note-(\d+)/g)) {
          const key = match[1] ?? '';
          seen[key] ??= Date.now();
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });

    const latencies: number[] = [];
    for (let index = 1; index <= inserts; index += 1) {
      const insertedAt = Date.now();
      const { error: insertError } = await admin
        .from('user_notifications')
        .insert({ user_id: userId, title: `bench-note-${index}`, message: 'Latency probe' });
      if (insertError) throw new Error(`insert ${index} failed: ${insertError.message}`);
      await page.waitForFunction((key) => window.__seen?.[key] !== undefined, String(index), {
        timeout: 10_000,
      });
      const shownAt = await page.evaluate((key) => window.__seen?.[key] ?? NaN, String(index));
      latencies.push(shownAt - insertedAt);
      // Apart, so each insert is timed on its own rather than queued behind the last one.
      await page.waitForTimeout(150);
    }
    return latencies;
  } finally {
    await context.close();
  }
}
