import { machineLine } from '../lib/docs.ts';
import { busyPercent, inWebAssembly, PGLITE, PROFILE_TOP, type ProfileSummary } from './cpu-profile.ts';
import { markdown, ms, plain, type LoadFigures, type Table } from './report.ts';

// `npm run bench:load -- --scenario users --users 50,100,150,200`: the users
// scenario once per count, each on a fresh stack, side by side against the
// goals for 200 users (no error, nothing lost or doubled, sign-up p95 ≤ 500 ms,
// delivery → realtime p95 ≤ 300 ms), and the knee: the highest count at which
// every goal held. With --cpu-prof, each count's stack profile shows what the
// stack's one event loop spent its time on. Written to docs/benchmarks.md
// between <!-- load-knee:start --> and <!-- load-knee:end -->.

export const KNEE_DOCS_SECTION = 'load-knee';
export const SIGN_UP_P95_GOAL_MS = 500;
export const REALTIME_P95_GOAL_MS = 300;
/**
 * How far apart users start by default (`--ramp-ms`), so sign-ups come at a steady rate whatever
 * the count rather than all at once: one sign-up costs the stack's single thread about 100 ms (a
 * cost-10 bcrypt hash in JavaScript is half of it), so 200 ms apart leaves it half its time for
 * the users already at work.
 */
export const DEFAULT_RAMP_MS = 200;
/** Other CPU (% of one core) from which the docs call the machine busy. */
const BUSY_MACHINE_PERCENT = 50;

export type UsersRun = {
  figures: LoadFigures;
  /** The stack's main thread over the load, when run with --cpu-prof. */
  profile: ProfileSummary | null;
};

export type KneeRow = {
  users: number;
  requestsPerSecond: number;
  signUpP95: number;
  realtimeP95: number;
  /** Delivery → realtime of the transfers sent after the start-up ramp. */
  realtimeSteadyP95: number;
  lost: number;
  doubled: number;
  /** Every failed operation a user would notice, subscriptions included. */
  errors: number;
  subscribeFailures: number;
  stackCpuPercent: number | null;
  usersCpuPercent: number | null;
  /** The machine's CPU beside the stack process and the users: the Deno functions and any other work. */
  otherCpuPercent: number | null;
  /** The goals this count missed, in words; empty when every goal held. */
  misses: string[];
};

const seconds = (value: number) =>
  Number.isFinite(value) ? `${(value / 1000).toFixed(1)} s` : 'not measured';

export function kneeRow({ figures }: UsersRun): KneeRow {
  const op = (kind: string) => figures.ops.find((entry) => entry.kind === kind);
  const n = figures.notifications;
  const errors = figures.ops.reduce((sum, entry) => sum + entry.errors, 0);
  const signUpP95 = op('sign up')?.p95 ?? Number.NaN;
  const realtimeP95 = n.latency.p95;
  const subscribeFailures = op('realtime subscribe')?.errors ?? 0;
  const misses = [
    errors > 0
      ? `${errors} failed operations${subscribeFailures > 0 ? ` (${subscribeFailures} subscribes)` : ''}`
      : null,
    n.lost > 0 ? `${n.lost} notifications lost` : null,
    n.duplicated > 0 ? `${n.duplicated} notifications doubled` : null,
    n.unexpected > 0 ? `${n.unexpected} realtime rows to the wrong user` : null,
    n.db.usersMismatched > 0 ? `${n.db.usersMismatched} users whose rows the database disagrees about` : null,
    // NaN (nothing measured) misses too: a goal no sample shows is not met.
    !(signUpP95 <= SIGN_UP_P95_GOAL_MS)
      ? `sign-up p95 ${seconds(signUpP95)} (goal ${SIGN_UP_P95_GOAL_MS} ms)`
      : null,
    !(realtimeP95 <= REALTIME_P95_GOAL_MS)
      ? `delivery → realtime p95 ${seconds(realtimeP95)} (goal ${REALTIME_P95_GOAL_MS} ms)`
      : null,
  ].filter((miss): miss is string => miss !== null);
  return {
    users: figures.users,
    requestsPerSecond: figures.requestsPerSecond,
    signUpP95,
    realtimeP95,
    realtimeSteadyP95: figures.steadyLatency?.p95 ?? Number.NaN,
    lost: n.lost,
    doubled: n.duplicated,
    errors,
    subscribeFailures,
    stackCpuPercent: figures.stackCpuPercent,
    usersCpuPercent: figures.usersCpuPercent ?? null,
    otherCpuPercent:
      figures.machineCpuPercent == null || figures.stackCpuPercent === null || figures.usersCpuPercent == null
        ? null
        : Math.max(0, figures.machineCpuPercent - figures.stackCpuPercent - figures.usersCpuPercent),
    misses,
  };
}

