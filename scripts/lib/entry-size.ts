import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// What "entry JS" means for the budget (its goal: docs/benchmarks.md): every script and
// modulepreload that the built index.html names, i.e. all the JavaScript the
// browser fetches before the first paint. Lazy chunks are not in it.

/** 131 kB, in the decimal kilobytes Vite's own build report uses. */
export const ENTRY_BUDGET_BYTES = 131_000;

export type EntryFile = { file: string; bytes: number; gzip: number };
export type EntrySize = { files: EntryFile[]; bytes: number; gzip: number };

const SCRIPT_SRC = /<script\b[^>]*\bsrc="([^"]+\.js)"[^>]*>/g;
const MODULE_PRELOAD =
  /<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+\.js)"[^>]*>|<link\b[^>]*\bhref="([^"]+\.js)"[^>]*\brel="modulepreload"[^>]*>/g;

/** The JavaScript files a built index.html loads before first paint, in the order it names them. */
export function entryScripts(indexHtml: string): string[] {
  const names = [
    ...Array.from(indexHtml.matchAll(SCRIPT_SRC), (match) => match[1]),
    ...Array.from(indexHtml.matchAll(MODULE_PRELOAD), (match) => match[1] ?? match[2]),
  ];
  return [...new Set(names.filter((name): name is string => name !== undefined))];
}

/** gzip at zlib's default level, as a server compressing on the fly sends it. */
export const gzipSize = (content: Buffer | string): number => gzipSync(content).length;

export function measureEntry(distDir: string): EntrySize {
  const files = entryScripts(readFileSync(join(distDir, 'index.html'), 'utf8')).map((file) => {
    const content = readFileSync(join(distDir, file.replace(/^\//, '')));
    return { file, bytes: content.length, gzip: gzipSize(content) };
  });
  return {
    files,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    gzip: files.reduce((sum, file) => sum + file.gzip, 0),
  };
}

export const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

/** The Trading tab's own code (its page, the market and swap charts, the chart library): 70 kB. */
export const TRADING_BUDGET_BYTES = 70_000;
/** Where the tab's code starts: its page, and the composition src/main.tsx loads with it. */
export const TRADING_CHUNKS = ['TradingPage', 'trading-tab'] as const;

const STATIC_IMPORT = /\bimport\s*(?:[\w$*{}\s,]+from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*[`"'](\.{1,2}\/[^`"']+\.js)[`"']\s*\)/g;

/** What opening a lazy tab downloads: all of it, and the part that is the tab's own. */
export type LazyTabSize = {
  /** Every chunk the tab needs beyond the entry (a visitor opening it first downloads these). */
  all: EntrySize;
  /**
   * The chunks no other part of the portal loads: `all` less the code the tab shares with the
   * entry's other lazy chunks (viem, which the token service loads on a first send).
   */
  own: EntrySize;
};

/**
 * What opening a lazy tab downloads beyond the entry: the chunks named (`TradingPage` for
 * `TradingPage-<hash>.js`), every chunk they import, and the chunks those import. Chunks the tab
 * loads later on its own (dynamic imports, such as its chart) count too: the tab needs them to draw.
 * Empty lists mean the build has no such chunk.
 */
export function measureLazyTab(distDir: string, chunks: readonly string[]): LazyTabSize {
  const assets = join(distDir, 'assets');
  const entry = entryScripts(readFileSync(join(distDir, 'index.html'), 'utf8')).map(baseName);
  const names = readdirSync(assets);
  const isTab = (name: string) =>
    chunks.some((chunk) => name.startsWith(`${chunk}-`) && name.endsWith('.js'));
  const tab = reachable(assets, names.filter(isTab), new Set(entry));
  // Everything the entry can load without this tab: its other lazy chunks and what they import.
  const entryImports = entry.flatMap((name) => importsOf(readFileSync(join(assets, name), 'utf8')));
  const elsewhere = reachable(
    assets,
    entryImports.filter((name) => !isTab(name)),
    new Set(entry),
  );
  const all = sizeOf(assets, tab);
  const own = sizeOf(
    assets,
    tab.filter((name) => !elsewhere.includes(name)),
  );
  return { all, own };
}

function reachable(assets: string, roots: string[], stop: ReadonlySet<string>): string[] {
  const seen: string[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (seen.includes(name) || stop.has(name)) continue;
    seen.push(name);
    queue.push(...importsOf(readFileSync(join(assets, name), 'utf8')));
  }
  return seen;
}

function importsOf(text: string): string[] {
  return [...text.matchAll(STATIC_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)].flatMap((match) =>
    match[1] ? [baseName(match[1])] : [],
  );
}

function sizeOf(assets: string, names: string[]): EntrySize {
  const files = names.map((name) => {
    const content = readFileSync(join(assets, name));
    return { file: `/assets/${name}`, bytes: content.length, gzip: gzipSize(content) };
  });
  return {
    files,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    gzip: files.reduce((sum, file) => sum + file.gzip, 0),
  };
}

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * The build the entry budget is held on: for Sepolia, configured as deployed (without a backend or
 * token some code paths would be dead code). The URLs are only written into the bundle; nothing is
 * contacted. `npm run size` and `npm run bench` both measure it.
 */
export const DEPLOYED_BUILD_ENV = {
  VITE_SUPABASE_URL: 'https://abcdefghijklmnopqrst.supabase.co',
  // Shaped like a real publishable key (its length and randomness are in the entry's bytes).
  VITE_SUPABASE_ANON_KEY: 'sb_publishable_q7Xv2LmR9tKc4WzN8bHs1YdP3fJgA6e',
  VITE_RPC_URL: 'https://ethereum-sepolia-rpc.publicnode.com',
  VITE_CHAIN_ID: '11155111',
  VITE_DDEX_TOKEN_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  // Where the local stack deploys the router (its deployer's fourth contract).
  VITE_UNISWAP_V2_ROUTER: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
} as const;
