import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { formatUnits } from 'viem';
import WebSocket from 'ws';
import type { Database } from '../../src/domain/database.types.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { connectMarket, marketOf, type Leg, type MinedSwap } from './bots-chain.ts';
import { readBots, readNotifications, readRuns } from './bots-db.ts';
import { judge, PRICE_SCALE, type BotKind } from './bots-oracle.ts';
import { botsOf, nextSwap, seeded, targetPrice } from './bots-plan.ts';
import { deliveryRow, type BotsFigures, type DeliverySample, type OpRow } from './bots-report.ts';
import type { BookedDelivery, TappedDelivery } from './market-tap.ts';
import { summarize } from './metrics.ts';
import type { LoadStack } from './stack.ts';

// The bots phase of `npm run bench:load`: users sign up and create their bots through their own
// clients; a few accounts then trade a burst of swaps on the stack's DDEX/WETH pair, which the
// Tatum emulator delivers to market-bots as it would in production, while the bench delivers
// some of them again itself. Once every delivery is answered, what the server recorded is judged
// against the oracle (bots-oracle.ts), and every delivery's time is reported (bots-report.ts).

export type BotsOptions = { users: number; swaps: number; password: string; requestTimeoutMs: number };

/** The generator's seed, so runs trade alike (bots-plan.ts). */
const SEED = 20;
/** Every REPEAT_EVERY-th swap is delivered again by the bench; every other one of those twice at once. */
const REPEAT_EVERY = 4;
const POLL_MS = 100;
/** How long the emulator may take to deliver everything, from the burst's start and from its end. */
const SETTLE_TIMEOUT_MS = 120_000;

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Promise.withResolvers, which Node 20 lacks. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Timings and failures per operation, with the first few reasons. */
class Ops {
  private readonly rows = new Map<string, { ms: number[]; errors: number; reasons: string[] }>();

  async time<T>(kind: string, op: () => Promise<T>, problemOf: (result: T) => string | null = () => null) {
    const row = this.rows.get(kind) ?? { ms: [], errors: 0, reasons: [] };
    this.rows.set(kind, row);
    const started = performance.now();
    let problem: string | null;
    let result: T | undefined;
    try {
      result = await op();
      problem = problemOf(result);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    row.ms.push(performance.now() - started);
    if (problem === null) return result;
    row.errors += 1;
    if (row.reasons.length < 3) row.reasons.push(problem);
    return undefined;
  }

  summary(): OpRow[] {
    return [...this.rows].map(([kind, row]) => ({
      kind,
      ...summarize(row.ms),
      errors: row.errors,
      reasons: row.reasons,
    }));
  }
}

function clientOf(url: string, key: string, timeoutMs: number): SupabaseClient<Database> {
  return createClient<Database>(url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
    global: { fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }) },
  });
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

const toEth = (price: bigint) => Number(formatUnits(price, PRICE_SCALE));

