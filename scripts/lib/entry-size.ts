import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// What "entry JS" means for the budget (its goal: docs/benchmarks.md): every script and
// modulepreload that the built index.html names, i.e. all the JavaScript the
// browser fetches before the first paint. Lazy chunks are not in it.

/** 130 kB, in the decimal kilobytes Vite's own build report uses. */
export const ENTRY_BUDGET_BYTES = 130_000;

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

const STATIC_IMPORT = /\bimport\s*(?:[\w$*{}\s,]+from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\.{1,2}\/[^"']+\.js)["']\s*\)/g;

/**
 * What opening a lazy tab downloads beyond the entry: the chunk named after its page
 * (`TradingPage-<hash>.js`), every chunk it imports statically, and the chunks those import, less
 * the entry's files. Chunks the tab loads later on its own (dynamic imports) count too: the tab
 * needs them to draw. An empty list means the build has no such chunk.
 */
export function measureLazyTab(distDir: string, page: string): EntrySize {
  const assets = join(distDir, 'assets');
  const entry = new Set(entryScripts(readFileSync(join(distDir, 'index.html'), 'utf8')).map(baseName));
  const start = readdirSync(assets).find((name) => name.startsWith(`${page}-`) && name.endsWith('.js'));
  const files: EntryFile[] = [];
  const seen = new Set<string>();
  const queue = start ? [start] : [];
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (seen.has(name) || entry.has(name)) continue;
    seen.add(name);
    const content = readFileSync(join(assets, name));
    files.push({ file: `/assets/${name}`, bytes: content.length, gzip: gzipSize(content) });
    const text = content.toString('utf8');
    for (const match of [...text.matchAll(STATIC_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)]) {
      if (match[1]) queue.push(baseName(match[1]));
    }
  }
  return {
    files,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    gzip: files.reduce((sum, file) => sum + file.gzip, 0),
  };
}

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
