import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  ENTRY_BUDGET_BYTES,
  kB,
  measureEntry,
  measureLazyTab,
  TRADING_BUDGET_BYTES,
  TRADING_CHUNKS,
} from '../scripts/lib/entry-size.ts';
import { buildPortal, freePort, PROJECT_DIR, servePortal } from '../scripts/lib/portal-build.ts';
import { startChain } from '../stack/chain/index.ts';
import { startGateway } from '../stack/gateway/index.ts';
import { buildBarePage, serveBarePage } from './lib/bare-page.ts';
import { launchChromium, paintTimes, scriptsToConnectedPortal, type PaintTimes } from './lib/browser.ts';
import { timeNpm, timeNpmStart } from './lib/commands.ts';
import { machineLine, writeDocsSection } from './lib/docs.ts';
import { median, percentile } from './lib/stats.ts';
import { notificationLatencies } from './lib/notification-latency.ts';
import { quoteLatencies } from './lib/quote-latency.ts';

// `npm run bench`: the portal's speed against its goals (docs/benchmarks.md), in one run on
// this machine, everything on 127.0.0.1.
// - builds the portal for production (against a local stack it starts) and a
//   bare Vite React page beside it, and serves both with `vite preview`;
// - entry JS gzip of both; every script a cold visit downloads up to a
//   connected portal with both balances;
// - first and largest contentful paint of cold visits in headless Chromium,
//   portal and bare page taking turns, the median of --runs each and the ratio;
// - DB insert → notification on screen, p50/p95 over --inserts rows;
// - the Trading tab's own JS (gzip), and typing → DEX quote on screen, p50/p95 over --quotes amounts;
// - `npm start` to its ready banner, warm (median of 3 after a first start);
// - the test command's wall time (`npm test`), unless --skip-test-run.
// It prints the figures, writes them into docs/benchmarks.md between
// <!-- bench:start --> and <!-- bench:end --> (unless --skip-docs), and exits 1
// when the entry JS is over its budget.
//
//   npm run bench [-- --runs 7 --inserts 20 --skip-test-run --skip-docs]

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    inserts: { type: 'string', default: '20' },
    quotes: { type: 'string', default: '20' },
    'skip-test-run': { type: 'boolean', default: false },
    'skip-docs': { type: 'boolean', default: false },
  },
});
const RUNS = Math.max(5, Number(args.runs));
const INSERTS = Math.max(20, Number(args.inserts));
const QUOTES = Math.max(20, Number(args.quotes));
const WARM_STARTS = 3;

const ms = (value: number) => `${Math.round(value)} ms`;
const step = (text: string) => console.log(`[bench] ${text}`);

const tempDir = mkdtempSync(join(tmpdir(), 'ddex-bench-'));
const cleanups: (() => Promise<unknown> | unknown)[] = [
  () => rmSync(tempDir, { recursive: true, force: true }),
];
const cleanUp = async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
};

