import { kB, type EntrySize } from '../../scripts/lib/entry-size.ts';
import type { TestTimes } from '../../tests/support/reporters/layer-times.ts';
import { phoneNotes, type PhoneRun } from './phone-run.ts';
import { testRunsMarkdown, type TestRun } from './test-runs.ts';

// The `bench` section of docs/benchmarks.md: the goal table, how each figure is measured, the test
// runs and what the run noticed. bench/portal.ts writes it with bench/lib/docs.ts.

const HOW_DESKTOP =
  'Entry JS is every script and modulepreload of the `index.html` of a build for Sepolia as deployed (the build `npm run size` holds to its budget), gzip at zlib’s default level. ' +
  'Paint figures are cold visits of a visitor (fresh browser context, no wallet), portal and bare page ' +
  'taking turns; the bare page is the `npm create vite` React page built with the same Vite and React. ' +
  'Interactive is a cold visit with a wallet the site has not been approved by: a probe in the page clicks ' +
  'Connect Wallet as soon as it is enabled (and again on every change and frame until a click takes), and ' +
  'the figure runs from navigation to the wallet being asked for `eth_requestAccounts`. Without a wallet ' +
  'the button stays disabled while the portal waits for wallets to announce themselves, so that case is ' +
  'shown apart, with no goal. Layout shift and the JS to a connected portal come from one cold visit with ' +
  'a wallet that approved the site before, until both balances are shown and the network is idle: every ' +
  'layout-shift entry without recent input, summed. ' +
  'The notification figure runs from the service-role insert to the title appearing in the open ' +
  'notifications dialog of a signed-in browser. The quote figure runs from the input event of a new ' +
  'amount in the Trading tab’s “You pay” to the new “You receive” being shown, with a ' +
  'connected wallet: the debounce, the router’s getAmountsOut over RPC and the render. ' +
  '`npm start` runs to its ready banner, first on an empty data directory, then warm. ' +
  'These figures are served by `vite preview`, which does not compress.';

/** How each phone figure is measured; `lighthouseVersion` as installed. */
export function phoneMethod(lighthouseVersion: string): string {
  return (
    'Phone figures (`npm run bench:phone` takes them alone). Both builds are served by a small static ' +
    'server (`bench/lib/compressed-server.ts`) as a host serves them: HTML, JS, CSS, JSON and SVG ' +
    'gzip-compressed at zlib’s default level for a browser that accepts it, hashed files under ' +
    '`/assets/` cached for a year and everything else revalidated, the build’s `_headers` (its ' +
    `Content-Security-Policy) sent. Lighthouse ${lighthouseVersion} runs in Debian’s Chromium with its ` +
    'default mobile preset: a Moto G Power’s screen (412 × 823 CSS px at 1.75×) and user agent, slow 4G ' +
    '(150 ms RTT, 1.6 Mbps down, 750 kbps up) and a CPU 4× slower, simulated from an unthrottled load ' +
    '(`throttlingMethod: simulate`), with the performance, accessibility and best-practices categories. ' +
    'Each run is a fresh browser context; the rounds take the visitor screen, the bare page, the ' +
    'signed-in user and the Trading tab in turn, and each figure is the median of its runs (scores out ' +
    'of 100, as Lighthouse shows them). The signed-in user is signed up through the bench’s gateway, ' +
    'and every document of the portal’s origin stores its session in localStorage under supabase-js’s ' +
    'key before any script runs (Lighthouse clears the origin’s storage before it navigates; this puts ' +
    'the session back, and nothing else is kept between runs). The DEX Trading tab has no URL (the tabs ' +
    'are state), so its run is a Lighthouse timespan: the visitor screen loads on the same phone with the ' +
    'same network and CPU applied to the browser (Lighthouse’s `devtools` method: 562.5 ms per request, ' +
    '1.47 Mbps down, 675 kbps up, 4× CPU, as only a navigation can be simulated) and settles, then the ' +
    'timespan runs from a tap on the tab to its market shown with the chart and the network quiet for a ' +
    'second. A timespan’s performance score weighs only total blocking time and layout shift; its ' +
    'accessibility is a snapshot’s of the shown tab, and best practices the lower of the two. ' +
    'The Playwright figures take a phone as Playwright’s Galaxy S8 (360 × 740 CSS px at 3×, touch, ' +
    'mobile user agent). Signed-in layout shift: a cold visit (on the desktop, as the layout-shift figure ' +
    'above) with the same stored session, until Logout is shown and the network is idle. 360 px layout ' +
    'shift: the connected visit of the desktop figure, on the Galaxy S8. Each is the 75th percentile of ' +
    'its visits, as Core Web Vitals judge layout shift, so a shift that comes in one visit of four counts. ' +
    'The tap: the Galaxy S8 with its CPU slowed 4× (CDP `Emulation.setCPUThrottlingRate`) and slow 4G ' +
    '(CDP `Network.emulateNetworkConditions`: 150 ms added to each request, 1.6 Mbps down, 750 kbps up), a ' +
    'cold visit with a wallet the site has not been approved by. The interactive probe above clicks ' +
    'Connect Wallet as soon as it is enabled and stamps the wallet being asked for `eth_requestAccounts`; ' +
    'a paint probe looks for the wallet button on every animation frame, whatever it reads (the ' +
    'prerendered page shows it at once, disabled, as “Connecting Wallet...” while wallets are ' +
    'discovered), and in the first frame that has it posts itself a message, which runs once that ' +
    'frame’s style, layout and paint are done: the button’s first paint. The figure runs from there to ' +
    'the wallet being asked, the median of its visits; the part after the button was enabled is shown ' +
    'beside it.'
  );
}

export function benchSection(input: {
  machine: string;
  table: string;
  testRuns: TestRun[] | null;
  testTimes: TestTimes | null;
  shifts: string[];
  portalEntry: EntrySize;
  phone: PhoneRun;
  lighthouseVersion: string;
}): string {
  const { machine, table, testRuns, testTimes, shifts, portalEntry, phone, lighthouseVersion } = input;
  return [
    '## Portal: `npm run bench`',
    '',
    `Measured on ${machine}, headless Chromium (Debian's), everything on 127.0.0.1.`,
    '',
    table,
    '',
    HOW_DESKTOP,
    '',
    phoneMethod(lighthouseVersion),
    '',
    testRunsMarkdown(testRuns, testTimes),
    '',
    `Largest layout shifts: ${shifts.join('; ') || 'none'}.`,
    '',
    ...phoneNotes(phone).map((note) => `- ${note}`),
    '',
    `Portal entry files: ${portalEntry.files.map((file) => `\`${file.file.replace(/^\/assets\//, '')}\` ${kB(file.gzip)}`).join(', ')}.`,
  ].join('\n');
}
