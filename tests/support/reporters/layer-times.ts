import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

// Printed at the end of every `vitest run`: each layer's wall time and the ten slowest files, so a
// slowdown is visible the day it lands. Also written to .local/test-times.json, which
// `npm run bench` reads after its `npm test`.

export const TEST_TIMES_FILE = resolve(import.meta.dirname, '../../../.local/test-times.json');

export type FileTime = { layer: string; file: string; ms: number; tests: number };
export type LayerTime = { layer: string; files: number; tests: number; wallMs: number; sumMs: number };
export type TestTimes = { totalMs: number; layers: LayerTime[]; slowest: FileTime[] };

/** The layer a file belongs to: its project, with the UI-driven paths apart from the e2e files. */
export function layerOf(project: string, file: string): string {
  return file.endsWith('.ui.test.ts') ? 'ui paths' : project;
}

type Span = { layer: string; file: string; start: number; end: number; tests: number };

/** The per-layer table and the slowest files, from each file's start and end. */
export function summarize(spans: readonly Span[], totalMs: number, top = 10): TestTimes {
  const byLayer = new Map<string, Span[]>();
  for (const span of spans) byLayer.set(span.layer, [...(byLayer.get(span.layer) ?? []), span]);
  const layers = [...byLayer].map(([layer, files]) => ({
    layer,
    files: files.length,
    tests: files.reduce((sum, file) => sum + file.tests, 0),
    // From the layer's first file starting to its last ending: what the layer adds to a run.
    wallMs: Math.max(...files.map((file) => file.end)) - Math.min(...files.map((file) => file.start)),
    sumMs: files.reduce((sum, file) => sum + file.end - file.start, 0),
  }));
  layers.sort((a, b) => b.wallMs - a.wallMs);
  const slowest = spans
    .map(({ layer, file, start, end, tests }) => ({ layer, file, ms: end - start, tests }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
  return { totalMs, layers, slowest };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function formatTimes(times: TestTimes): string {
  const lines = [`Test time by layer (the whole run: ${seconds(times.totalMs)})`];
  lines.push('  layer        files  tests      wall  files summed');
  for (const layer of times.layers) {
    lines.push(
      `  ${layer.layer.padEnd(11)} ${String(layer.files).padStart(6)} ${String(layer.tests).padStart(6)} ${seconds(layer.wallMs).padStart(9)} ${seconds(layer.sumMs).padStart(13)}`,
    );
  }
  lines.push('The ten slowest files');
  for (const file of times.slowest) {
    lines.push(`  ${seconds(file.ms).padStart(8)}  ${file.file} (${file.layer}, ${file.tests} tests)`);
  }
  return lines.join('\n');
}

export default class LayerTimesReporter implements Reporter {
  private runStart = 0;
  private readonly starts = new Map<string, number>();
  private readonly spans: Span[] = [];

  onTestRunStart(): void {
    this.runStart = performance.now();
  }

  onTestModuleStart(module: TestModule): void {
    this.starts.set(module.moduleId, performance.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const file = relative(process.cwd(), module.moduleId);
    const start = this.starts.get(module.moduleId) ?? performance.now();
    const tests = [...module.children.allTests()].length;
    this.spans.push({
      layer: layerOf(module.project.name, file),
      file,
      start,
      end: performance.now(),
      tests,
    });
  }

  onTestRunEnd(): void {
    if (this.spans.length < 2) return;
    const times = summarize(this.spans, performance.now() - this.runStart);
    process.stdout.write(`\n${formatTimes(times)}\n\n`);
    mkdirSync(dirname(TEST_TIMES_FILE), { recursive: true });
    writeFileSync(TEST_TIMES_FILE, `${JSON.stringify(times, null, 2)}\n`);
  }
}
