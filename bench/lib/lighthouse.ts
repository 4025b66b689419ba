import { createRequire } from 'node:module';
import lighthouse, { snapshot, startTimespan, type Flags, type Result } from 'lighthouse';
import * as constants from 'lighthouse/core/config/constants.js';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { appCopy } from '../../src/copy/index.ts';
import { dexCopy } from '../../src/copy/dex.ts';
import {
  CHROMIUM_ARGS,
  FULL_CHROMIUM_PATH,
  chromiumPath,
  chromiumProblem,
} from '../../tests/support/e2e/chromium.ts';
import type { SessionSeed } from '../../tests/support/e2e/session.ts';
import type { LighthouseFigures } from './phone-goals.ts';
import { median } from './stats.ts';

// Lighthouse on a phone, as PageSpeed Insights runs it: its default (mobile) preset, a Moto G
// Power's screen (412 × 823 at 1.75×) and user agent, slow 4G (150 ms RTT, 1.6 Mbps down, 750 kbps
// up) and a CPU 4× slower than this one, simulated from an unthrottled load (throttlingMethod
// 'simulate'), in Debian's Chromium with the e2e flags (loopback only). Each run is a fresh browser
// context, so nothing is cached and nothing is stored but what the run stores itself.
//
// The DEX Trading tab has no URL of its own (the portal's tabs are state): its run loads the
// visitor screen on the same phone, with the same throttling applied to the browser (Lighthouse's
// 'devtools' method: a simulation needs a navigation), and a timespan runs from a tap on the tab to
// its market shown with the chart and the network quiet; a snapshot after it gives accessibility.

/** The installed Lighthouse's version, for the docs. */
export const LIGHTHOUSE_VERSION: string = (
  createRequire(import.meta.url)('lighthouse/package.json') as { version: string }
).version;

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const PHONE = constants.screenEmulationMetrics.mobile;
const SLOW_4G = constants.throttling.mobileSlow4G;

/** The mobile preset, said outright (it is Lighthouse's default). */
const MOBILE: Flags = {
  formFactor: 'mobile',
  screenEmulation: PHONE,
  emulatedUserAgent: constants.userAgents.mobile,
  throttlingMethod: 'simulate',
  throttling: SLOW_4G,
  onlyCategories: CATEGORIES,
  logLevel: 'error',
};
/** The same phone and network, applied to the browser for a timespan and a snapshot. */
const MOBILE_APPLIED: Flags = { ...MOBILE, throttlingMethod: 'devtools' };

/** One run: its figures, and what Lighthouse points at, for the log. */
export type LighthouseRun = { figures: LighthouseFigures; notes: string[] };

export async function launchLighthouseChromium(): Promise<Browser> {
  const path = chromiumPath(process.env, FULL_CHROMIUM_PATH);
  const problem = chromiumProblem(path);
  if (problem) throw new Error(problem);
  // No viewport of puppeteer's own: Lighthouse emulates the phone's.
  return puppeteer.launch({
    executablePath: path,
    headless: true,
    args: CHROMIUM_ARGS,
    defaultViewport: null,
  });
}

const score = (lhr: Result, category: string): number => {
  const value = lhr.categories[category]?.score;
  // As Lighthouse shows it: a whole number out of 100.
  return typeof value === 'number' ? Math.round(value * 100) : Number.NaN;
};
const numeric = (lhr: Result, audit: string): number => {
  const result = lhr.audits[audit];
  return result?.scoreDisplayMode === 'notApplicable' ? Number.NaN : (result?.numericValue ?? Number.NaN);
};

