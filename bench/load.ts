import { cpus } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Database } from '../src/domain/database.types.ts';
import { Metrics, summarize } from './load/metrics.ts';
import { writeDocsSection } from './lib/docs.ts';
import {
  docsSection,
  DOCS_SECTION,
  runFailed,
  terminalReport,
  type LoadFigures,
  type NotificationFigures,
} from './load/report.ts';
import {
  profileReport,
  readMainProfile,
  summarizeProfile,
  type ProfileSummary,
  type ProfileWindow,
} from './load/cpu-profile.ts';
import {
  DEFAULT_RAMP_MS,
  KNEE_DOCS_SECTION,
  kneeDocsSection,
  kneeTerminalReport,
  type UsersRun,
} from './load/knee.ts';
import { abuseReport, goalMet, runRealtimeAbuse } from './load/realtime-abuse.ts';
import { runBotsPhase } from './load/bots.ts';
import {
  BOTS_DOCS_SECTION,
  botsDocsSection,
  botsProblems,
  botsRunFailed,
  botsTerminalReport,
} from './load/bots-report.ts';
import { mineDdexTransfers } from './load/ddex-transfers.ts';
import { startLoadStack, type LoadStack, type StackCpu } from './load/stack.ts';
import { createTatum, randomAddress, tagInMessage } from './load/tatum.ts';
import { SimulatedUser } from './load/user.ts';

// Load on the local stack: N simulated users at once for S seconds, each with
// its own supabase-js client (sign-up, a proven wallet set by the server,
// profile upserts carrying it back, notification and transaction lists, a
// realtime subscription on its own notifications), while
// the script plays Tatum and POSTs signed address-event webhooks for the
// users' wallets, some of them twice on purpose. It reports per operation
// count, p50/p95/max latency and errors, and for notifications how many
// transfers reached their owner over realtime exactly once (lost, duplicated),
// checked against the database with the service role at the end.
//
// Then, on a stack of its own, the bots phase (bench/load/bots.ts): as many
// users create 20 trading bots each, a burst of swaps on the DDEX/WETH pair is
// delivered to market-bots by the Tatum emulator (and partly again by the
// script), and every bot must have fired exactly as the swaps call for, with
// one notification per firing; it reports each delivery's HTTP and evaluation
// time.
//
// With a list of user counts (`--scenario users --users 50,100,150,200`) the
// users run once per count, each on a fresh stack, and a knee table shows
// where the local stack stops meeting the goals (bench/load/knee.ts).
//
// Each stack (chain + gateway) runs in a child process on 127.0.0.1 with free
// ports and a temporary data folder, removed at the end; nothing else is
// contacted. The figures are printed and written into docs/benchmarks.md
// between <!-- load:start --> and <!-- load:end --> (users; the last count of
// a list), <!-- load-knee:start --> and <!-- load-knee:end --> (a list), and
// <!-- load-bots:start --> and <!-- load-bots:end --> (bots).
//
//   npm run bench:load [-- --users 50 --seconds 60 --skip-docs]
//   npm run bench:load -- --scenario users --users 50,100,150,200 [--cpu-prof]
//   npm run bench:load -- --scenario bots [--users 50 --swaps 100]
//   npm run bench:load -- --scenario realtime-abuse [--users 50 --seconds 60]
//
//   --users N     simulated users (default 50); with --scenario users, a list
//                 N,M,… runs each count on a stack of its own
//   --seconds S   how long they work once all have started (default 60)
//   --ramp-ms M   users start M ms apart before that, sign-up first (default 200)
//   --swaps N     swaps in the bots phase's burst (default 100)
//   --cpu-prof    run each stack under Node's --cpu-prof (profiles in
//                 reports/bench/profiles/) and print where its CPU went
//                 (bench/load/cpu-profile.ts)
//   --skip-docs   print only, leave docs/benchmarks.md alone
//   --scenario    `all` (the default: users, then bots), `users`, `bots`, or
//                 `realtime-abuse`: N subscribers and one abusive Realtime socket
//                 (bench/load/realtime-abuse.ts); printed only
//
// Exits 1 when any operation failed, any transfer's notification was lost or
// duplicated, a realtime row reached the wrong user, or the database disagrees;
// in the bots phase, when any firing was lost, doubled, unexpected or wrong;
// under realtime-abuse, when a notification was lost or the p95 goal was missed.

