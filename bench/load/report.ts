import { cpus } from 'node:os';
import { machineLine } from '../lib/docs.ts';
import type { LatencySummary, OpSummary } from './metrics.ts';

// The load run's figures as a terminal table and as a section of
// docs/benchmarks.md, written between its markers so other sections stay as
// they are.

/** Its section of docs/benchmarks.md (bench/lib/docs.ts). */
export const DOCS_SECTION = 'load';

export type NotificationFigures = {
  /** Transfers whose webhook was accepted (2xx) at least once. */
  deliveries: number;
  /** Extra copies sent on purpose (a repeat after the answer, or two at once). */
  repeats: number;
  seen: number;
  lost: number;
  duplicated: number;
  /** Realtime rows matching no transfer of the receiver, or another user's. */
  unexpected: number;
  /** Channel errors, time-outs or closes after the first SUBSCRIBED. */
  channelTrouble: number;
  latency: LatencySummary;
  db: { notifications: number; transactions: number; usersMismatched: number };
};

export type LoadFigures = {
  users: number;
  seconds: number;
  loadSeconds: number;
  wallSeconds: number;
  requestsPerSecond: number;
  ops: OpSummary[];
  notifications: NotificationFigures;
  stackCpuPercent: number | null;
  /** Both cores over the load, as a percentage of one: the stack, the users, the functions and anything else. */
  machineCpuPercent?: number | null;
  /** This script's own CPU over the load: the simulated users' clients and the Tatum it plays. */
  usersCpuPercent?: number | null;
  /** The start-up ramp over which users begin, one after another; sign-ups happen in it. */
  rampSeconds?: number;
  /** Delivery → realtime of the transfers sent after the ramp, every user at work. */
  steadyLatency?: LatencySummary;
  date: Date;
};

/**
 * Whether a run failed: any operation's error, any notification lost, duplicated or delivered to
 * the wrong user, or a user whose rows the database disagrees about. `npm run bench:load` exits 1 then.
 */
export function runFailed(errors: number, notifications: NotificationFigures, dbMismatches: number): boolean {
  return (
    errors > 0 ||
    notifications.lost > 0 ||
    notifications.duplicated > 0 ||
    notifications.unexpected > 0 ||
    dbMismatches > 0
  );
}

export const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '–');

/** A table for plain() (the terminal) and markdown() (docs/benchmarks.md). */
export type Table = { head: string[]; rows: string[][]; right: boolean[] };

function opsTable(figures: LoadFigures): Table {
  const n = figures.notifications;
  return {
    head: ['operation', 'count', 'p50 ms', 'p95 ms', 'max ms', 'errors'],
    right: [false, true, true, true, true, true],
    rows: [
      ...figures.ops.map((op) => [
        op.kind,
        String(op.count),
        ms(op.p50),
        ms(op.p95),
        ms(op.max),
        String(op.errors),
      ]),
      [
        'delivery → realtime',
        String(n.latency.count),
        ms(n.latency.p50),
        ms(n.latency.p95),
        ms(n.latency.max),
        String(n.lost + n.duplicated + n.unexpected),
      ],
      ...(figures.steadyLatency
        ? [
            [
              '… sent after the ramp',
              String(figures.steadyLatency.count),
              ms(figures.steadyLatency.p50),
              ms(figures.steadyLatency.p95),
              ms(figures.steadyLatency.max),
              '–',
            ],
          ]
        : []),
    ],
  };
}

function notificationsTable(figures: LoadFigures): Table {
  const n = figures.notifications;
  return {
    head: [
      'transfers delivered',
      'repeats sent',
      'seen over realtime',
      'lost',
      'duplicated',
      'unexpected',
      'channel drops',
      'DB notifications',
      'DB transactions',
      'users mismatched in DB',
    ],
    right: Array.from({ length: 10 }, () => true),
    rows: [
      [
        n.deliveries,
        n.repeats,
        n.seen,
        n.lost,
        n.duplicated,
        n.unexpected,
        n.channelTrouble,
        n.db.notifications,
        n.db.transactions,
        n.db.usersMismatched,
      ].map(String),
    ],
  };
}

export function plain(table: Table): string {
  const widths = table.head.map((cell, i) =>
    Math.max(cell.length, ...table.rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (table.right[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ');
  return [line(table.head), ...table.rows.map(line)].join('\n');
}

export function markdown(table: Table): string {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    row(table.head),
    row(table.right.map((right) => (right ? '---:' : '---'))),
    ...table.rows.map(row),
  ].join('\n');
}

function summaryLine(figures: LoadFigures): string {
  const cpu =
    figures.stackCpuPercent === null
      ? ''
      : `; the stack process used ${figures.stackCpuPercent.toFixed(0)} % of one core`;
  const users =
    figures.usersCpuPercent == null ? '' : `, the simulated users ${figures.usersCpuPercent.toFixed(0)} %`;
  const machine =
    figures.machineCpuPercent == null
      ? ''
      : ` and the machine as a whole ${figures.machineCpuPercent.toFixed(0)} % (of ${cpuCount() * 100} %)`;
  const ramp =
    figures.rampSeconds === undefined
      ? ''
      : `, a start-up ramp of ${figures.rampSeconds.toFixed(1)} s included`;
  return (
    `${figures.requestsPerSecond.toFixed(1)} requests/s over ${figures.loadSeconds.toFixed(1)} s of load${ramp}` +
    ` (wall time ${figures.wallSeconds.toFixed(1)} s with start-up and checks)${cpu}${users}${machine}`
  );
}

const cpuCount = () => cpus().length;

export function terminalReport(figures: LoadFigures): string {
  return [
    `Load: ${figures.users} users for ${figures.seconds} s — ${machineLine()}`,
    '',
    plain(opsTable(figures)),
    '',
    plain(notificationsTable(figures)),
    '',
    `${summaryLine(figures)}.`,
  ].join('\n');
}

export function docsSection(figures: LoadFigures): string {
  return [
    `## Load: ${figures.users} users for ${figures.seconds} s`,
    '',
    `Machine: ${machineLine(figures.date)}; ${summaryLine(figures)}.`,
    '',
    '`npm run bench:load` (`bench/load.ts`) starts a fresh chain and gateway on 127.0.0.1 and drives ' +
      `${figures.users} simulated users, each with its own supabase-js client, through sign-up, profile ` +
      'upserts, notification and transaction lists 200–500 ms apart and a realtime subscription on its own ' +
      'notifications, while it plays Tatum with signed webhook deliveries (a quarter repeated after the ' +
      'answer, a quarter sent twice at once), each of which must reach its owner over realtime exactly once ' +
      'and be in the database once.' +
      (figures.rampSeconds === undefined
        ? ''
        : ` Users start one after another over ${figures.rampSeconds.toFixed(1)} s (the ramp, where every ` +
          `sign-up happens), then all of them work for ${figures.seconds} s.`),
    '',
    markdown(opsTable(figures)),
    '',
    markdown(notificationsTable(figures)),
  ].join('\n');
}

/** Puts `section` between the load markers of `path`, creating the file or the markers as needed. */
