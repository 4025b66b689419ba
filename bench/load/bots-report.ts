import { machineLine } from '../lib/docs.ts';
import type { BotKind, Verdict } from './bots-oracle.ts';
import { verdictHolds } from './bots-oracle.ts';
import { summarize, type LatencySummary } from './metrics.ts';
import { markdown, plain, type Table } from './report.ts';

// The bots phase's figures as a terminal report and as its section of docs/benchmarks.md
// (between <!-- load-bots:start --> and <!-- load-bots:end -->), and its verdict.

export const BOTS_DOCS_SECTION = 'load-bots';

export type ServerTiming = { rpc: number | null; evaluate: number | null };

/** market-bots' `Server-Timing: rpc;dur=1.2, evaluate;dur=3.4` (either part may be missing). */
export function parseServerTiming(header: string | null): ServerTiming {
  const timing: ServerTiming = { rpc: null, evaluate: null };
  for (const part of (header ?? '').split(',')) {
    const match = /^\s*(rpc|evaluate)\s*;(?:.*;)?\s*dur=([\d.]+)\s*$/.exec(part);
    if (match?.[1] && match[2]) timing[match[1] as keyof ServerTiming] = Number(match[2]);
  }
  return timing;
}

/** One delivery as whoever sent it saw it. */
export type DeliverySample = { ok: boolean; ms: number; serverTiming: string | null; fired: number | null };

export type DeliveryRow = {
  label: string;
  /** Repeats of a swap already evaluated: any firing among them is a doubled one. */
  repeats: boolean;
  count: number;
  failed: number;
  fired: number;
  http: LatencySummary;
  evaluate: LatencySummary;
};

export function deliveryRow(
  label: string,
  repeats: boolean,
  samples: readonly DeliverySample[],
): DeliveryRow {
  const ok = samples.filter((sample) => sample.ok);
  return {
    label,
    repeats,
    count: samples.length,
    failed: samples.length - ok.length,
    fired: ok.reduce((sum, sample) => sum + (sample.fired ?? 0), 0),
    http: summarize(ok.map((sample) => sample.ms)),
    evaluate: summarize(
      ok.flatMap((sample) => {
        const evaluate = parseServerTiming(sample.serverTiming).evaluate;
        return evaluate === null ? [] : [evaluate];
      }),
    ),
  };
}

export type OpRow = LatencySummary & { kind: string; errors: number; reasons: string[] };

export type BotsFigures = {
  users: number;
  bots: Record<BotKind, number>;
  swaps: number;
  buys: number;
  traders: number;
  /** ETH per DDEX. */
  prices: { start: number; low: number; high: number; end: number };
  ops: OpRow[];
  deliveries: DeliveryRow[];
  /** From a swap's receipt to the emulator's first delivery of it answered. */
  minedToEvaluated: LatencySummary;
  /**
   * The emulator's books for market-bots: rows, rows that took more than one attempt, rows still
   * owed; and legs of the swaps mined that market-bots never answered 2xx when the wait ended.
   */
  emulator: { legs: number; retried: number; owed: number; unanswered: number };
  verdict: Verdict;
  /** burst: wall time of the swaps; blocks: from the first swap's block time to the last's. */
  seconds: { bots: number; burst: number; blocks: number; settle: number; wall: number };
  stackCpuPercent: number | null;
  date: Date;
};

/**
 * Whether the phase failed: any error, any repeat that fired, any leg not delivered, or any firing
 * lost, doubled, unexpected or wrong. `npm run bench:load` exits 1 then.
 */
export function botsRunFailed(figures: BotsFigures): boolean {
  return (
    figures.ops.some((op) => op.errors > 0) ||
    figures.deliveries.some((row) => row.failed > 0 || (row.repeats && row.fired > 0)) ||
    figures.emulator.owed > 0 ||
    figures.emulator.unanswered > 0 ||
    !verdictHolds(figures.verdict)
  );
}

/** Milliseconds, with a decimal under 10 ms (evaluations can be that quick). */
const ms = (value: number) =>
  Number.isFinite(value) ? (value < 10 ? value.toFixed(1) : value.toFixed(0)) : '–';

function opsTable(figures: BotsFigures): Table {
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
        'swap mined → evaluated',
        String(figures.minedToEvaluated.count),
        ms(figures.minedToEvaluated.p50),
        ms(figures.minedToEvaluated.p95),
        ms(figures.minedToEvaluated.max),
        '–',
      ],
    ],
  };
}

function deliveriesTable(figures: BotsFigures): Table {
  return {
    head: [
      'delivery to market-bots',
      'count',
      'bots fired',
      'HTTP p50 ms',
      'HTTP p95 ms',
      'HTTP max ms',
      'evaluate p50 ms',
      'evaluate p95 ms',
      'evaluate max ms',
      'failed',
    ],
    right: [false, ...Array.from({ length: 9 }, () => true)],
    rows: figures.deliveries.map((row) => [
      row.label,
      String(row.count),
      String(row.fired),
      ms(row.http.p50),
      ms(row.http.p95),
      ms(row.http.max),
      ms(row.evaluate.p50),
      ms(row.evaluate.p95),
      ms(row.evaluate.max),
      String(row.failed),
    ]),
  };
}

function verdictTable(figures: BotsFigures): Table {
  const v = figures.verdict;
  return {
    head: [
      'bots',
      'should fire',
      'fired',
      'runs',
      'notifications',
      'lost',
      'doubled',
      'unexpected',
      'wrong swap',
      'wrong notification',
    ],
    right: Array.from({ length: 10 }, () => true),
    rows: [
      [
        v.bots,
        v.expected,
        v.fired,
        v.runs,
        v.notifications,
        v.lost,
        v.doubled,
        v.unexpected,
        v.wrongSwap,
        v.wrongNotification,
      ].map(String),
    ],
  };
}

