/** Nearest-rank percentile (q from 0 to 1) of `values` in any order; NaN when there are none. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

export const median = (values: readonly number[]): number => percentile(values, 0.5);