try {
  step('starting a chain and a gateway');
  const chain = await startChain({ port: 0, dataDir: join(tempDir, 'stack') });
  cleanups.push(() => chain.close());
  const gateway = await startGateway({
    port: 0,
    dataDir: join(tempDir, 'stack'),
    quietEmail: true,
    tokenAddress: chain.tokenAddress,
    rpcUrl: chain.rpcUrl,
    uniswapRouter: chain.uniswap.router,
  });
  cleanups.push(() => gateway.close());

  step('building the portal and the bare page');
  const portalDir = join(tempDir, 'portal');
  const bareDir = join(tempDir, 'bare');
  await buildPortal(portalDir, {
    VITE_SUPABASE_URL: gateway.url,
    VITE_SUPABASE_ANON_KEY: gateway.anonKey,
    VITE_RPC_URL: chain.rpcUrl,
    VITE_CHAIN_ID: String(chain.chainId),
    VITE_DDEX_TOKEN_ADDRESS: chain.tokenAddress,
    VITE_UNISWAP_V2_ROUTER: chain.uniswap.router,
  });
  await buildBarePage(bareDir);
  const portalUrl = `http://127.0.0.1:${await freePort()}`;
  const bareUrl = `http://127.0.0.1:${await freePort()}`;
  const portalServer = await servePortal(portalDir, Number(new URL(portalUrl).port));
  cleanups.push(() => portalServer.close());
  const bareServer = await serveBarePage(bareDir, Number(new URL(bareUrl).port));
  cleanups.push(() => bareServer.close());

  const portalEntry = measureEntry(portalDir);
  const tradingTab = measureLazyTab(portalDir, TRADING_CHUNKS);
  const bareEntry = measureEntry(bareDir);

  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  step(`paint: ${RUNS} cold visits each, taking turns (after one warm-up each)`);
  await paintTimes(browser, portalUrl);
  await paintTimes(browser, bareUrl);
  const portalPaints: PaintTimes[] = [];
  const barePaints: PaintTimes[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    portalPaints.push(await paintTimes(browser, portalUrl));
    barePaints.push(await paintTimes(browser, bareUrl));
  }
  const paint = (runs: PaintTimes[]) => ({
    fcp: median(runs.map((run) => run.fcp)),
    lcp: median(runs.map((run) => run.lcp)),
  });
  const portalPaint = paint(portalPaints);
  const barePaint = paint(barePaints);

  step('scripts to a connected portal');
  const [viewer] = chain.accounts.slice(1);
  if (!viewer) throw new Error('the chain has no second account');
  const scripts = await scriptsToConnectedPortal(browser, portalUrl, {
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    accounts: [viewer.address],
  });

  step(`notifications: ${INSERTS} inserts`);
  const latencies = await notificationLatencies(browser, portalUrl, gateway, INSERTS);

  step(`DEX quotes: ${QUOTES} typed amounts`);
  const quotes = await quoteLatencies(
    browser,
    portalUrl,
    { rpcUrl: chain.rpcUrl, chainId: chain.chainId, accounts: [viewer.address] },
    QUOTES,
  );
  await cleanUp();

  step(`npm start: one first start, then ${WARM_STARTS} warm ones`);
  const startDir = mkdtempSync(join(tmpdir(), 'ddex-bench-start-'));
  cleanups.push(() => rmSync(startDir, { recursive: true, force: true }));
  const startEnv = {
    STACK_DATA_DIR: startDir,
    STACK_APP_PORT: String(await freePort()),
    STACK_GATEWAY_PORT: String(await freePort()),
    STACK_RPC_PORT: String(await freePort()),
  };
  const firstStart = await timeNpmStart(startEnv);
  const warmStarts: number[] = [];
  for (let run = 0; run < WARM_STARTS; run += 1) warmStarts.push(await timeNpmStart(startEnv));
  await cleanUp();

  let testRun: { ms: number; code: number | null } | null = null;
  if (!args['skip-test-run']) {
    step('npm test (its output follows)');
    testRun = await timeNpm(['test']);
  }

  const ratio = (portal: number, bare: number) => `${(portal / bare).toFixed(2)}×`;
  const p50 = percentile(latencies, 0.5);
  const p95 = percentile(latencies, 0.95);
  const quoteP50 = percentile(quotes, 0.5);
  const quoteP95 = percentile(quotes, 0.95);
  const tradingOver = tradingTab.own.gzip > TRADING_BUDGET_BYTES;
  const overBudget = portalEntry.gzip > ENTRY_BUDGET_BYTES || tradingOver;
  const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
  const rows: [string, string, string, string, string][] = [
    [
      'Entry JS before first paint (gzip)',
      kB(portalEntry.gzip),
      kB(bareEntry.gzip),
      `≤ ${kB(ENTRY_BUDGET_BYTES)}`,
      verdict(portalEntry.gzip <= ENTRY_BUDGET_BYTES),
    ],
    [
      'Trading tab’s own JS, chart included (gzip)',
      `${kB(tradingTab.own.gzip)} in ${tradingTab.own.files.length} files (${kB(tradingTab.all.gzip)} with shared viem, for a visitor)`,
      '—',
      `≤ ${kB(TRADING_BUDGET_BYTES)}`,
      verdict(!tradingOver),
    ],
    [
      'All JS to a connected portal with balances (gzip)',
      `${kB(scripts.gzip)} in ${scripts.files} files`,
      '—',
      '—',
      '—',
    ],
    [
      `First contentful paint (median of ${RUNS} cold visits)`,
      `${ms(portalPaint.fcp)} (${ratio(portalPaint.fcp, barePaint.fcp)})`,
      ms(barePaint.fcp),
      '≤ 1.2× the bare page',
      verdict(portalPaint.fcp <= 1.2 * barePaint.fcp),
    ],
    [
      `Largest contentful paint (median of ${RUNS})`,
      `${ms(portalPaint.lcp)} (${ratio(portalPaint.lcp, barePaint.lcp)})`,
      ms(barePaint.lcp),
      '—',
      '—',
    ],
    [
      `DB insert → notification on screen (${latencies.length} inserts)`,
      `p50 ${ms(p50)}, p95 ${ms(p95)}`,
      '—',
      'p95 ≤ 300 ms',
      verdict(p95 <= 300),
    ],
    [
      `Typing → DEX quote on screen (${quotes.length} amounts)`,
      `p50 ${ms(quoteP50)}, p95 ${ms(quoteP95)}`,
      '—',
      'p95 ≤ 150 ms',
      verdict(quoteP95 <= 150),
    ],
    [
      `\`npm start\` to ready, warm (median of ${WARM_STARTS}; first start ${(firstStart / 1000).toFixed(1)} s)`,
      `${(median(warmStarts) / 1000).toFixed(1)} s`,
      '—',
      '< 10 s',
      verdict(median(warmStarts) < 10_000),
    ],
    [
      'Full test command (`npm test`) wall time',
      testRun
        ? `${(testRun.ms / 60_000).toFixed(1)} min${testRun.code === 0 ? '' : ` (exit ${testRun.code})`}`
        : 'not run (--skip-test-run)',
      '—',
      'CI limit 90 min',
      testRun ? verdict(testRun.code === 0 && testRun.ms < 90 * 60_000) : '—',
    ],
  ];

  const table = [
    '| Measure | Portal | Bare Vite React page | Goal | Verdict |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  console.log(`\n${table}\n`);
  console.log(`portal FCP runs: ${portalPaints.map((run) => ms(run.fcp)).join(', ')}`);
  console.log(`bare FCP runs:   ${barePaints.map((run) => ms(run.fcp)).join(', ')}`);
  console.log(`notification latencies: ${latencies.map(ms).join(', ')}`);
  console.log(`quote latencies: ${quotes.map(ms).join(', ')}`);

  if (!args['skip-docs']) {
    const section = [
      '## Portal: `npm run bench`',
      '',
      `Measured on ${machineLine()}, headless Chromium (Debian's), everything on 127.0.0.1.`,
      '',
      table,
      '',
      'Entry JS is every script and modulepreload of the built `index.html`, gzip at zlib’s default level. ' +
        'Paint figures are cold visits of a visitor (fresh browser context, no wallet), portal and bare page ' +
        'taking turns; the bare page is the `npm create vite` React page built with the same Vite and React. ' +
        'The notification figure runs from the service-role insert to the title appearing in the open ' +
        'notifications dialog of a signed-in browser. The quote figure runs from the input event of a new ' +
        'amount in the Trading tab’s “You pay” to the new “You receive” being shown, with a ' +
        'connected wallet: the debounce, the router’s getAmountsOut over RPC and the render.',
      '',
      `Portal entry files: ${portalEntry.files.map((file) => `\`${file.file.replace(/^\/assets\//, '')}\` ${kB(file.gzip)}`).join(', ')}.`,
    ].join('\n');
    await writeDocsSection(join(PROJECT_DIR, 'docs', 'benchmarks.md'), 'bench', section);
    step('wrote docs/benchmarks.md');
  }
  if (overBudget) {
    console.error(
      `[bench] entry JS ${kB(portalEntry.gzip)} (budget ${kB(ENTRY_BUDGET_BYTES)}) or Trading tab JS ${kB(tradingTab.own.gzip)} (budget ${kB(TRADING_BUDGET_BYTES)}) is over its budget`,
    );
  }
  // Said outright: the gateway's PGlite leaves its own statuses (99, 100) in process.exitCode.
  process.exitCode = overBudget ? 1 : 0;
} finally {
  await cleanUp();
}
