import { percentile } from '../lib/stats.ts';

// Latencies and failures per kind of operation. A failure is anything a user
// would notice: a thrown call, a non-2xx answer, or an answer that says the
// wrong thing; the first few reasons per kind are kept so a report can say why.

export type OpKind =
  | 'sign up'
  | 'realtime subscribe'
  | 'profile upsert'
  | 'list notifications'
  | 'list transactions'
  | 'webhook delivery'
  | 'webhook repeat';

export const OP_KINDS: readonly OpKind[] = [
  'sign up',
  'realtime subscribe',
  'profile upsert',
  'list notifications',
  'list transactions',
  'webhook delivery',
  'webhook repeat',
];

export type LatencySummary = { count: number; p50: number; p95: number; max: number };
export type OpSummary = LatencySummary & { kind: OpKind; errors: number };

const REASONS_KEPT = 5;

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'object' && error !== null) return JSON.stringify(error);
  return String(error);
}

export class Metrics {
  private readonly latencies = new Map<OpKind, number[]>();
  private readonly failures = new Map<OpKind, number>();
  private readonly reasons = new Map<OpKind, string[]>();

  /**
   * Times `op` and records it under `kind`; `problemOf` turns a resolved answer that is still
   * wrong (a non-2xx status, an unexpected body) into a reason. Never throws: a failed
   * operation yields undefined so the simulated user carries on like a person would.
   */
  async measure<T>(
    kind: OpKind,
    op: () => Promise<T>,
    problemOf: (result: T) => string | null,
  ): Promise<T | undefined> {
    const startedAt = performance.now();
    let result: T | undefined;
    let problem: string | null;
    try {
      result = await op();
      problem = problemOf(result);
    } catch (error) {
      problem = `threw ${describe(error)}`;
    }
    this.push(kind, performance.now() - startedAt);
    if (problem === null) return result;
    this.fail(kind, problem);
    return undefined;
  }

  /** A failure found after the fact (a repeat recorded twice), without a latency of its own. */
  fail(kind: OpKind, reason: string): void {
    this.failures.set(kind, (this.failures.get(kind) ?? 0) + 1);
    const kept = this.reasons.get(kind) ?? [];
    if (kept.length < REASONS_KEPT) kept.push(reason);
    this.reasons.set(kind, kept);
  }

  private push(kind: OpKind, ms: number): void {
    const list = this.latencies.get(kind) ?? [];
    list.push(ms);
    this.latencies.set(kind, list);
  }

  summary(): OpSummary[] {
    return OP_KINDS.map((kind) => ({
      kind,
      ...summarize(this.latencies.get(kind) ?? []),
      errors: this.failures.get(kind) ?? 0,
    }));
  }

  errorReasons(): [OpKind, string[]][] {
    return [...this.reasons];
  }
}