/** The highest user count at which every goal held, or null when none did. */
export function knee(rows: readonly KneeRow[]): number | null {
  const held = rows.filter((row) => row.misses.length === 0).map((row) => row.users);
  return held.length === 0 ? null : Math.max(...held);
}

const percent = (value: number | null) => (value === null ? '–' : value.toFixed(0));

export function kneeTable(rows: readonly KneeRow[]): Table {
  return {
    head: [
      'users',
      'requests/s',
      'sign-up p95 ms',
      'delivery → realtime p95 ms',
      'the same after the ramp',
      'lost',
      'doubled',
      'errors',
      'subscribes failed',
      'stack CPU, % of one core',
      'users’ CPU',
      'other CPU',
      'every goal',
    ],
    right: [...Array.from({ length: 12 }, () => true), false],
    rows: rows.map((row) => [
      String(row.users),
      row.requestsPerSecond.toFixed(1),
      ms(row.signUpP95),
      ms(row.realtimeP95),
      ms(row.realtimeSteadyP95),
      String(row.lost),
      String(row.doubled),
      String(row.errors),
      String(row.subscribeFailures),
      percent(row.stackCpuPercent),
      percent(row.usersCpuPercent),
      percent(row.otherCpuPercent),
      row.misses.length === 0 ? 'met' : 'not met',
    ]),
  };
}

/** One sentence naming the knee, with what broke past it. */
export function kneeVerdict(rows: readonly KneeRow[]): string {
  const at = knee(rows);
  const missed = rows
    .filter((row) => row.misses.length > 0)
    .map((row) => `${row.users} users: ${row.misses.join(', ')}`);
  const head =
    at === null
      ? `No count met every goal, so the knee is below ${Math.min(...rows.map((row) => row.users))} users.`
      : `The knee: ${at} users, the highest count at which every goal held.`;
  return missed.length === 0 ? head : `${head} Missed — ${missed.join('; ')}.`;
}

const share = (value: number) => `${(value * 100).toFixed(1)} %`;

/** The top areas of the largest count's profile, each count's share of not-idle time beside it. */
export function profilesTable(runs: readonly UsersRun[], top = PROFILE_TOP): Table | null {
  const profiled = runs.filter((run): run is UsersRun & { profile: ProfileSummary } => run.profile !== null);
  const largest = profiled[profiled.length - 1];
  if (!largest) return null;
  const areas = largest.profile.areas.slice(0, top).map((area) => area.area);
  const cell = (profile: ProfileSummary, area: string) => {
    const found = profile.areas.find((entry) => entry.area === area);
    return found ? share(found.shareOfBusy) : '–';
  };
  return {
    head: ['area: share of the not-idle time', ...profiled.map((run) => `${run.figures.users} users`)],
    right: [false, ...profiled.map(() => true)],
    rows: [
      [
        'main thread not idle, % of the load’s wall time',
        ...profiled.map((run) => `${busyPercent(run.profile).toFixed(0)} %`),
      ],
      ...areas.map((area) => [area, ...profiled.map((run) => cell(run.profile, area))]),
    ],
  };
}

export function kneeTerminalReport(runs: readonly UsersRun[]): string {
  const rows = runs.map(kneeRow);
  const profiles = profilesTable(runs);
  return [
    'Where the local stack stops:',
    '',
    plain(kneeTable(rows)),
    '',
    kneeVerdict(rows),
    ...(profiles ? ['', plain(profiles)] : []),
  ].join('\n');
}

export type KneeDocs = { runs: readonly UsersRun[]; seconds: number; rampMsPerUser: number; date: Date };

