import type { Browser } from 'playwright-core';
import { appCopy } from '../../src/copy/index.ts';
import { dexCopy } from '../../src/copy/dex.ts';
import type { MockWalletOptions } from '../../tests/support/mock-wallet.ts';
import { freshPage } from './browser.ts';

// Typing → quote on screen, on the DEX Trading tab with a connected wallet: each run types a new
// amount into 'You pay' and times, in the page, from that input event to the moment (polled every few ms) when
// 'You receive' shows a new amount (to within a few milliseconds). The debounce, the router's getAmountsOut over RPC and the
// render are all inside the figure, as a user typing would feel them.

declare global {
  interface Window {
    __quote?: { typedAt: number; shownAt: number };
  }
}

export async function quoteLatencies(
  browser: Browser,
  appUrl: string,
  wallet: MockWalletOptions,
  runs: number,
): Promise<number[]> {
  const { context, page } = await freshPage(browser, { ...wallet, connected: true });
  try {
    await page.goto(appUrl, { waitUntil: 'load' });
    await page.getByRole('button', { name: appCopy.tabs.trading, exact: true }).click();
    const pay = page.getByLabel(dexCopy.youPay);
    const receive = page.getByLabel(dexCopy.youReceive);
    await pay.waitFor();
    await page.waitForFunction(() => !document.querySelector('input[disabled]'), undefined, {
      timeout: 10_000,
    });
    const payInput = await pay.elementHandle();
    const receiveInput = await receive.elementHandle();
    if (!payInput || !receiveInput) throw new Error('the swap form has no You pay / You receive inputs');

    const latencies: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      await page.evaluate(
        ([payField, receiveField]) => {
          const paid = payField as HTMLInputElement;
          const received = receiveField as HTMLInputElement;
          const before = received.value;
          const probe = { typedAt: 0, shownAt: 0 };
          window.__quote = probe;
          paid.addEventListener('input', () => (probe.typedAt = performance.now()), { once: true });
          // Polled rather than a named frame loop: the bench runs through tsx, whose named
          // functions call a helper the page does not have. A timer of 0 ms fires every ~4 ms.
          const timer = setInterval(() => {
            if (probe.typedAt > 0 && received.value !== '' && received.value !== before) {
              probe.shownAt = performance.now();
              clearInterval(timer);
            }
          }, 0);
        },
        [payInput, receiveInput] as const,
      );
      // A new amount each run (0.011, 0.012, …), so each answer differs from the last.
      await pay.fill(`0.0${11 + run}`);
      await page.waitForFunction(() => (window.__quote?.shownAt ?? 0) > 0, undefined, { timeout: 10_000 });
      latencies.push(
        await page.evaluate(() => (window.__quote ? window.__quote.shownAt - window.__quote.typedAt : NaN)),
      );
    }
    return latencies;
  } finally {
    await context.close();
  }
}