export async function runBotsPhase(
  stack: LoadStack,
  options: BotsOptions,
  wallStart: number,
): Promise<Omit<BotsFigures, 'stackCpuPercent'>> {
  const { description } = stack;
  const market = marketOf(description);
  const chain = connectMarket(market, description.tokenAddress);
  const service = clientOf(description.url, description.serviceRoleKey, options.requestTimeoutMs);
  const ops = new Ops();
  const tapped = () => getJson<TappedDelivery[]>(`${market.tapUrl}/deliveries`);

  // Users and their bots, all armed before the first swap.
  const botsStart = performance.now();
  const startPrice = await chain.price();
  const kinds: Record<BotKind, number> = { price_above: 0, price_below: 0, price_move: 0, large_swap: 0 };
  const userIds: string[] = [];
  await Promise.all(
    Array.from({ length: options.users }, async (_, index) => {
      const client = clientOf(description.url, description.anonKey, options.requestTimeoutMs);
      const email = `bots-${index}-${Math.random().toString(36).slice(2, 10)}@example.com`;
      const signedUp = await ops.time(
        'sign up',
        () => client.auth.signUp({ email, password: options.password }),
        ({ data, error }) => (error ? error.message : data.session ? null : 'signed up without a session'),
      );
      const id = signedUp?.data.user?.id;
      if (!id) return;
      userIds.push(id);
      for (const bot of botsOf(index, options.users, toEth(startPrice))) {
        const created = await ops.time(
          'create bot',
          async () => client.from('bots').insert(bot).select('id').single(),
          ({ error, status }) => (error ? `HTTP ${status}: ${error.message}` : null),
        );
        if (created) kinds[bot.kind] += 1;
      }
    }),
  );
  const botsSeconds = (performance.now() - botsStart) / 1000;
  await chain.approveAll();

  // The burst: every trader at once, each swap towards the planned price path.
  const random = seeded(SEED);
  const swaps: (MinedSwap | undefined)[] = Array.from({ length: options.swaps });
  const minedOnes = Array.from({ length: options.swaps }, () => deferred<MinedSwap | null>());
  let next = 0;
  let latest = { block: 0, price: startPrice };
  let [low, high] = [startPrice, startPrice];
  let buys = 0;
  const burstStart = performance.now();
  const burst = Promise.all(
    Array.from({ length: chain.traders }, async (_, trader) => {
      while (next < options.swaps) {
        const n = next++;
        const step = nextSwap(random, toEth(latest.price), targetPrice(toEth(startPrice), n, options.swaps));
        const done = await ops.time('swap (sent → mined)', () =>
          chain.swap(trader, step.side, step.eth, latest.price),
        );
        swaps[n] = done;
        minedOnes[n]?.resolve(done ?? null);
        if (!done) continue;
        if (step.side === 'buy') buys += 1;
        for (const fact of done.facts) {
          if (fact.after < low) low = fact.after;
          if (fact.after > high) high = fact.after;
          if (fact.blockNumber > latest.block) latest = { block: fact.blockNumber, price: fact.after };
        }
      }
    }),
  ).then(() => (performance.now() - burstStart) / 1000);

  // The bench's own deliveries: each chosen swap once the emulator has delivered it, so they are
  // repeats, sent while the emulator delivers later swaps.
  const signedPost = async (leg: Leg): Promise<DeliverySample> => {
    const started = performance.now();
    try {
      const response = await fetch(`${description.url}/functions/v1/market-bots`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-payload-hash': await signPayload(description.webhookSecret, leg.body),
        },
        body: leg.body,
        signal: AbortSignal.timeout(options.requestTimeoutMs),
      });
      const answer = (await response.json().catch(() => ({}))) as { fired?: unknown };
      return {
        ok: response.ok,
        ms: performance.now() - started,
        serverTiming: response.headers.get('server-timing'),
        fired: typeof answer.fired === 'number' ? answer.fired : null,
      };
    } catch {
      return { ok: false, ms: performance.now() - started, serverTiming: null, fired: null };
    }
  };
  const repeatsGiveUpAt = performance.now() + SETTLE_TIMEOUT_MS;
  const deliveredByEmulator = async (hash: string) => {
    while (performance.now() < repeatsGiveUpAt) {
      const seen = await tapped();
      if (seen.some((entry) => entry.txId === hash.toLowerCase() && entry.status === 200)) return true;
      await sleep(POLL_MS);
    }
    return false;
  };
  const bothAtOnce: DeliverySample[] = [];
  const twiceAtOnce: DeliverySample[] = [];
  const repeats = (async () => {
    let chosen = 0;
    for (let n = 1; n < options.swaps; n += REPEAT_EVERY, chosen++) {
      const swap = await minedOnes[n]?.promise;
      if (!swap || !(await deliveredByEmulator(swap.hash))) continue;
      const twice = chosen % 2 === 1;
      const copies = twice ? [...swap.legs, ...swap.legs] : swap.legs;
      (twice ? twiceAtOnce : bothAtOnce).push(...(await Promise.all(copies.map(signedPost))));
    }
  })();
  const burstSeconds = await burst;
  const lastMined = performance.now();
  await repeats;

  // Settled: every leg of every swap answered 2xx by market-bots, as the tap saw the emulator send
  // it, and nothing left owed in the emulator's books (it writes a delivery down after the answer).
  const mined = swaps.filter((swap): swap is MinedSwap => swap !== undefined);
  const legs = mined.flatMap((swap) => swap.legs.map(({ leg }) => leg));
  const settled = async () => {
    const deadline = performance.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      const seen = await tapped();
      const answered = new Set(seen.filter((e) => e.status === 200).map((e) => e.leg));
      const unanswered = legs.filter((leg) => !answered.has(leg)).length;
      const books = unanswered === 0 ? await getJson<BookedDelivery[]>(`${market.tapUrl}/books`) : null;
      const done = books !== null && books.every((row) => row.delivered);
      if (done || performance.now() > deadline) {
        return {
          seen,
          unanswered,
          books: books ?? (await getJson<BookedDelivery[]>(`${market.tapUrl}/books`)),
        };
      }
      await sleep(POLL_MS);
    }
  };
  const { seen, books, unanswered } = await settled();
  const settleSeconds = (performance.now() - lastMined) / 1000;

  const [bots, runs, notifications] = await Promise.all([
    readBots(service),
    readRuns(service),
    readNotifications(service, userIds),
  ]);
  const verdict = judge({ bots, swaps: mined.flatMap((swap) => swap.facts), runs, notifications });

  // The emulator's deliveries, split by the leg of its swap it delivered first and the other one.
  const firstLeg = new Map<string, string | null>();
  const firstAnswered = new Map<string, number>();
  for (const entry of [...seen].sort((a, b) => a.startedAt - b.startedAt)) {
    const tx = entry.txId ?? '';
    if (!firstLeg.has(tx)) firstLeg.set(tx, entry.leg);
    if (entry.status === 200 && !firstAnswered.has(tx)) firstAnswered.set(tx, entry.startedAt + entry.ms);
  }
  const sample = (entry: TappedDelivery): DeliverySample => ({
    ok: entry.status !== null && entry.status >= 200 && entry.status < 300,
    ms: entry.ms,
    serverTiming: entry.serverTiming,
    fired: entry.fired,
  });
  const isFirst = (entry: TappedDelivery) => firstLeg.get(entry.txId ?? '') === entry.leg;
  const facts = mined.flatMap((swap) => swap.facts).sort((a, b) => a.blockNumber - b.blockNumber);
  const endPrice = facts.at(-1)?.after ?? startPrice;
  const blockSeconds = (facts.at(-1)?.blockTime ?? 0) - (facts[0]?.blockTime ?? 0);

  return {
    users: options.users,
    bots: kinds,
    swaps: mined.length,
    buys,
    traders: chain.traders,
    prices: { start: toEth(startPrice), low: toEth(low), high: toEth(high), end: toEth(endPrice) },
    ops: ops.summary(),
    deliveries: [
      deliveryRow('emulator: first leg of a swap', false, seen.filter(isFirst).map(sample)),
      deliveryRow('emulator: its other leg', true, seen.filter((entry) => !isFirst(entry)).map(sample)),
      deliveryRow('bench: both legs at once', true, bothAtOnce),
      deliveryRow('bench: each leg twice at once', true, twiceAtOnce),
    ],
    minedToEvaluated: summarize(
      mined.flatMap((swap) => {
        const answered = firstAnswered.get(swap.hash.toLowerCase());
        return answered === undefined ? [] : [answered - swap.minedAt];
      }),
    ),
    emulator: {
      legs: books.length,
      retried: books.filter((row) => row.attempts > 1).length,
      owed: books.filter((row) => !row.delivered).length,
      unanswered,
    },
    verdict,
    seconds: {
      bots: botsSeconds,
      burst: burstSeconds,
      blocks: blockSeconds,
      settle: settleSeconds,
      wall: (performance.now() - wallStart) / 1000,
    },
    date: new Date(),
  };
}
