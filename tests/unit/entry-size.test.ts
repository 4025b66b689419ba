import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { entryScripts, measureEntry } from '../../scripts/lib/entry-size.ts';

// The entry budget counts what index.html makes the browser fetch before the
// first paint: its module scripts and modulepreloads, never the lazy chunks.

const INDEX = `<!doctype html><html><head>
<script>document.documentElement.dataset.theme = 'dark';</script>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
<link rel="modulepreload" crossorigin href="/assets/framework-def.js">
<link href="/assets/copy-ghi.js" rel="modulepreload" crossorigin>
<link rel="stylesheet" href="/assets/index.css">
</head><body><div id="root"></div></body></html>`;

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('entry size', () => {
  it('counts the module scripts and modulepreloads of index.html, not inline scripts or CSS', () => {
    expect(entryScripts(INDEX)).toEqual([
      '/assets/index-abc.js',
      '/assets/framework-def.js',
      '/assets/copy-ghi.js',
    ]);
  });

  it('sums the gzip sizes of those files and nothing else in the build', () => {
    dir = mkdtempSync(join(tmpdir(), 'entry-size-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    const contents = {
      'index-abc.js': 'console.log("entry");'.repeat(50),
      'framework-def.js': 'export const framework = 1;'.repeat(80),
      'copy-ghi.js': 'export const copy = "x";',
      'lazy-jkl.js': 'export const lazy = 2;'.repeat(500),
    };
    for (const [name, content] of Object.entries(contents)) writeFileSync(join(dir, 'assets', name), content);
    const entry = measureEntry(dir);
    const expected = ['index-abc.js', 'framework-def.js', 'copy-ghi.js'].map(
      (name) => gzipSync(contents[name as keyof typeof contents]).length,
    );
    expect(entry.files.map((file) => file.gzip)).toEqual(expected);
    expect(entry.gzip).toBe(expected.reduce((a, b) => a + b, 0));
  });
});
