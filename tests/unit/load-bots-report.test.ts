import { describe, expect, it } from 'vitest';
import {
  botsDocsSection,
  botsProblems,
  botsRunFailed,
  deliveryRow,
  parseServerTiming,
  type BotsFigures,
} from '../../bench/load/bots-report.ts';
import { legOf } from '../../bench/load/market-tap.ts';
import { summarize } from '../../bench/load/metrics.ts';

// The bots load phase's figures (bench/load/bots-report.ts): the evaluation time is read from
// market-bots' Server-Timing, a repeat that fires or a failed delivery fails the run, and the
// section of docs/benchmarks.md shows what was measured.

const figures = (changes: Partial<BotsFigures> = {}): BotsFigures => ({
  users: 2,
  bots: { price_above: 16, price_below: 16, price_move: 4, large_swap: 4 },
  swaps: 4,
  buys: 2,
  traders: 2,
  prices: { start: 0.0002, low: 0.00019, high: 0.00021, end: 0.0002 },
  ops: [{ kind: 'create bot', ...summarize([30, 40]), errors: 0, reasons: [] }],
  deliveries: [
    deliveryRow('emulator: first leg of a swap', false, [
      { ok: true, ms: 120, serverTiming: 'rpc;dur=10.0, evaluate;dur=95.5', fired: 7 },
    ]),
    deliveryRow('bench: both legs at once', true, [
      { ok: true, ms: 30, serverTiming: 'rpc;dur=4.0, evaluate;dur=8.25', fired: 0 },
    ]),
  ],
  minedToEvaluated: summarize([200]),
  emulator: { legs: 8, retried: 0, owed: 0, unanswered: 0 },
  verdict: {
    bots: 40,
    expected: 7,
    expectedByKind: { price_above: 3, price_below: 2, price_move: 1, large_swap: 1 },
    fired: 7,
    runs: 7,
    notifications: 7,
    lost: 0,
    doubled: 0,
    unexpected: 0,
    wrongSwap: 0,
    wrongNotification: 0,
    problems: [],
  },
  seconds: { bots: 1, burst: 1, blocks: 4, settle: 1, wall: 10 },
  stackCpuPercent: 90,
  date: new Date('2026-01-01T00:00:00Z'),
  ...changes,
});

describe('bots load figures', () => {
  it('reads rpc and evaluate from Server-Timing, whatever else the header holds', () => {
    expect(parseServerTiming('rpc;dur=12.5, evaluate;dur=3.25')).toEqual({ rpc: 12.5, evaluate: 3.25 });
    expect(parseServerTiming('evaluate;desc="sql";dur=7')).toEqual({ rpc: null, evaluate: 7 });
    expect(parseServerTiming(null)).toEqual({ rpc: null, evaluate: null });
  });

  it('sums firings, counts failures apart and times only answered deliveries', () => {
    const row = deliveryRow('x', false, [
      { ok: true, ms: 10, serverTiming: 'evaluate;dur=4', fired: 3 },
      { ok: true, ms: 20, serverTiming: null, fired: 0 },
      { ok: false, ms: 9_000, serverTiming: null, fired: null },
    ]);
    expect(row).toMatchObject({ count: 3, failed: 1, fired: 3 });
    expect(row.http).toMatchObject({ count: 2, max: 20 });
    expect(row.evaluate).toMatchObject({ count: 1, max: 4 });
  });

  it('fails on a repeat that fired, a failed delivery, a delivery still owed or a wrong firing', () => {
    expect(botsRunFailed(figures())).toBe(false);
    const firingRepeat = deliveryRow('bench: both legs at once', true, [
      { ok: true, ms: 30, serverTiming: null, fired: 1 },
    ]);
    const failed = figures({ deliveries: [firingRepeat] });
    expect(botsRunFailed(failed)).toBe(true);
    expect(botsProblems(failed)).toContain('bench: both legs at once: repeats fired 1 bot(s)');
    expect(botsRunFailed(figures({ emulator: { legs: 8, retried: 1, owed: 1, unanswered: 0 } }))).toBe(true);
    expect(botsRunFailed(figures({ emulator: { legs: 6, retried: 0, owed: 0, unanswered: 2 } }))).toBe(true);
    expect(botsRunFailed(figures({ verdict: { ...figures().verdict, lost: 1 } }))).toBe(true);
    expect(
      botsRunFailed(
        figures({ ops: [{ kind: 'create bot', ...summarize([1]), errors: 1, reasons: ['HTTP 500'] }] }),
      ),
    ).toBe(true);
  });

  it('writes the delivery times and the verdict into its section', () => {
    const section = botsDocsSection(figures());
    expect(section).toContain('## Load: 40 trading bots and a burst of 4 swaps');
    expect(section).toMatch(
      /\| emulator: first leg of a swap \| 1 \| 7 \| 120 \| 120 \| 120 \| 96 \| 96 \| 96 \| 0 \|/,
    );
    expect(section).toMatch(
      /\| bench: both legs at once \| 1 \| 0 \| 30 \| 30 \| 30 \| 8\.3 \| 8\.3 \| 8\.3 \| 0 \|/,
    );
    expect(section).toMatch(/\| 40 \| 7 \| 7 \| 7 \| 7 \| 0 \| 0 \| 0 \| 0 \| 0 \|/);
  });
});

describe('the market tap', () => {
  // The emulator's body, exactly as Tatum documents it: no log index.
  const emulated = {
    address: '0x5d70af5e2015d0f76892f8a100d176423420b7db',
    amount: '-2463.08',
    asset: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    blockNumber: 12,
    counterAddress: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    txId: `0x${'AB'.repeat(32)}`,
    type: 'fungible',
    chain: 'ethereum-sepolia',
    subscriptionType: 'ADDRESS_EVENT',
  };

  it('names a leg alike in the emulator’s body and the bench’s own, though neither names its log', () => {
    const own = { ...emulated, txId: emulated.txId.toLowerCase(), mempool: false };
    expect(legOf(JSON.stringify(emulated))).toEqual(legOf(JSON.stringify(own)));
    expect(legOf(JSON.stringify(emulated))).toBe(
      `0x${'ab'.repeat(32)}:0x5fbdb2315678afecb367f032d93f642f64180aa3:-2463.08`,
    );
    // The swap's other leg is another.
    const weth = { ...emulated, asset: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', amount: '0.5' };
    expect(legOf(JSON.stringify(weth))).not.toEqual(legOf(JSON.stringify(emulated)));
    expect(legOf('{"txId":')).toBeNull();
  });
});
