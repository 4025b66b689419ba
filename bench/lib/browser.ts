import { gzipSync } from 'node:zlib';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { balanceCopy, portalCopy } from '../../src/copy/index.ts';
import {
  CHROMIUM_ARGS,
  FULL_CHROMIUM_PATH,
  chromiumPath,
  chromiumProblem,
} from '../../tests/support/e2e/chromium.ts';
import { mockWalletInitScript, type MockWalletOptions } from '../../tests/support/mock-wallet.ts';
import { LAYOUT_SHIFT_INIT_SCRIPT, readLayoutShifts, type LayoutShifts } from './layout-shift.ts';

// Headless Chromium with the e2e layer's flags (Debian's, loopback only), and the page measurements
// the benchmark takes with it. The full browser, not the tests' headless shell: the paints measured
// are those of the browser a person runs.

/** The desktop every figure but the phone's is taken on; a device is what a browser context emulates. */
export type Device = Pick<
  BrowserContextOptions,
  'viewport' | 'deviceScaleFactor' | 'isMobile' | 'hasTouch' | 'userAgent'
>;
export const DESKTOP: Device = { viewport: { width: 1280, height: 800 } };

export async function launchChromium(): Promise<Browser> {
  const path = chromiumPath(process.env, FULL_CHROMIUM_PATH);
  const problem = chromiumProblem(path);
  if (problem) throw new Error(problem);
  return chromium.launch({ executablePath: path, args: CHROMIUM_ARGS });
}

/**
 * A cold visit: a fresh context, so nothing is cached and nothing is stored. `scripts` are init
 * scripts run after the mock wallet's, before any of the page's.
 */
export async function freshPage(
  browser: Browser,
  wallet: MockWalletOptions | null = null,
  scripts: readonly string[] = [],
  device: Device = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...device, reducedMotion: 'reduce' });
  if (wallet) await context.addInitScript({ content: mockWalletInitScript(wallet) });
  for (const content of scripts) await context.addInitScript({ content });
  return { context, page: await context.newPage() };
}

export type PaintTimes = { fcp: number; lcp: number };

/** First contentful paint and the final largest-contentful-paint candidate of one cold load, in ms. */
export async function paintTimes(browser: Browser, url: string): Promise<PaintTimes> {
  const { context, page } = await freshPage(browser);
  try {
    await page.goto(url, { waitUntil: 'load' });
    // LCP candidates keep coming while content arrives; a second of quiet after load settles it.
    await page.waitForTimeout(1000);
    return await page.evaluate(
      () =>
        new Promise<{ fcp: number; lcp: number }>((resolve) => {
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
          new PerformanceObserver((list) => {
            const entries = list.getEntries();
            resolve({ fcp, lcp: entries[entries.length - 1]?.startTime ?? NaN });
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
  } finally {
    await context.close();
  }
}

export type ScriptTotal = { files: number; bytes: number; gzip: number };
export type ConnectedVisit = { scripts: ScriptTotal; layout: LayoutShifts };

/**
 * A cold visit of a wallet that approved the site before, until it is connected and both balances
 * are shown: every script it downloads (what it takes to reach a working portal, lazy chunks
 * included) and how much the page shifted on the way, on the desktop or on `device`.
 */
export async function connectedPortalVisit(
  browser: Browser,
  url: string,
  wallet: MockWalletOptions,
  device: Device = DESKTOP,
): Promise<ConnectedVisit> {
  const { context, page } = await freshPage(
    browser,
    { ...wallet, connected: true },
    [LAYOUT_SHIFT_INIT_SCRIPT],
    device,
  );
  const bodies: Promise<Buffer>[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(url) && new URL(response.url()).pathname.endsWith('.js')) {
      bodies.push(response.body());
    }
  });
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.getByRole('button', { name: portalCopy.refreshBalances }).waitFor();
    await page.getByText(balanceCopy.loading, { exact: true }).first().waitFor({ state: 'detached' });
    // A failed balance ends its loading too; the figure is of a portal that shows both.
    const shown = await page
      .locator('dl', { has: page.getByText(balanceCopy.native, { exact: true }) })
      .locator('dd')
      .allTextContents();
    const missing: string[] = [balanceCopy.error, balanceCopy.configError, balanceCopy.empty];
    if (shown.length !== 2 || shown.some((text) => missing.includes(text))) {
      throw new Error(`the balances did not load: ${shown.join(', ')}`);
    }
    await page.waitForLoadState('networkidle');
    const layout = await readLayoutShifts(page);
    const files = await Promise.all(bodies);
    return {
      scripts: {
        files: files.length,
        bytes: files.reduce((sum, body) => sum + body.length, 0),
        gzip: files.reduce((sum, body) => sum + gzipSync(body).length, 0),
      },
      layout,
    };
  } finally {
    await context.close();
  }
}
