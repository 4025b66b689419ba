import { describe, expect, it } from 'vitest';
import { median, percentile } from '../../bench/lib/stats.ts';

// The benchmarks' p50/p95 figures: nearest rank, over values in any order.
describe('benchmark percentiles', () => {
  it('takes the nearest rank of the values, whatever their order', () => {
    const values = [50, 10, 40, 20, 30, 100, 90, 80, 70, 60];
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 0.95)).toBe(100);
    expect(percentile(values, 0.1)).toBe(10);
    expect(percentile(values, 1)).toBe(100);
    expect(median([3, 1, 2])).toBe(2);
  });

  it('says NaN for no values rather than a number that was never measured', () => {
    expect(percentile([], 0.95)).toBeNaN();
  });
});
