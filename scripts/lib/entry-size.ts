import { readFileSync } from 'node:fs';
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
