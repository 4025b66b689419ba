// What every goal of `npm run bench` is judged and shown with (bench/lib/goals.ts and
// bench/lib/phone-goals.ts): the comparisons, which say "not measured" rather than "met" for a
// figure the run could not take (NaN), and the words of the table.

/** Cumulative layout shift, wherever it is measured: at most this. */
export const CLS_GOAL = 0.01;

/** Met, not met, or null: not measured (a figure the run could not take, or a step it skipped). */
export type Verdict = boolean | null;

const measured = (...values: number[]) => values.every((value) => Number.isFinite(value));
export const atMost = (value: number, limit: number): Verdict =>
  measured(value, limit) ? value <= limit : null;
export const atLeast = (value: number, limit: number): Verdict =>
  measured(value, limit) ? value >= limit : null;
export const under = (value: number, limit: number): Verdict =>
  measured(value, limit) ? value < limit : null;
export const ratio = (portal: number, bare: number): number =>
  measured(portal, bare) && bare > 0 ? portal / bare : Number.NaN;

export const NOT_MEASURED = 'not measured';
export const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : NOT_MEASURED);
export const seconds = (value: number) =>
  Number.isFinite(value) ? `${(value / 1000).toFixed(1)} s` : NOT_MEASURED;
export const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : NOT_MEASURED);
/** A layout shift score, to four decimals. */
export const shift = (value: number) => (Number.isFinite(value) ? value.toFixed(4) : NOT_MEASURED);
export const verdictText = (verdict: Verdict): string =>
  verdict === null ? NOT_MEASURED : verdict ? 'met' : '**not met**';

/** One line of the table: what was measured, the portal's figure, the bare page's, the goal, the verdict. */
export type GoalRow = { measure: string; portal: string; bare: string; goal: string; verdict: string };
