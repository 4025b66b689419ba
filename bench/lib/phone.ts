import { devices, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { authCopy, walletCopy } from '../../src/copy/index.ts';
import type { SessionSeed } from '../../tests/support/e2e/session.ts';
import type { MockWalletOptions } from '../../tests/support/mock-wallet.ts';
import { connectedPortalVisit, freshPage, type Device } from './browser.ts';
import { interactiveInitScript } from './interactive.ts';
import { LAYOUT_SHIFT_INIT_SCRIPT, readLayoutShifts, type LayoutShifts } from './layout-shift.ts';
import { median, percentile } from './stats.ts';

// The portal where most people are, measured with Playwright as the desktop figures are
// (bench/lib/browser.ts), on a phone: Playwright's Galaxy S8 (360 × 740 CSS px at 3×, touch, a
// mobile user agent).
// - Layout shift of a returning signed-in user: a cold visit with the session stored as
//   supabase-js keeps it, until the signed-in screen is settled (Logout shown, the network idle).
//   Taken on the desktop, where the existing layout-shift figure is.
// - Layout shift on the phone: the desktop's connected visit (an approved wallet, to both balances).
// - The tap: on the phone with its CPU slowed 4× (CDP Emulation.setCPUThrottlingRate) and slow 4G
//   (CDP Network.emulateNetworkConditions: 150 ms added to each request, 1.6 Mbps down, 750 kbps
//   up), a cold visit with a wallet the site has not been approved by. The interactive probe
//   (bench/lib/interactive.ts) clicks Connect Wallet as soon as it is enabled and stamps the
//   wallet being asked for eth_requestAccounts; a paint probe stamps the first frame that holds
//   the wallet button, whatever it says (the prerendered page shows it at once as a disabled
//   "Connecting Wallet..." while the wallet is discovered): on every animation frame it looks for
//   the button, and in the frame that first has it, posts itself a message, which runs once that
//   frame's style, layout and paint are done. The figure runs from that stamp to the wallet's.

/** Playwright's Galaxy S8: 360 × 740 at 3×. */
export const PHONE: Device = devices['Galaxy S8'] as Device;
/** Slow 4G as the issue words it: 150 ms, 1.6 Mbps down, 750 kbps up (bytes per second for CDP). */
export const SLOW_4G = { latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };
export const CPU_SLOWDOWN = 4;

const VISIT_TIMEOUT_MS = 30_000;

declare global {
  interface Window {
    __buttonPaint?: { at: number | null; top: number | null };
  }
}

/** The session `seed` stored before any script of each document of its origin runs. */
export const sessionInitScript = (seed: SessionSeed): string =>
  `(() => { const seed = ${JSON.stringify(seed)}; if (location.origin === seed.origin) localStorage.setItem(seed.key, seed.value); })();`;

/**
 * The paint probe as an init script (a string, for the reason interactive.ts gives): stamps the
 * end of the first frame that holds a button reading one of `labels`, and where it was (its top,
 * in CSS px: under the phone's 740 the person would have to scroll to it).
 */
export function buttonPaintInitScript(labels: readonly string[]): string {
  return `(() => {
  const paint = { at: null, top: null };
  window.__buttonPaint = paint;
  const labels = ${JSON.stringify(labels)};
  const channel = new MessageChannel();
  let waiting = false;
  channel.port1.onmessage = () => {
    if (paint.at === null) paint.at = performance.now();
  };
  const frame = () => {
    if (paint.at !== null || waiting) return;
    const button = Array.from(document.querySelectorAll('button')).find((candidate) =>
      labels.includes((candidate.textContent || '').trim()),
    );
    if (button && button.getClientRects().length > 0) {
      paint.top = button.getBoundingClientRect().top;
      waiting = true;
      channel.port2.postMessage(null);
      return;
    }
    if (performance.now() < ${VISIT_TIMEOUT_MS}) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;
}

async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...SLOW_4G });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
}

export type TapVisit = {
  /** performance.now() of the end of the first frame that held the wallet button. */
  paintedAt: number;
  /** Its top on the phone's screen, CSS px. */
  top: number;
  /** When the probe first saw Connect Wallet enabled, and when the wallet was asked. */
  enabledAt: number;
  requestedAt: number;
};

/** One cold visit on the throttled phone, with a wallet not yet approved, to its click handled. */
export async function phoneTapVisit(
  browser: Browser,
  url: string,
  wallet: MockWalletOptions,
): Promise<TapVisit> {
  const { context, page } = await freshPage(
    browser,
    { ...wallet, connected: false },
    [
      interactiveInitScript(walletCopy.connectWallet, true),
      buttonPaintInitScript([walletCopy.connectWallet, walletCopy.connectingWallet]),
    ],
    PHONE,
  );
  try {
    await throttle(context, page);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => (window.__interactive?.requestedAt ?? null) !== null, undefined, {
      timeout: VISIT_TIMEOUT_MS,
      polling: 100,
    });
    const { probe, paint } = await page.evaluate(() => ({
      probe: window.__interactive,
      paint: window.__buttonPaint,
    }));
    return {
      paintedAt: paint?.at ?? Number.NaN,
      top: paint?.top ?? Number.NaN,
      enabledAt: probe?.enabledAt ?? Number.NaN,
      requestedAt: probe?.requestedAt ?? Number.NaN,
    };
  } finally {
    await context.close();
  }
}

/** A cold visit of a returning signed-in user (desktop), until the signed-in screen is settled. */
export async function signedInLayoutShift(
  browser: Browser,
  url: string,
  session: SessionSeed,
): Promise<LayoutShifts> {
  const { context, page } = await freshPage(browser, null, [
    sessionInitScript(session),
    LAYOUT_SHIFT_INIT_SCRIPT,
  ]);
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.getByRole('button', { name: authCopy.logout, exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    return await readLayoutShifts(page);
  } finally {
    await context.close();
  }
}

export type PhoneFigures = {
  clsSignedIn: number;
  clsPhone: number;
  tap: number;
  tapFromEnabled: number;
  /** One line per figure, every run, for the log. */
  lines: string[];
  /** The largest shifts of the worst visit of each layout-shift figure. */
  largestShifts: { signedIn: string; phone: string };
};

const ms = (value: number) => `${Math.round(value)} ms`;
const largest = (layout: LayoutShifts | undefined) =>
  (layout?.shifts ?? [])
    .toSorted((a, b) => b.value - a.value)
    .slice(0, 3)
    .map(
      (shift) => `${shift.value.toFixed(4)} at ${ms(shift.at)} (${shift.sources.join(', ') || 'no source'})`,
    )
    .join('; ') || 'none';
const p75 = (visits: LayoutShifts[]) =>
  percentile(
    visits.map((visit) => visit.cls),
    0.75,
  );
const worst = (visits: LayoutShifts[]) => visits.toSorted((a, b) => b.cls - a.cls)[0];

/**
 * `runs` visits of each kind, taking turns. The tap is the median of its runs; each layout shift
 * the 75th percentile of its runs, as Core Web Vitals judge layout shift: a shift that comes in one
 * visit of four, depending on what arrives first, counts.
 */
export async function phoneFigures(options: {
  browser: Browser;
  portalUrl: string;
  wallet: MockWalletOptions;
  session: SessionSeed;
  runs: number;
}): Promise<PhoneFigures> {
  const { browser, portalUrl, wallet, session, runs } = options;
  const signedIn: LayoutShifts[] = [];
  const phone: LayoutShifts[] = [];
  const taps: TapVisit[] = [];
  for (let run = 0; run < runs; run += 1) {
    signedIn.push(await signedInLayoutShift(browser, portalUrl, session));
    phone.push((await connectedPortalVisit(browser, portalUrl, wallet, PHONE)).layout);
    taps.push(await phoneTapVisit(browser, portalUrl, wallet));
  }
  const tapTimes = taps.map((tap) => tap.requestedAt - tap.paintedAt);
  return {
    clsSignedIn: p75(signedIn),
    clsPhone: p75(phone),
    tap: median(tapTimes),
    tapFromEnabled: median(taps.map((tap) => tap.requestedAt - tap.enabledAt)),
    lines: [
      `signed-in layout shift runs: ${signedIn.map((visit) => visit.cls.toFixed(4)).join(', ')}`,
      `360 px layout shift runs: ${phone.map((visit) => visit.cls.toFixed(4)).join(', ')}`,
      `phone tap runs: ${taps
        .map(
          (tap, index) =>
            `${ms(tapTimes[index] ?? Number.NaN)} (button painted ${ms(tap.paintedAt)} at ${Math.round(tap.top)} px, enabled ${ms(tap.enabledAt)}, handled ${ms(tap.requestedAt)})`,
        )
        .join(', ')}`,
    ],
    largestShifts: { signedIn: largest(worst(signedIn)), phone: largest(worst(phone)) },
  };
}
