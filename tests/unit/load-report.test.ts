import { describe, expect, it } from 'vitest';
import { Metrics, summarize } from '../../bench/load/metrics.ts';
import {
  docsSection,
  runFailed,
  type LoadFigures,
  type NotificationFigures,
} from '../../bench/load/report.ts';

// The load run's own bookkeeping (bench/load/metrics.ts, bench/load/report.ts): every failure a
// simulated user would notice is counted as an error of its operation, and a notification lost or
// duplicated is an error of delivery → realtime. `npm run bench:load` exits 1 on any of them; that
// verdict is taken in bench/load.ts itself, which runs a stack when imported.

/** The cells of the markdown table row that starts with `first`, by the table's own headings. */
function row(markdown: string, first: string): Record<string, string> {
  const lines = markdown.split('\n');
  const at = lines.findIndex((line) => line.startsWith(`| ${first} |`));
  const cells = (line: string) =>
    line
      .slice(2, -2)
      .split(' | ')
      .map((cell) => cell.trim());
  // The heading line of the same table: the nearest one above its `---` line.
  let heading = at;
  while (heading > 0 && !/^\| -{3}/.test(lines[heading - 1] ?? '')) heading -= 1;
  const names = cells(lines[heading - 2] ?? '');
  const values = cells(lines[at] ?? '');
  expect(values, `a row starting ${first}`).toHaveLength(names.length);
  return Object.fromEntries(names.map((name, index) => [name, values[index] ?? '']));
}

const quiet: NotificationFigures = {
  deliveries: 40,
  repeats: 20,
  seen: 40,
  lost: 0,
  duplicated: 0,
  unexpected: 0,
  channelTrouble: 0,
  latency: summarize([120, 80, 95]),
  db: { notifications: 40, transactions: 40, usersMismatched: 0 },
};

function figures(notifications: Partial<NotificationFigures>, metrics = new Metrics()): LoadFigures {
  return {
    users: 5,
    seconds: 10,
    loadSeconds: 10,
    wallSeconds: 14,
    requestsPerSecond: 30,
    ops: metrics.summary(),
    notifications: { ...quiet, ...notifications },
    stackCpuPercent: null,
    date: new Date('2026-01-01T00:00:00Z'),
  };
}

describe('load run figures', () => {
  it('counts a thrown call, a wrong answer and a failure found afterwards as errors, with their reasons', async () => {
    const metrics = new Metrics();
    const ok = await metrics.measure(
      'sign up',
      () => Promise.resolve({ status: 200 }),
      () => null,
    );
    const thrown = await metrics.measure(
      'list notifications',
      () => Promise.reject(new TypeError('fetch failed')),
      () => null,
    );
    const wrong = await metrics.measure(
      'profile upsert',
      () => Promise.resolve({ status: 503 }),
      (answer) => (answer.status === 200 ? null : `HTTP ${answer.status}`),
    );
    metrics.fail('webhook repeat', 'recorded twice');

    expect(ok).toEqual({ status: 200 });
    expect(thrown).toBeUndefined();
    expect(wrong).toBeUndefined();
    const byKind = Object.fromEntries(metrics.summary().map((op) => [op.kind, op]));
    expect(byKind['sign up']).toMatchObject({ count: 1, errors: 0 });
    expect(byKind['list notifications']).toMatchObject({ count: 1, errors: 1 });
    expect(byKind['profile upsert']).toMatchObject({ count: 1, errors: 1 });
    expect(byKind['webhook repeat']).toMatchObject({ count: 0, errors: 1 });
    expect(metrics.summary().reduce((sum, op) => sum + op.errors, 0)).toBe(3);
    expect(metrics.errorReasons()).toEqual([
      ['list notifications', ['threw TypeError: fetch failed']],
      ['profile upsert', ['HTTP 503']],
      ['webhook repeat', ['recorded twice']],
    ]);

    const report = docsSection(figures({}, metrics));
    expect(row(report, 'list notifications').errors).toBe('1');
    expect(row(report, 'profile upsert').errors).toBe('1');
    expect(row(report, 'webhook repeat').errors).toBe('1');
    expect(row(report, 'sign up').errors).toBe('0');
  });

  it('reports a lost and a duplicated notification as errors of delivery → realtime', () => {
    expect(row(docsSection(figures({})), 'delivery → realtime').errors).toBe('0');

    const report = docsSection(figures({ seen: 39, lost: 1, duplicated: 1 }));
    expect(row(report, 'delivery → realtime').errors).toBe('2');
    expect(row(report, '40')).toMatchObject({ lost: '1', duplicated: '1' });
    expect(row(docsSection(figures({ unexpected: 1 })), 'delivery → realtime').errors).toBe('1');
  });

  it('fails the run on any error, a lost, duplicated or misdelivered notification, or a database mismatch', () => {
    expect(runFailed(0, quiet, 0)).toBe(false);
    expect(runFailed(1, quiet, 0)).toBe(true);
    expect(runFailed(0, { ...quiet, seen: 39, lost: 1 }, 0)).toBe(true);
    expect(runFailed(0, { ...quiet, seen: 41, duplicated: 1 }, 0)).toBe(true);
    expect(runFailed(0, { ...quiet, unexpected: 1 }, 0)).toBe(true);
    expect(runFailed(0, quiet, 1)).toBe(true);
  });
});
