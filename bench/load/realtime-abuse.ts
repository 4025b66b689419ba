import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';
import { machineLine } from '../lib/docs.ts';
import { Abuser, type AbuseAttempt, type AbuserFigures } from './abuser.ts';
import { summarize, type LatencySummary } from './metrics.ts';
import type { StackDescription } from './stack.ts';

// `npm run bench:load -- --scenario realtime-abuse`: does one abusive socket
// delay everyone else's notifications? N ordinary users subscribe to their own
// notifications with supabase-js, as the portal does, and the service role
// inserts a notification for one of them every 100 ms (open loop: a slow
// server makes them wait, not come less often), and a 16 kB one for one more
// user every 250 ms, for S seconds in two halves. In the first nobody
// misbehaves: the same machine's figure without abuse. At the start of the
// second that one more user opens a single socket that asks for 200 channels
// of 5 bindings each, all matching every notification, and then reads nothing,
// so its own notifications pile up on every one of its channels. Reported: how far the server let the abuser
// go, how its socket ended, and the ordinary users' insert → realtime latency
// in each half against the portal's goal, a notification within 300 ms at p95.

export const GOAL_P95_MS = 300;
const ATTEMPT: AbuseAttempt = { channels: 200, bindingsPerChannel: 5 };
const ORDINARY_EVERY_MS = 100;
const ABUSER_EVERY_MS = 250;
const ABUSER_MESSAGE = 'x'.repeat(16 * 1024);
const SUBSCRIBE_TIMEOUT_MS = 15_000;
const SETTLE_MS = 10_000;
const SIGN_UPS_AT_ONCE = 10;

export type PhaseFigures = {
  inserts: number;
  insertErrors: number;
  delivered: number;
  lost: number;
  latency: LatencySummary;
};

export type AbuseFigures = {
  users: number;
  seconds: number;
  abuser: AbuserFigures;
  abuserInserts: number;
  abuserInsertErrors: number;
  quiet: PhaseFigures;
  abused: PhaseFigures;
  date: Date;
};

type Client = SupabaseClient<Database>;

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, Math.max(0, ms)));

function newClient(stack: StackDescription, key: string): Client {
  return createClient<Database>(stack.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

async function signUp(stack: StackDescription, label: string, password: string) {
  const client = newClient(stack, stack.anonKey);
  const email = `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const { data, error } = await client.auth.signUp({ email, password });
  if (error || !data.user || !data.session)
    throw new Error(`sign-up failed: ${error?.message ?? 'no session'}`);
  return { client, id: data.user.id, accessToken: data.session.access_token };
}

/** Subscribes to the user's own notification inserts; `seen` gets each title's arrival time. */
function subscribe(client: Client, userId: string, seen: Map<string, number>): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no SUBSCRIBED in time')), SUBSCRIBE_TIMEOUT_MS);
    client
      .channel(`abuse-bench-${userId}`)
      .on<Database['public']['Tables']['user_notifications']['Row']>(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${userId}` },
        (payload) => {
          if (!seen.has(payload.new.title)) seen.set(payload.new.title, performance.now());
        },
      )
      .subscribe((status, error) => {
        if (status === 'SUBSCRIBED') {
          clearTimeout(timer);
          resolve();
        } else if (status !== 'CLOSED') {
          clearTimeout(timer);
          reject(new Error(`${status} ${error?.message ?? ''}`));
        }
      });
  });
}

type Subscriber = { client: Client; id: string };

/**
 * Inserts a notification for the next subscriber every ORDINARY_EVERY_MS for `seconds`, and a large
 * one for the abuser every ABUSER_EVERY_MS; answers each subscriber insert's send time.
 */
async function drive(
  service: Client,
  users: Subscriber[],
  seconds: number,
  label: string,
  abuser: { id: string; inserts: number; errors: number },
) {
  const sentAt = new Map<string, number>();
  let insertErrors = 0;
  const pending: Promise<void>[] = [];
  const insert = (userId: string, title: string, message: string, onError: () => void) =>
    pending.push(
      Promise.resolve(service.from('user_notifications').insert({ user_id: userId, title, message })).then(
        ({ error }) => {
          if (error) onError();
        },
        onError,
      ),
    );
  const start = performance.now();
  const end = start + seconds * 1000;
  let next = 0;
  let nextAbuse = 0;
  for (let k = 0; performance.now() < end;) {
    const now = performance.now() - start;
    if (now >= next) {
      const user = users[k % users.length];
      const title = `abuse-bench-${label}-${k++}`;
      if (user) {
        sentAt.set(title, performance.now());
        insert(user.id, title, 'Latency probe', () => {
          insertErrors++;
          sentAt.delete(title);
        });
      }
      next += ORDINARY_EVERY_MS;
    }
    if (now >= nextAbuse) {
      abuser.inserts++;
      insert(abuser.id, `abuse-bench-flood-${abuser.inserts}`, ABUSER_MESSAGE, () => abuser.errors++);
      nextAbuse += ABUSER_EVERY_MS;
    }
    await sleep(Math.min(next, nextAbuse) - (performance.now() - start));
  }
  await Promise.all(pending);
  return { sentAt, insertErrors };
}

