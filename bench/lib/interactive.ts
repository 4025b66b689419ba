import type { Browser } from 'playwright-core';
import { walletCopy } from '../../src/copy/index.ts';
import type { MockWalletOptions } from '../../tests/support/mock-wallet.ts';
import { freshPage } from './browser.ts';

// Interactive: how soon after navigation a visitor's click on Connect Wallet does something. A
// probe in the page clicks the button as soon as it is enabled (on every DOM change and every
// frame, so a click the page was not ready for is tried again) and stamps the moment the mock
// wallet is asked for eth_requestAccounts: the click went through React, the wallet machine and
// the wallet service. Without a wallet there is nothing to ask; the probe then only stamps when
// the button is enabled, which by design waits out the wallet discovery (docs/product.md).

export type InteractiveProbe = {
  /** performance.now() when Connect Wallet was first seen enabled. */
  enabledAt: number | null;
  /** performance.now() when the wallet received eth_requestAccounts. */
  requestedAt: number | null;
  clicks: number;
};

declare global {
  interface Window {
    __interactive?: InteractiveProbe;
  }
}

const PROBE_TIMEOUT_MS = 20_000;

/**
 * The probe as an init script. A string, not a serialised function: the bench runs through tsx,
 * whose named functions call a helper the page does not have. It runs after the mock wallet's
 * init script, so it can wrap the provider's request before the portal holds it.
 */
export function interactiveInitScript(label: string, click: boolean): string {
  return `(() => {
  const probe = { enabledAt: null, requestedAt: null, clicks: 0 };
  window.__interactive = probe;
  const provider = window.__mockWallet && window.__mockWallet.provider;
  if (provider) {
    const request = provider.request;
    provider.request = function (args) {
      if (probe.requestedAt === null && args && args.method === 'eth_requestAccounts') {
        probe.requestedAt = performance.now();
      }
      return request.apply(this, arguments);
    };
  }
  const label = ${JSON.stringify(label)};
  const click = ${click ? 'true' : 'false'};
  const finished = () => (click ? probe.requestedAt !== null : probe.enabledAt !== null);
  const check = () => {
    if (finished()) return;
    const button = Array.from(document.querySelectorAll('button')).find(
      (candidate) => (candidate.textContent || '').trim() === label,
    );
    if (!button || button.disabled) return;
    if (probe.enabledAt === null) probe.enabledAt = performance.now();
    if (click) {
      probe.clicks += 1;
      button.click();
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  const frame = () => {
    check();
    if (!finished() && performance.now() < ${PROBE_TIMEOUT_MS}) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;
}

/**
 * One cold visit: with a wallet (not yet approved for the site), the probe clicks Connect Wallet
 * and the visit ends when the wallet is asked to connect; without one, when the button is enabled.
 */
export async function interactiveVisit(
  browser: Browser,
  url: string,
  wallet: MockWalletOptions | null,
): Promise<InteractiveProbe> {
  const withWallet = wallet !== null;
  const { context, page } = await freshPage(browser, wallet && { ...wallet, connected: false }, [
    interactiveInitScript(walletCopy.connectWallet, withWallet),
  ]);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(
      (click) => {
        const probe = window.__interactive;
        return probe !== undefined && (click ? probe.requestedAt !== null : probe.enabledAt !== null);
      },
      withWallet,
      { timeout: PROBE_TIMEOUT_MS },
    );
    return await page.evaluate(() => {
      const probe = window.__interactive;
      if (!probe) throw new Error('the interactive probe did not run');
      return { ...probe };
    });
  } finally {
    await context.close();
  }
}
