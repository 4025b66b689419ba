import { accessSync, constants } from 'node:fs';

// Debian's Chromium, driven by playwright-core through `executablePath`
// (Playwright's own browser download needs the internet, which CI here does
// not have). See tests/support/e2e/README.md, and scripts/ensure-chromium.sh,
// which installs both builds on a fresh machine before the tests run.

/**
 * What the tests drive: Debian's `chromium-headless-shell`, the same Blink and V8 without the
 * desktop browser around them (the build Playwright itself runs headless tests in). Measured here, a
 * page costs it about half the CPU of the full browser's headless mode, and the browser tests are
 * mostly page loads.
 */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium-headless-shell';
/** The browser a person runs (Debian's `chromium`): the benchmark measures its paints. */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

/** CHROMIUM_PATH when set (for the tests and the benchmark alike), else `fallback`. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env, fallback = DEFAULT_CHROMIUM_PATH): string {
  return env['CHROMIUM_PATH']?.trim() || fallback;
}

/** null when the binary is there and executable, else the one line that says what to install. */
export function chromiumProblem(path: string): string | null {
  try {
    accessSync(path, constants.X_OK);
    return null;
  } catch {
    return (
      `The e2e tests need Chromium at ${path}: run \`bash scripts/ensure-chromium.sh\` (installs ` +
      `Debian's: apt-get install -y chromium-headless-shell chromium) or set CHROMIUM_PATH to a Chromium binary.`
    );
  }
}

/**
 * The flags of testing.md, plus two guards that keep the browser on this machine: host names other
 * than 127.0.0.1 do not resolve, and anything not on the loopback goes to a closed local port.
 * Playwright adds `--headless` and a fresh temporary `--user-data-dir` itself on `launch()`.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=127.0.0.1;localhost',
];