const PROJECT_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DOCS_PATH = join(PROJECT_DIR, 'docs', 'benchmarks.md');
const PASSWORD = 'Testnet-only-pass-1';
const THINK_MS = [200, 500] as const;
const DELIVERY_EVERY = 2;
/**
 * Real DDEX transfers mined for each user before the load (bench/load/ddex-transfers.ts): more
 * than the DDEX deliveries a user makes in 60 s at 50 users; past them, deliveries are ETH.
 */
const DDEX_TRANSFERS_PER_USER = 16;
const PROFILES_DIR = join(PROJECT_DIR, 'reports', 'bench', 'profiles');
const REQUEST_TIMEOUT_MS = 30_000;
const SUBSCRIBE_TIMEOUT_MS = 15_000;
/** How long after the load a delivered transfer's notification may still arrive. */
const SETTLE_MS = 10_000;
/** Extra wait once everything arrived, for late duplicates. */
const DUPLICATE_GRACE_MS = 1_000;
/** The bots phase's bound past its start-up; 50 users and 100 swaps take well under a minute. */
const BOTS_LIMIT_SECONDS = 600;
const SCENARIOS = ['all', 'users', 'bots', 'realtime-abuse'] as const;

function options() {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '50' },
      seconds: { type: 'string', default: '60' },
      swaps: { type: 'string', default: '100' },
      'ramp-ms': { type: 'string', default: String(DEFAULT_RAMP_MS) },
      'cpu-prof': { type: 'boolean', default: false },
      'skip-docs': { type: 'boolean', default: false },
      scenario: { type: 'string', default: 'all' },
    },
  });
  const scenario = SCENARIOS.find((name) => name === values.scenario);
  if (!scenario) throw new Error(`--scenario must be one of ${SCENARIOS.join(', ')}`);
  const userCounts = values.users.split(',').map((count) => Number(count.trim()));
  const seconds = Number(values.seconds);
  const swaps = Number(values.swaps);
  // Bounded so a typo cannot start an unbounded run; sessions last an hour (jwt_expiry).
  if (userCounts.some((count) => !Number.isInteger(count) || count < 1 || count > 500))
    throw new Error('--users must be 1..500, or a list of such counts');
  if (userCounts.length > 1 && scenario !== 'users')
    throw new Error('a list of user counts needs --scenario users');
  if (userCounts.length > 10) throw new Error('--users takes at most 10 counts');
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 1800)
    throw new Error('--seconds must be 1..1800');
  if (!Number.isInteger(swaps) || swaps < 1 || swaps > 1000) throw new Error('--swaps must be 1..1000');
  const rampMsPerUser = Number(values['ramp-ms']);
  if (!Number.isInteger(rampMsPerUser) || rampMsPerUser < 0 || rampMsPerUser > 5000)
    throw new Error('--ramp-ms must be 0..5000');
  return {
    rampMsPerUser,
    users: userCounts[0] ?? 50,
    userCounts,
    seconds,
    swaps,
    scenario,
    cpuProf: values['cpu-prof'],
    writeDocs: !values['skip-docs'],
  };
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

async function waitForNotifications(users: SimulatedUser[]): Promise<void> {
  const pending = () =>
    users.some((user) =>
      [...user.deliveries.values()].some((delivery) => delivery.acknowledged && delivery.seenAt.length === 0),
    );
  const deadline = performance.now() + SETTLE_MS;
  while (pending() && performance.now() < deadline) await sleep(50);
  await sleep(DUPLICATE_GRACE_MS);
}

