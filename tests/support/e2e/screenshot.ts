import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';

// Screenshots for the README, written to docs/screenshots/<name>.png only when
// E2E_SCREENSHOTS=1 (`npm run screenshots`), so an ordinary test run leaves
// the working tree alone. They are taken at a device scale factor of 1, with
// animations stopped, the caret hidden and reduced motion (see openPortal),
// so a re-run on the same machine gives the same pixels.

const SCREENSHOT_DIR = resolve(fileURLToPath(new URL('../../../docs/screenshots', import.meta.url)));
/** Where a test leaves what it looked at for a person to look at too (reports/ is git-ignored). */
const REPORT_DIR = resolve(fileURLToPath(new URL('../../../reports/screenshots', import.meta.url)));

export function screenshotsEnabled(): boolean {
  return process.env['E2E_SCREENSHOTS'] === '1';
}

export type ScreenshotOptions = {
  /** The whole scrollable page rather than the viewport; default true. */
  fullPage?: boolean;
  /** Parts that change from run to run (times, random ids), painted over. */
  mask?: Locator[];
};

/** Writes docs/screenshots/<name>.png when enabled; returns the path written, or null. */
export async function screenshot(
  page: Page,
  name: string,
  options: ScreenshotOptions = {},
): Promise<string | null> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) {
    throw new Error(`screenshot names are lower-case words joined by '-', not "${name}"`);
  }
  if (!screenshotsEnabled()) return null;
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({
    path,
    type: 'png',
    fullPage: options.fullPage ?? true,
    animations: 'disabled',
    caret: 'hide',
    scale: 'css',
    mask: options.mask ?? [],
  });
  return path;
}

/**
 * Writes reports/screenshots/<name>.png on every run, of one element or the whole page: what a test
 * checked by eye, kept beside its assertions for a person to look at. Returns the path written.
 */
export async function reportScreenshot(target: Page | Locator, name: string): Promise<string> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) {
    throw new Error(`screenshot names are lower-case words joined by '-', not "${name}"`);
  }
  const path = join(REPORT_DIR, `${name}.png`);
  mkdirSync(REPORT_DIR, { recursive: true });
  const options = { path, type: 'png', animations: 'disabled', caret: 'hide', scale: 'css' } as const;
  await ('goto' in target ? target.screenshot({ ...options, fullPage: true }) : target.screenshot(options));
  return path;
}