export function kneeDocsSection({ runs, seconds: loadSeconds, rampMsPerUser, date }: KneeDocs): string {
  const rows = runs.map(kneeRow);
  const profiles = profilesTable(runs);
  const last = runs[runs.length - 1];
  const top = last?.figures.users ?? 0;
  const command =
    `npm run bench:load -- --scenario users --users ${rows.map((row) => row.users).join(',')} ` +
    `--seconds ${loadSeconds}${rampMsPerUser === DEFAULT_RAMP_MS ? '' : ` --ramp-ms ${rampMsPerUser}`}` +
    (profiles ? ' --cpu-prof' : '');
  return [
    '## Where the local stack stops',
    '',
    `Machine: ${machineLine(date)}.`,
    '',
    `\`${command}\` runs the users scenario above once per count, each on a fresh stack: users start one ` +
      `every ${rampMsPerUser} ms (a ramp of ${seconds(rampMsPerUser * top)} at ${top} users, in which every ` +
      `sign-up happens), then all of them work for ${loadSeconds} s. The goals, set for 200 users: no error, ` +
      `no notification lost or doubled, sign-up p95 ≤ ${SIGN_UP_P95_GOAL_MS} ms, delivery → realtime p95 ≤ ` +
      `${REALTIME_P95_GOAL_MS} ms. “After the ramp” counts only the transfers sent once every user had ` +
      'started; “subscribes failed” are realtime subscriptions not confirmed within 15 s. CPU is in % of one ' +
      'core (both cores: 200 %): the stack process (chain and gateway on one Node event loop, plus V8’s and ' +
      'libuv’s helper threads, which is how it can pass 100 %), the users (this script: their supabase-js ' +
      'clients and the Tatum it plays), and the other CPU of the machine, the Deno functions included.',
    '',
    markdown(kneeTable(rows)),
    '',
    kneeVerdict(rows),
    '',
    [machineSentence(rows), capacitySentence(runs)].filter((text) => text !== null).join(' '),
    ...(profiles && last?.profile
      ? ['', profileParagraph(last.figures.users, last.profile), '', markdown(profiles)]
      : []),
    '',
    'Everything the stack does for a request happens on that one event loop: lite’s HTTP routing, JWT checks, ' +
      'PostgREST-to-SQL translation and auth with bcryptjs (a cost-10 hash in JavaScript per sign-up), ' +
      'PGlite’s Postgres compiled to WebAssembly on its single connection, the realtime feed with its ' +
      'per-subscriber visibility checks, and the Tatum emulator. It cannot use the second core, so past the ' +
      'knee every request waits behind the others: sign-ups and notifications queue with every list and ' +
      'upsert. The path past one machine is a hosted Supabase project, which the portal uses in production ' +
      '([deploy.md](deploy.md)): PostgreSQL behind its pooler (Supavisor), GoTrue for auth and the Realtime ' +
      'cluster, each a service of its own that scales apart from the others.',
    '',
    postgresParagraph(last),
  ].join('\n');
}

/** How busy the machine was beside the stack and the users, count by count. */
function machineSentence(rows: readonly KneeRow[]): string {
  const measured = rows.filter(
    (row): row is KneeRow & { otherCpuPercent: number } => row.otherCpuPercent !== null,
  );
  if (measured.length === 0) return 'The machine’s other CPU use was not measured.';
  const busy = measured.filter((row) => row.otherCpuPercent >= BUSY_MACHINE_PERCENT);
  const quiet = measured.filter((row) => row.otherCpuPercent < BUSY_MACHINE_PERCENT);
  const describe = (list: readonly (KneeRow & { otherCpuPercent: number })[]) => {
    const counts = listed(list.map((row) => String(row.users)));
    const shares = listed(list.map((row) => `${row.otherCpuPercent.toFixed(0)} %`));
    return `${counts} users (${shares} of one core)`;
  };
  if (busy.length === 0)
    return `Beside the stack process and the users, the Deno functions and any other work took little: ${describe(quiet)}.`;
  return (
    `The machine was busy with other work during the runs at ${describe(busy)}: the stack competed for the ` +
    'cores as well as for its own event loop' +
    (quiet.length === 0 ? '.' : `. At ${describe(quiet)}, the rest of the machine was nearly idle.`)
  );
}