function serviceClient(stack: LoadStack) {
  return createClient<Database>(stack.description.url, stack.description.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

/** Rows per user with the service role, against the transfers each user was delivered. */
async function checkDatabase(stack: LoadStack, users: SimulatedUser[]) {
  const service = serviceClient(stack);
  let notifications = 0;
  let transactions = 0;
  const mismatches: string[] = [];
  for (const user of users) {
    if (user.id === null) continue;
    const [notes, txs] = await Promise.all([
      service.from('user_notifications').select('message').eq('user_id', user.id),
      service.from('transactions').select('tx_hash').eq('user_id', user.id),
    ]);
    if (notes.error || txs.error) {
      mismatches.push(`${user.email}: query failed: ${notes.error?.message ?? txs.error?.message}`);
      continue;
    }
    notifications += notes.data.length;
    transactions += txs.data.length;
    const delivered = [...user.deliveries.values()].filter((delivery) => delivery.acknowledged);
    const noteTags = notes.data.map((row) => tagInMessage(row.message));
    const hashes = txs.data.map((row) => row.tx_hash.toLowerCase());
    const problems: string[] = [];
    for (const delivery of delivered) {
      const noteCount = noteTags.filter((tag) => tag === delivery.tag).length;
      const txCount = hashes.filter((hash) => hash === delivery.txId.toLowerCase()).length;
      if (noteCount !== 1 || txCount !== 1) {
        problems.push(
          `tx ${delivery.tag} (${delivery.mode}): ${noteCount} notifications, ${txCount} transactions`,
        );
      }
    }
    // Rows for transfers no copy of which was accepted are tolerated (the error is already counted).
    const known = new Set([...user.deliveries.keys()]);
    const strays = noteTags.filter((tag) => tag === null || !known.has(tag)).length;
    if (strays > 0) problems.push(`${strays} notifications about transfers never delivered to this user`);
    if (problems.length > 0) mismatches.push(`${user.email}: ${problems.join('; ')}`);
  }
  await service.removeAllChannels();
  return { notifications, transactions, mismatches };
}

type Options = ReturnType<typeof options>;
type Phase<T> = (stack: LoadStack, stop: () => Promise<StackCpu | null>) => Promise<T>;

/** Runs `phase` on a fresh stack of its own, bounded in time, and stops the stack whatever happens. */
async function onOwnStack<T>(
  label: string,
  limitSeconds: number,
  phase: Phase<T>,
  profile: boolean,
): Promise<T> {
  console.log(`Starting a local chain and gateway for ${label}…`);
  const stack = await startLoadStack(
    profile ? { cpuProfileDir: join(PROFILES_DIR, `${stamp()}-${label.replace(/\W+/g, '-')}`) } : {},
  );
  let stopped = false;
  const stopStack = async () => {
    if (stopped) return null;
    stopped = true;
    return stack.stop();
  };
  // A run that hangs past every bound still ends, and takes its stack with it.
  const watchdog = setTimeout(() => {
    console.error('load: the run exceeded its time limit; stopping');
    void stopStack().finally(() => process.exit(3));
  }, limitSeconds * 1000);
  watchdog.unref();
  const interrupted = () => void stopStack().finally(() => process.exit(130));
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  try {
    const result = await phase(stack, stopStack);
    const serverErrors = stack.log.filter((line) => /error|fail/i.test(line));
    if (serverErrors.length > 0) {
      console.error(`\nThe stack logged ${serverErrors.length} error lines; the first:`);
      console.error(`  ${serverErrors.slice(0, 10).join('\n  ')}`);
    }
    return result;
  } finally {
    clearTimeout(watchdog);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await stopStack();
  }
}

const stamp = () => new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');

/** Now on the monotonic clock in µs: the same in every process here, and the clock of V8's profiles. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** Busy and total CPU time of the whole machine so far, all cores, ms. */
function machineTimes() {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    busy += all - times.idle;
    total += all;
  }
  return { busy, total };
}

/** Reads and prints the stack's CPU profile over `window`, when it ran under --cpu-prof. */
function stackProfile(stack: LoadStack, window: ProfileWindow | undefined): ProfileSummary | null {
  if (stack.cpuProfileDir === null) return null;
  const found = readMainProfile(stack.cpuProfileDir);
  if (!found) {
    console.error(`load: no CPU profile in ${stack.cpuProfileDir}`);
    return null;
  }
  const profile = summarizeProfile(found.profile, { projectDir: PROJECT_DIR, window });
  console.log(`\n${profileReport(profile, relative(PROJECT_DIR, found.path))}`);
  return profile;
}

const cpuPercent = (cpu: StackCpu | null) => (cpu ? ((cpu.userMs + cpu.systemMs) / cpu.wallMs) * 100 : null);

async function usersPhase(
  stack: LoadStack,
  stop: () => Promise<StackCpu | null>,
  userCount: number,
  { seconds, rampMsPerUser }: Options,
  wallStart: number,
): Promise<UsersRun & { failed: boolean }> {
  const users: SimulatedUser[] = [];
  try {
    const metrics = new Metrics();
    const tatum = createTatum({
      gatewayUrl: stack.description.url,
      webhookSecret: stack.description.webhookSecret,
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    const service = serviceClient(stack);
    // The deployer pays the DDEX transfers, so the users' wallets are the funded accounts after it.
    const [payer, ...funded] = stack.description.addresses;
    const wallets = Array.from({ length: userCount }, (_, index) => funded[index] ?? randomAddress());
    const ddexTransfers = await mineDdexTransfers({
      rpcUrl: stack.description.rpcUrl,
      tokenAddress: stack.description.tokenAddress,
      from: payer ?? '',
      wallets,
      perWallet: DDEX_TRANSFERS_PER_USER,
    });
    const rampMs = userCount * rampMsPerUser;
    const loadStart = performance.now();
    const loadFromUs = monotonicUs();
    const machineAtStart = machineTimes();
    const ownCpuAtStart = process.cpuUsage();
    const steadyFrom = loadStart + rampMs;
    const deadline = steadyFrom + seconds * 1000;
    for (let index = 0; index < userCount; index++) {
      users.push(
        new SimulatedUser({
          index,
          stack: stack.description,
          // Each funded account once, then random addresses: a wallet shared by two users
          // would rightly notify both, which this count of one notification per transfer excludes.
          wallet: wallets[index] ?? randomAddress(),
          ddexTransfers: ddexTransfers.get(wallets[index] ?? '') ?? [],
          service,
          password: PASSWORD,
          metrics,
          tatum,
          deadline,
          thinkMs: THINK_MS,
          deliveryEvery: DELIVERY_EVERY,
          requestTimeoutMs: REQUEST_TIMEOUT_MS,
          subscribeTimeoutMs: SUBSCRIBE_TIMEOUT_MS,
        }),
      );
    }
    console.log(
      `Stack ready; ${userCount} users starting over ${(rampMs / 1000).toFixed(1)} s, then ${seconds} s of work…`,
    );
    await Promise.all(
      users.map(async (user, index) => {
        await sleep(index * rampMsPerUser);
        await user.run();
      }),
    );
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const loadToUs = monotonicUs();
    console.log('Load done; waiting for notifications in flight and checking the database…');
    await waitForNotifications(users);
    const db = await checkDatabase(stack, users);
    await Promise.all(users.map((user) => user.close()));
    const machineAtEnd = machineTimes();
    const ownCpu = process.cpuUsage(ownCpuAtStart);
    const cpuWallMs = performance.now() - loadStart;
    const cpu = await stop();
    const profile = stackProfile(stack, { fromUs: loadFromUs, toUs: loadToUs });

    const deliveries = users.flatMap((user) => [...user.deliveries.values()]);
    const delivered = deliveries.filter((delivery) => delivery.acknowledged);
    const unexpected = users.flatMap((user) => user.unexpected);
    const channelTrouble = users.flatMap((user) => user.channelTrouble);
    const ops = metrics.summary();
    const firstSeen = (list: typeof delivered) =>
      list.flatMap((delivery) =>
        delivery.seenAt[0] === undefined ? [] : [delivery.seenAt[0] - delivery.sentAt],
      );
    const notifications: NotificationFigures = {
      deliveries: delivered.length,
      repeats: deliveries.filter((delivery) => delivery.mode !== 'once').length,
      seen: delivered.filter((delivery) => delivery.seenAt.length > 0).length,
      lost: delivered.filter((delivery) => delivery.seenAt.length === 0).length,
      duplicated: delivered.filter((delivery) => delivery.seenAt.length > 1).length,
      unexpected: unexpected.length,
      channelTrouble: channelTrouble.length,
      latency: summarize(firstSeen(delivered)),
      db: {
        notifications: db.notifications,
        transactions: db.transactions,
        usersMismatched: db.mismatches.length,
      },
    };
    const requests = ops.reduce((sum, op) => sum + op.count, 0);
    const machineShare =
      (machineAtEnd.busy - machineAtStart.busy) / Math.max(1, machineAtEnd.total - machineAtStart.total);
    const figures: LoadFigures = {
      users: userCount,
      seconds,
      loadSeconds,
      wallSeconds: (performance.now() - wallStart) / 1000,
      requestsPerSecond: requests / loadSeconds,
      ops,
      notifications,
      stackCpuPercent: cpuPercent(cpu),
      machineCpuPercent: machineShare * cpus().length * 100,
      usersCpuPercent: ((ownCpu.user + ownCpu.system) / 1000 / cpuWallMs) * 100,
      rampSeconds: rampMs / 1000,
      steadyLatency: summarize(firstSeen(delivered.filter((delivery) => delivery.sentAt >= steadyFrom))),
      date: new Date(),
    };

    console.log(`\n${terminalReport(figures)}`);
    const errors = ops.reduce((sum, op) => sum + op.errors, 0);
    const problems = [
      ...metrics.errorReasons().flatMap(([kind, reasons]) => reasons.map((reason) => `${kind}: ${reason}`)),
      ...unexpected.slice(0, 5).map((text) => `realtime: ${text}`),
      ...channelTrouble.slice(0, 5).map((state) => `realtime channel after SUBSCRIBED: ${state}`),
      ...db.mismatches.slice(0, 5).map((text) => `database: ${text}`),
      ...delivered
        .filter((delivery) => delivery.seenAt.length !== 1)
        .slice(0, 5)
        .map((d) => `realtime: tx ${d.tag} (${d.mode}) seen ${d.seenAt.length} times`),
    ];
    if (problems.length > 0) console.error(`\nFirst problems seen:\n  ${problems.join('\n  ')}`);
    return { figures, profile, failed: runFailed(errors, notifications, db.mismatches.length) };
  } finally {
    await Promise.all(users.map((user) => user.close()));
  }
}

async function botsPhase(
  stack: LoadStack,
  stop: () => Promise<StackCpu | null>,
  { users, swaps, writeDocs }: Options,
  wallStart: number,
): Promise<number> {
  const partial = await runBotsPhase(
    stack,
    { users, swaps, password: PASSWORD, requestTimeoutMs: REQUEST_TIMEOUT_MS },
    wallStart,
  );
  const cpu = await stop();
  const figures = { ...partial, stackCpuPercent: cpuPercent(cpu) };
  console.log(`\n${botsTerminalReport(figures)}`);
  stackProfile(stack, cpu ?? undefined);
  const problems = botsProblems(figures);
  if (problems.length > 0) console.error(`\nFirst problems seen:\n  ${problems.slice(0, 15).join('\n  ')}`);
  if (writeDocs) {
    await writeDocsSection(DOCS_PATH, BOTS_DOCS_SECTION, botsDocsSection(figures));
    console.log(`\nWrote the figures to ${DOCS_PATH}.`);
  }
  return botsRunFailed(figures) ? 1 : 0;
}

/** The users scenario once per count, each on a stack of its own; with several, the knee. */
async function usersScenario(settings: Options): Promise<number> {
  const { userCounts, seconds, rampMsPerUser, cpuProf, writeDocs } = settings;
  const runs: (UsersRun & { failed: boolean })[] = [];
  for (const count of userCounts) {
    const wallStart = performance.now();
    const limitSeconds = seconds + (count * rampMsPerUser) / 1000 + 300;
    runs.push(
      await onOwnStack(
        `${count} users × ${seconds} s`,
        limitSeconds,
        (stack, stop) => usersPhase(stack, stop, count, settings, wallStart),
        cpuProf,
      ),
    );
  }
  const last = runs[runs.length - 1];
  if (userCounts.length > 1) console.log(`\n${kneeTerminalReport(runs)}`);
  if (writeDocs && last) {
    await writeDocsSection(DOCS_PATH, DOCS_SECTION, docsSection(last.figures));
    if (userCounts.length > 1) {
      const section = kneeDocsSection({
        runs,
        seconds,
        rampMsPerUser,
        date: last.figures.date,
      });
      await writeDocsSection(DOCS_PATH, KNEE_DOCS_SECTION, section);
    }
    console.log(`\nWrote the figures to ${DOCS_PATH}.`);
  }
  return runs.some((run) => run.failed) ? 1 : 0;
}

async function main(): Promise<number> {
  const settings = options();
  const { users, seconds, scenario, cpuProf } = settings;
  if (scenario === 'realtime-abuse') {
    return onOwnStack(
      `${users} subscribers × ${seconds} s (realtime-abuse)`,
      seconds + 300,
      async (stack, stop) => {
        const figures = await runRealtimeAbuse(stack.description, { users, seconds, password: PASSWORD });
        const cpu = await stop();
        console.log(`\n${abuseReport(figures)}`);
        stackProfile(stack, cpu ?? undefined);
        return goalMet(figures) ? 0 : 1;
      },
      cpuProf,
    );
  }
  let code = 0;
  if (scenario === 'all' || scenario === 'users') code = Math.max(code, await usersScenario(settings));
  if (scenario === 'all' || scenario === 'bots') {
    const wallStart = performance.now();
    code = Math.max(
      code,
      await onOwnStack(
        `${users} users' bots and ${settings.swaps} swaps`,
        BOTS_LIMIT_SECONDS,
        (stack, stop) => botsPhase(stack, stop, settings, wallStart),
        cpuProf,
      ),
    );
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('load: failed:', error);
    process.exit(2);
  },
);