function figuresOf(lhr: Result): LighthouseFigures {
  return {
    performance: score(lhr, 'performance'),
    fcp: numeric(lhr, 'first-contentful-paint'),
    lcp: numeric(lhr, 'largest-contentful-paint'),
    tbt: numeric(lhr, 'total-blocking-time'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
  };
}

const file = (url: string) => url.replace(/^https?:\/\/[^/]+/, '') || url;

/** What a run's report points at: audits that lost points, long tasks, the LCP element, shifts. */
function notesOf(lhr: Result): string[] {
  const notes: string[] = [];
  const counted = new Set(
    Object.values(lhr.categories).flatMap((category) =>
      category.auditRefs.filter((ref) => ref.weight > 0).map((ref) => ref.id),
    ),
  );
  const lost = [...counted]
    .map((id) => lhr.audits[id])
    .filter((audit) => audit && typeof audit.score === 'number' && audit.score < 1)
    .map((audit) => `${audit?.id} ${audit?.displayValue ?? audit?.score}`);
  if (lost.length > 0) notes.push(`lost points: ${lost.join(', ')}`);
  type Row = Record<string, unknown>;
  const rows = (audit: string): Row[] => {
    const details = lhr.audits[audit]?.details as { items?: Row[] } | undefined;
    return details?.items ?? [];
  };
  const tasks = rows('long-tasks').map(
    (task) =>
      `${file(String(task['url']))} ${Math.round(Number(task['duration']))} ms at ${Math.round(Number(task['startTime']))} ms`,
  );
  if (tasks.length > 0) notes.push(`long tasks (simulated where the run simulates): ${tasks.join(', ')}`);
  const element = rows('largest-contentful-paint-element')
    .flatMap((row) => ((row['items'] as Row[] | undefined) ?? []).map((item) => item['node']))
    .map((node) => (node as { nodeLabel?: string } | undefined)?.nodeLabel)
    .find(Boolean);
  if (element) notes.push(`LCP element: “${element.replace(/\s+/g, ' ').slice(0, 60)}”`);
  const shifts = rows('layout-shifts').map((shift) => {
    const node = shift['node'] as { nodeLabel?: string } | undefined;
    return `${Number(shift['score']).toFixed(4)} (${(node?.nodeLabel ?? '?').replace(/\s+/g, ' ').slice(0, 40)})`;
  });
  if (shifts.length > 0) notes.push(`layout shifts: ${shifts.join(', ')}`);
  return notes;
}

/** Runs `measure` on a page of a fresh browser context, closed after. */
async function inFreshContext<T>(browser: Browser, measure: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.createBrowserContext();
  try {
    return await measure(await context.newPage());
  } finally {
    await context.close();
  }
}

/**
 * A navigation of `url` with the mobile preset. With `session`, the page stores it before any
 * script of each document of its origin runs, as supabase-js keeps a signed-in user's session:
 * Lighthouse clears the origin's storage before it navigates, and the seed puts the session back.
 */
export function lighthouseNavigation(
  browser: Browser,
  url: string,
  session: SessionSeed | null = null,
): Promise<LighthouseRun> {
  return inFreshContext(browser, async (page) => {
    if (session) {
      await page.evaluateOnNewDocument((seed: SessionSeed) => {
        if (location.origin === seed.origin) localStorage.setItem(seed.key, seed.value);
      }, session);
    }
    const result = await lighthouse(url, MOBILE, undefined, page);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.message}`);
    return { figures: figuresOf(result.lhr), notes: notesOf(result.lhr) };
  });
}

const LOAD_TIMEOUT_MS = 90_000;

/** Lighthouse's phone and slow 4G applied to the page itself, before it loads. */
async function emulatePhone(page: Page): Promise<void> {
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setDeviceMetricsOverride', {
    width: PHONE.width,
    height: PHONE.height,
    deviceScaleFactor: PHONE.deviceScaleFactor,
    mobile: PHONE.mobile,
  });
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
  await page.setUserAgent({ userAgent: constants.userAgents.mobile });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: SLOW_4G.requestLatencyMs,
    downloadThroughput: (SLOW_4G.downloadThroughputKbps * 1024) / 8,
    uploadThroughput: (SLOW_4G.uploadThroughputKbps * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_4G.cpuSlowdownMultiplier });
}

/**
 * The DEX Trading tab on the phone: the visitor screen loads and settles (Connect Wallet offered,
 * the network quiet), then a timespan runs from a tap on the tab to the market shown with its
 * chart (or the words that it has none yet) and the network quiet for a second. The page is
 * polled every 250 ms, never on each frame, so the probe adds next to nothing to the main thread.
 * Its performance score is Lighthouse's for a timespan: total blocking time and layout shift.
 * Accessibility is a snapshot's of the shown tab; best practices the lower of the two.
 */
export function lighthouseTradingTab(browser: Browser, url: string): Promise<LighthouseRun> {
  return inFreshContext(browser, async (page) => {
    await emulatePhone(page);
    await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
    const tab = await page.waitForSelector(`::-p-aria([name="${appCopy.tabs.trading}"][role="button"])`, {
      timeout: LOAD_TIMEOUT_MS,
    });
    if (!tab) throw new Error('the portal has no DEX Trading tab');
    await page.waitForNetworkIdle({ idleTime: 1000, timeout: LOAD_TIMEOUT_MS });

    const timespan = await startTimespan(page, { flags: MOBILE_APPLIED });
    await tab.tap();
    const shown = await page.waitForFunction(
      (words: { empty: string; failed: string; unavailable: string }) => {
        const text = document.body.textContent ?? '';
        if (text.includes(words.failed) || text.includes(words.unavailable)) return 'failed';
        const chart = document.querySelector('figure[aria-labelledby="chart-title"] canvas');
        return chart || text.includes(words.empty) ? 'shown' : false;
      },
      { polling: 250, timeout: LOAD_TIMEOUT_MS },
      { empty: dexCopy.chartEmpty, failed: dexCopy.marketFailed, unavailable: dexCopy.marketUnavailable },
    );
    if ((await shown.jsonValue()) !== 'shown') throw new Error('the DEX Trading tab’s market did not load');
    await page.waitForNetworkIdle({ idleTime: 1000, timeout: LOAD_TIMEOUT_MS }).catch(() => undefined);
    const span = await timespan.endTimespan();
    if (!span) throw new Error('Lighthouse gave no timespan result');
    const shot = await snapshot(page, { flags: MOBILE_APPLIED });
    if (!shot) throw new Error('Lighthouse gave no snapshot result');
    const figures = figuresOf(span.lhr);
    return {
      figures: {
        ...figures,
        accessibility: score(shot.lhr, 'accessibility'),
        bestPractices: Math.min(figures.bestPractices, score(shot.lhr, 'best-practices')),
      },
      notes: [...notesOf(span.lhr), ...notesOf(shot.lhr).map((note) => `snapshot: ${note}`)],
    };
  });
}

/** Each figure's median over the runs (NaN where no run had it). */
export function medianFigures(runs: readonly LighthouseFigures[]): LighthouseFigures {
  const of = (key: keyof LighthouseFigures) =>
    median(runs.map((run) => run[key]).filter((value) => Number.isFinite(value)));
  return {
    performance: of('performance'),
    fcp: of('fcp'),
    lcp: of('lcp'),
    tbt: of('tbt'),
    cls: of('cls'),
    accessibility: of('accessibility'),
    bestPractices: of('bestPractices'),
  };
}

export type LighthousePages = {
  visitor: LighthouseFigures;
  bare: LighthouseFigures;
  signedIn: LighthouseFigures;
  trading: LighthouseFigures;
};

/**
 * `runs` rounds, each page once per round and in turn (visitor screen, bare page, signed-in user,
 * Trading tab), so a busy stretch of the machine weighs on all of them alike; the medians, and
 * the notes of each page's run of median performance.
 */
export async function lighthousePages(options: {
  portalUrl: string;
  bareUrl: string;
  session: SessionSeed;
  runs: number;
  log: (line: string) => void;
}): Promise<{ pages: LighthousePages; notes: Record<keyof LighthousePages, string[]> }> {
  const { portalUrl, bareUrl, session, runs, log } = options;
  const browser = await launchLighthouseChromium();
  try {
    const measure: Record<keyof LighthousePages, () => Promise<LighthouseRun>> = {
      visitor: () => lighthouseNavigation(browser, `${portalUrl}/`),
      bare: () => lighthouseNavigation(browser, `${bareUrl}/`),
      signedIn: () => lighthouseNavigation(browser, `${portalUrl}/`, session),
      trading: () => lighthouseTradingTab(browser, `${portalUrl}/`),
    };
    const pages = Object.keys(measure) as (keyof LighthousePages)[];
    const taken = { visitor: [], bare: [], signedIn: [], trading: [] } as Record<
      keyof LighthousePages,
      LighthouseRun[]
    >;
    for (let round = 1; round <= runs; round += 1) {
      for (const name of pages) {
        const run = await measure[name]();
        taken[name].push(run);
        const { performance, fcp, lcp, tbt, cls, accessibility, bestPractices } = run.figures;
        log(
          `lighthouse ${name} ${round}/${runs}: performance ${performance}, FCP ${Math.round(fcp)} ms, LCP ${Math.round(lcp)} ms, TBT ${Math.round(tbt)} ms, CLS ${cls.toFixed(4)}, accessibility ${accessibility}, best practices ${bestPractices}`,
        );
      }
    }
    const of = (name: keyof LighthousePages) => medianFigures(taken[name].map((run) => run.figures));
    // The notes of the run whose performance score is the median one: a typical run, not an outlier.
    const notes = (name: keyof LighthousePages) => {
      const byScore = taken[name].toSorted((a, b) => a.figures.performance - b.figures.performance);
      return byScore[Math.ceil(byScore.length / 2) - 1]?.notes ?? [];
    };
    return {
      pages: { visitor: of('visitor'), bare: of('bare'), signedIn: of('signedIn'), trading: of('trading') },
      notes: {
        visitor: notes('visitor'),
        bare: notes('bare'),
        signedIn: notes('signedIn'),
        trading: notes('trading'),
      },
    };
  } finally {
    await browser.close();
  }
}