const price = (value: number) => value.toPrecision(4);

function summaryLine(figures: BotsFigures): string {
  const { bots, prices, seconds, emulator } = figures;
  const should = figures.verdict.expectedByKind;
  const total = Object.values(bots).reduce((sum, count) => sum + count, 0);
  const cpu =
    figures.stackCpuPercent === null
      ? ''
      : `; the stack process used ${figures.stackCpuPercent.toFixed(0)} % of one core`;
  return (
    `${figures.users} users signed up and created ${total} bots (${bots.price_above} above, ${bots.price_below} below, ` +
    `${bots.price_move} move, ${bots.large_swap} large swap) in ${seconds.bots.toFixed(1)} s, of which ` +
    `${should.price_above}, ${should.price_below}, ${should.price_move} and ${should.large_swap} ` +
    `respectively should fire; ` +
    `${figures.swaps} swaps (${figures.buys} buys) from ${figures.traders} accounts in ${seconds.burst.toFixed(1)} s ` +
    `(${seconds.blocks} s of block time, inside the 15-minute cooldown) ` +
    `took the price from ${price(prices.start)} between ${price(prices.low)} and ${price(prices.high)} ` +
    `to ${price(prices.end)} ETH per DDEX; the emulator delivered ${emulator.legs} legs ` +
    `(${emulator.retried} retried, ${emulator.owed} still owed), settled ${seconds.settle.toFixed(1)} s ` +
    `after the last swap; wall time ${seconds.wall.toFixed(1)} s with start-up and checks${cpu}`
  );
}

export function botsTerminalReport(figures: BotsFigures): string {
  return [
    `Bots: ${figures.users} users, ${figures.verdict.bots} bots, ${figures.swaps} swaps — ${machineLine()}`,
    '',
    plain(opsTable(figures)),
    '',
    plain(deliveriesTable(figures)),
    '',
    plain(verdictTable(figures)),
    '',
    `${summaryLine(figures)}.`,
  ].join('\n');
}

export function botsDocsSection(figures: BotsFigures): string {
  return [
    `## Load: ${figures.verdict.bots} trading bots and a burst of ${figures.swaps} swaps`,
    '',
    `Machine: ${machineLine(figures.date)}. ${summaryLine(figures)}.`,
    '',
    '`npm run bench:load` (after the users, or alone with `-- --scenario bots`; `bench/load/bots.ts`) ' +
      'starts a fresh chain and gateway, as `npm run stack` does with the DDEX/WETH pair subscribed to ' +
      'market-bots through the Tatum emulator. Each user signs up and creates twenty bots through its own ' +
      'supabase-js client, with levels, moves and sizes spread over the range the burst crosses and a little ' +
      'past it. Then a few funded accounts buy and sell through the Uniswap V2 router, at once, and the ' +
      'emulator delivers both token transfers of every swap, in order, as in production. The bench POSTs ' +
      'both legs of every fourth swap again once the emulator has delivered it, signed as the emulator signs ' +
      '(half of them each twice at once): every repeat must fire nothing.',
    '',
    markdown(opsTable(figures)),
    '',
    markdown(deliveriesTable(figures)),
    '',
    markdown(verdictTable(figures)),
    '',
    'The oracle knows nothing the server wrote but the bots and their arming time: it replays the ' +
      'swaps in block order from their receipts (the Sync reserves after each swap and its Swap amounts) ' +
      'and applies the rules of `evaluate_market_swap` in exact integers, price moves included (the lowest ' +
      'and highest price of the window over the swaps so far), with the arming second and the 15-minute ' +
      'cooldown. Each bot must have exactly the runs it calls for (one at the first swap that satisfies ' +
      'its rule, as the burst is shorter than the cooldown, or none) and one notification per run, whose ' +
      'title and message say what fired it. HTTP times of the emulator’s deliveries are taken in the stack ' +
      'process around the emulator’s own requests (`bench/load/market-tap.ts`: the emulator records when a ' +
      'delivery was owed and answered, not how long its request took); the bench times its own. `evaluate` ' +
      'is the function’s own `Server-Timing` figure for the `evaluate_market_swap` call over REST; the rest ' +
      'of the HTTP time is the receipt and block reads (`rpc`), the signature check and the gateway. ' +
      '“Swap mined → evaluated” runs from the receipt to the emulator’s first delivery of the swap answered: ' +
      'the watcher’s polling and the queue behind the burst, which mines legs faster than the emulator, ' +
      'delivering one at a time, hands them over.',
  ].join('\n');
}

/** The first problems, for the terminal. */
export function botsProblems(figures: BotsFigures): string[] {
  return [
    ...figures.ops.flatMap((op) => op.reasons.map((reason) => `${op.kind}: ${reason}`)),
    ...figures.deliveries
      .filter((row) => row.repeats && row.fired > 0)
      .map((row) => `${row.label}: repeats fired ${row.fired} bot(s)`),
    ...figures.deliveries.filter((row) => row.failed > 0).map((row) => `${row.label}: ${row.failed} failed`),
    ...(figures.emulator.owed > 0 ? [`the emulator still owes ${figures.emulator.owed} deliveries`] : []),
    ...(figures.emulator.unanswered > 0
      ? [`${figures.emulator.unanswered} legs of the swaps were never answered 2xx within the wait`]
      : []),
    ...figures.verdict.problems,
  ];
}
