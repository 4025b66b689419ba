import { describe, expect, it } from 'vitest';
import { formatTimes, layerOf, summarize } from '../support/reporters/layer-times.ts';

// The table printed at the end of `npm test`: what each layer adds to a run, and where the time goes.

const span = (layer: string, file: string, start: number, end: number, tests = 1) => ({
  layer,
  file,
  start,
  end,
  tests,
});

describe('the test-time table', () => {
  it('puts the UI-driven paths in a layer of their own, apart from the e2e files of the same project', () => {
    expect(layerOf('e2e', 'tests/model/wallet.ui.test.ts')).toBe('ui paths');
    expect(layerOf('e2e', 'tests/e2e/send.e2e.test.ts')).toBe('e2e');
    expect(layerOf('model', 'tests/model/wallet.model.test.ts')).toBe('model');
  });

  it('gives a layer the wall time from its first file starting to its last ending, and the files summed', () => {
    const times = summarize(
      [span('unit', 'a', 0, 1000, 3), span('unit', 'b', 500, 2500, 4), span('e2e', 'c', 1000, 9000, 2)],
      9500,
    );
    expect(times.layers).toEqual([
      { layer: 'e2e', files: 1, tests: 2, wallMs: 8000, sumMs: 8000 },
      { layer: 'unit', files: 2, tests: 7, wallMs: 2500, sumMs: 3000 },
    ]);
  });

  it('lists the slowest files first, at most as many as asked', () => {
    const spans = Array.from({ length: 12 }, (_, index) => span('unit', `f${index}`, 0, (index + 1) * 100));
    const { slowest } = summarize(spans, 1200);
    expect(slowest.map((file) => file.file)).toEqual([
      'f11',
      'f10',
      'f9',
      'f8',
      'f7',
      'f6',
      'f5',
      'f4',
      'f3',
      'f2',
    ]);
    expect(summarize(spans, 1200, 3).slowest).toHaveLength(3);
  });

  it('prints every layer and file with its seconds', () => {
    const text = formatTimes(
      summarize([span('contract', 'tests/contract/dex.test.ts', 0, 11_700, 14)], 12_000),
    );
    expect(text).toContain('the whole run: 12.0 s');
    expect(text).toMatch(/contract\s+1\s+14\s+11\.7 s\s+11\.7 s/);
    expect(text).toContain('11.7 s  tests/contract/dex.test.ts (contract, 14 tests)');
  });
});