function phaseFigures(
  run: { sentAt: Map<string, number>; insertErrors: number },
  seen: Map<string, number>,
): PhaseFigures {
  const latencies = [...run.sentAt].flatMap(([title, at]) => {
    const arrived = seen.get(title);
    return arrived === undefined ? [] : [arrived - at];
  });
  return {
    inserts: run.sentAt.size + run.insertErrors,
    insertErrors: run.insertErrors,
    delivered: latencies.length,
    lost: run.sentAt.size - latencies.length,
    latency: summarize(latencies),
  };
}

export async function runRealtimeAbuse(
  stack: StackDescription,
  options: { users: number; seconds: number; password: string },
): Promise<AbuseFigures> {
  const service = newClient(stack, stack.serviceRoleKey);
  const seen = new Map<string, number>();
  const users: Subscriber[] = [];
  for (let start = 0; start < options.users; start += SIGN_UPS_AT_ONCE) {
    const batch = Array.from({ length: Math.min(SIGN_UPS_AT_ONCE, options.users - start) }, (_, i) =>
      signUp(stack, `abuse-bench-${start + i}`, options.password),
    );
    users.push(...(await Promise.all(batch)));
  }
  await Promise.all(users.map((user) => subscribe(user.client, user.id, seen)));
  const abusive = await signUp(stack, 'abuse-bench-abuser', options.password);
  const half = options.seconds / 2;

  // The abuser's rows are inserted in both halves: only its socket makes the difference.
  const flood = { id: abusive.id, inserts: 0, errors: 0 };
  console.log(`${users.length} subscribers ready; ${half} s without abuse…`);
  const quiet = await drive(service, users, half, 'quiet', flood);

  const abuser = await Abuser.connect(stack);
  await abuser.flood(abusive.accessToken, ATTEMPT);
  console.log(`The abusive socket joined what it could and stopped reading; ${half} s with it…`);
  const abused = await drive(service, users, half, 'abused', flood);

  const settleBy = performance.now() + SETTLE_MS;
  const outstanding = () =>
    [quiet, abused].some((run) => [...run.sentAt.keys()].some((title) => !seen.has(title)));
  while (outstanding() && performance.now() < settleBy) await sleep(50);

  const abuserFigures = await abuser.finish(ATTEMPT);
  await Promise.all(users.map((user) => user.client.removeAllChannels()));
  await abusive.client.removeAllChannels();
  await service.removeAllChannels();
  return {
    users: users.length,
    seconds: options.seconds,
    abuser: abuserFigures,
    abuserInserts: flood.inserts,
    abuserInsertErrors: flood.errors,
    quiet: phaseFigures(quiet, seen),
    abused: phaseFigures(abused, seen),
    date: new Date(),
  };
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : '–');

export function goalMet(figures: AbuseFigures): boolean {
  return figures.abused.lost === 0 && figures.abused.latency.p95 <= GOAL_P95_MS;
}

function phaseLine(name: string, phase: PhaseFigures): string {
  const l = phase.latency;
  return (
    `${name}: ${phase.inserts} inserts (${phase.insertErrors} failed), ${phase.delivered} delivered, ` +
    `${phase.lost} lost; insert → realtime p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, max ${ms(l.max)}.`
  );
}

export function abuseReport(figures: AbuseFigures): string {
  const a = figures.abuser;
  const refused = [...a.refused].map(([reason, count]) => `${count} × "${reason}"`).join(', ') || 'none';
  const closed = a.closedWith
    ? `closed by the server: ${a.closedWith.code} "${a.closedWith.reason}"`
    : 'still open at the end (never dropped)';
  return [
    `Realtime abuse: ${figures.users} subscribers for ${figures.seconds} s, one abusive socket in the second half — ${machineLine(figures.date)}`,
    '',
    `Abusive socket: ${a.channels} joins of ${a.bindingsPerChannel} bindings sent at once; ${a.accepted} accepted, refused: ${refused}` +
      (a.unanswered > 0 ? `, ${a.unanswered} unanswered` : '') +
      `; ${figures.abuserInserts} rows of 16 kB for its user over the run (${figures.abuserInsertErrors} failed); ` +
      `it read ${a.changesRead} changes afterwards; ${closed}.`,
    phaseLine('Without the abuser', figures.quiet),
    phaseLine('With the abuser', figures.abused),
    `Goal, with the abuser: p95 ≤ ${GOAL_P95_MS} ms and nothing lost: ${goalMet(figures) ? 'met' : 'NOT met'}.`,
  ].join('\n');
}