/** Whether the demand of the largest count outgrows what the stack served at its busiest. */
function capacitySentence(runs: readonly UsersRun[]): string | null {
  const rows = runs.map(kneeRow);
  const first = rows[0];
  const last = rows[rows.length - 1];
  const busiest = [...runs].sort((a, b) => b.figures.requestsPerSecond - a.figures.requestsPerSecond)[0];
  if (!first || !last || !busiest || last === first) return null;
  const perUser = first.requestsPerSecond / first.users;
  const demand = perUser * last.users;
  const served = busiest.figures.requestsPerSecond;
  if (demand <= served) return null;
  const notIdle = busiest.profile
    ? `, with the stack’s main thread not idle ${busyPercent(busiest.profile).toFixed(0)} % of the time`
    : '';
  return (
    `The most the stack served was ${served.toFixed(0)} requests/s, at ${busiest.figures.users} users${notIdle}. ` +
    `At ${first.users} users each user made ${perUser.toFixed(1)} requests/s (the ramp included, so a lower ` +
    `bound): ${last.users} users ask for at least ${demand.toFixed(0)} requests/s, ` +
    `${(demand / served).toFixed(1)} times what one event loop served here, however quiet the machine.`
  );
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function profileParagraph(users: number, profile: ProfileSummary): string {
  return (
    'Each stack process ran under Node’s `--cpu-prof` (profiles in `reports/bench/profiles/`, not kept in ' +
    'git). Below, its main thread’s self time over the load (start-up and shutdown left out), grouped by ' +
    'package or folder of ours, as a share of the time the thread was not idle. WebAssembly counts for the ' +
    'package that calls it: “PGlite (WebAssembly)” is Postgres itself, “PGlite” the JavaScript around it ' +
    '(much of it decoding the wire protocol and result rows into objects). “Not idle” includes waiting for a core the machine gave to ' +
    `other work. At ${users} users the main thread was not idle ${busyPercent(profile).toFixed(0)} % of the ` +
    `time; ${describeTop(profile)}.`
  );
}

function postgresParagraph(last: UsersRun | undefined): string {
  const shareOf = (area: string) => last?.profile?.areas.find((entry) => entry.area === area)?.shareOfBusy;
  const wasm = shareOf(inWebAssembly(PGLITE));
  const js = shareOf(PGLITE);
  const figures =
    last && wasm !== undefined && js !== undefined
      ? ` At ${last.figures.users} users Postgres’s own work was the ${share(wasm)} of PGlite’s WebAssembly; ` +
        `PGlite’s JavaScript (${share(js)}) would become postgres.js doing similar decoding, still on the ` +
        'event loop.'
      : '';
  return (
    '`npm run stack -- --db postgres` is not offered yet. lite has a PostgreSQL connection ' +
    '(`@supabase/lite/postgres`, on postgres.js, which is not installed here), but the gateway holds one ' +
    'PGlite connection, and its realtime feed and visibility checks (`stack/gateway/realtime/`), storage ' +
    'metadata (`stack/gateway/storage.ts`) and Tatum emulator store (`stack/gateway/tatum/store.ts`) call ' +
    'PGlite directly. They need a database interface of their own first, and the feed’s drain a fix: it ' +
    'deletes every change up to the last id it read, so with a pool a lower id committed later would go ' +
    'unread. ' +
    'What it would change: Postgres’s own work would move to server processes on the other core, with ' +
    'transactions side by side instead of one at a time; lite’s routing, SQL building, JWT checks and ' +
    `bcrypt would stay on the event loop.${figures}`
  );
}

/** "the largest shares were bcryptjs 41 %, PGlite 20 % and …", the three largest areas. */
function describeTop(profile: ProfileSummary): string {
  const top = profile.areas.slice(0, 3).map((area) => `${area.area} ${share(area.shareOfBusy)}`);
  if (top.length === 0) return 'nothing was sampled';
  if (top.length === 1) return `all of it went to ${top[0]}`;
  return `the largest shares were ${top.slice(0, -1).join(', ')} and ${top[top.length - 1]}`;
}
