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
