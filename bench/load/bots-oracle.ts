// What the bots load phase expects, worked out from the burst's own receipts and nothing the
// server wrote, and how the server's runs and notifications compare with it. The rules are
// evaluate_market_swap's (supabase/migrations/20261203000002_bot_evaluation_batches.sql) as
// market-bots asks for them, in exact integer arithmetic on the prices the receipts give:
//   - the price rules see each transaction's move once: from the price before its first swap of
//     the pair to the price after its last, under the last Swap's key; the large-swap rule sees
//     each swap (a transaction of one swap is both);
//   - price_above fires when before < level ≤ after, price_below when before > level ≥ after;
//   - large_swap when the swap moved at least min_ddex DDEX, and at least the project's floor
//     (bot_settings.large_swap_min_ddex, 1,000 DDEX unless the service role changed it);
//   - price_move when the price after is at least move_pct % away from the lowest or the highest
//     price of its window: the before and after prices of the moves in [t − window, t] up to this
//     one, and this move's before;
//   - a swap counts only from the second its bot was armed, and a bot fires at most once per
//     cooldown around any of its runs.
// The emulator delivers swaps in order, so the moves are replayed here in (block, log) order,
// each seeing every earlier one: the order in which the server first evaluated them.

/** Prices are ETH per DDEX as integers at this scale, cut off as market-bots cuts them off. */
export const PRICE_SCALE = 40;
/** DDEX amounts in the token's base units. */
export const DDEX_SCALE = 18;

export type Side = 'buy' | 'sell';

/** One Swap of the pair, as its receipt and block tell it. */
export type SwapFact = {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  /** The block's timestamp, in seconds. */
  blockTime: number;
  /** ETH per DDEX × 10^PRICE_SCALE, cut off: WETH reserve × 10^PRICE_SCALE / DDEX reserve. */
  before: bigint;
  after: bigint;
  /** DDEX moved, in base units. */
  ddex: bigint;
  side: Side;
};

export type BotKind = 'price_above' | 'price_below' | 'price_move' | 'large_swap';

/** A bot as the database holds it; numerics as decimal text (a plain or exponent number). */
export type BotFact = {
  id: string;
  userId: string;
  name: string;
  kind: BotKind;
  level: string | null;
  movePct: string | null;
  windowMinutes: number | null;
  minDdex: string | null;
  cooldownMinutes: number;
  /** When it was armed, in milliseconds since the epoch. */
  armedAtMs: number;
};

export type RunFact = { botId: string; txHash: string; logIndex: number; notificationId: string | null };

export type NotificationFact = { id: string; userId: string; title: string; message: string };

export type Verdict = {
  bots: number;
  /** Bots some swap of the burst should have fired, in all and by kind. */
  expected: number;
  expectedByKind: Record<BotKind, number>;
  /** Bots with at least one run. */
  fired: number;
  runs: number;
  notifications: number;
  /** Bots expected to fire with no run, or with a run and no notification. */
  lost: number;
  /** Bots with more runs, or more notifications, than expected. */
  doubled: number;
  /** Bots that fired though no swap satisfied their rule. */
  unexpected: number;
  /** Bots whose run is at another swap than the first one that satisfied their rule. */
  wrongSwap: number;
  /** Notifications whose title or message does not say what fired, or that no run names. */
  wrongNotification: number;
  /** The first few problems, in words. */
  problems: string[];
};

const PROBLEMS_KEPT = 10;

export const swapKey = (txHash: string, logIndex: number) => `${txHash.toLowerCase()}:${logIndex}`;

/**
 * A decimal ('0.000201', '2.01e-4', 12, '1000') as an integer at `scale` places, cut off. Numbers
 * come back from the REST API as JSON numbers, whose shortest text may use an exponent.
 */
export function scaled(value: string | number, scale: number): bigint {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!match) throw new Error(`not a positive decimal: ${text}`);
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const digits = BigInt(whole + fraction);
  const shift = scale - fraction.length + Number(exponent);
  return shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
}

/** ETH per DDEX from the reserves, as market-bots prices it (both tokens have 18 decimals). */
export function priceOf(wethReserve: bigint, ddexReserve: bigint): bigint {
  return (wethReserve * 10n ** BigInt(PRICE_SCALE)) / ddexReserve;
}

/** Whether `after` is at least pct % away from `reference` (> 0): |after − ref| × 100 ≥ pct × ref. */
function movedBy(after: bigint, reference: bigint, pct: bigint, pctScale: number): boolean {
  const distance = after > reference ? after - reference : reference - after;
  return distance * 100n * 10n ** BigInt(pctScale) >= pct * reference;
}

const MOVE_PCT_SCALE = 6;

/** bot_settings.large_swap_min_ddex as the migration sets it, in DDEX base units. */
export const LARGE_SWAP_FLOOR = 1_000n * 10n ** BigInt(DDEX_SCALE);

function satisfies(bot: BotFact, swap: SwapFact, earlier: readonly SwapFact[]): boolean {
  switch (bot.kind) {
    case 'price_above': {
      const level = scaled(bot.level ?? '', PRICE_SCALE);
      return swap.before < level && level <= swap.after;
    }
    case 'price_below': {
      const level = scaled(bot.level ?? '', PRICE_SCALE);
      return swap.before > level && level >= swap.after;
    }
    case 'large_swap':
      return scaled(bot.minDdex ?? '', DDEX_SCALE) <= swap.ddex && LARGE_SWAP_FLOOR <= swap.ddex;
    case 'price_move': {
      const from = swap.blockTime - (bot.windowMinutes ?? 0) * 60;
      const prices = [swap.before];
      for (const other of [...earlier, swap]) {
        if (other.blockTime >= from && other.blockTime <= swap.blockTime) {
          prices.push(other.before, other.after);
        }
      }
      const low = prices.reduce((a, b) => (b < a ? b : a));
      const high = prices.reduce((a, b) => (b > a ? b : a));
      const pct = scaled(bot.movePct ?? '', MOVE_PCT_SCALE);
      return movedBy(swap.after, low, pct, MOVE_PCT_SCALE) || movedBy(swap.after, high, pct, MOVE_PCT_SCALE);
    }
  }
}

const inOrder = (a: SwapFact, b: SwapFact) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;

const PRICE_KINDS: ReadonlySet<BotKind> = new Set(['price_above', 'price_below', 'price_move']);

/**
 * What each bot kind is weighed on: every swap for large_swap; for the price kinds one move per
 * transaction, priced from before its first swap to after its last, under the last Swap's key
 * (its DDEX the net amount, as market-bots sends it; no price rule reads it).
 */
type Weighing = { swap: SwapFact; price: boolean; size: boolean };

function weighings(swaps: readonly SwapFact[]): Weighing[] {
  const ordered = [...swaps].sort(inOrder);
  const byTx = new Map<string, SwapFact[]>();
  for (const swap of ordered) {
    const tx = swap.txHash.toLowerCase();
    byTx.set(tx, [...(byTx.get(tx) ?? []), swap]);
  }
  return ordered.flatMap((swap): Weighing[] => {
    const ofTx = byTx.get(swap.txHash.toLowerCase()) ?? [swap];
    const first = ofTx[0] ?? swap;
    if (ofTx.length === 1) return [{ swap, price: true, size: true }];
    if (swap !== ofTx.at(-1)) return [{ swap, price: false, size: true }];
    const net = ofTx.reduce((sum, s) => (s.side === 'buy' ? sum + s.ddex : sum - s.ddex), 0n);
    const move: SwapFact = {
      ...swap,
      before: first.before,
      ddex: net < 0n ? -net : net,
      side: net > 0n || (net === 0n && swap.after > first.before) ? 'buy' : 'sell',
    };
    return [
      { swap, price: false, size: true },
      { swap: move, price: true, size: false },
    ];
  });
}

/** The swaps (swapKey) each bot should have fired on, in order; bots that fire on none are absent. */
export function expectedFirings(bots: readonly BotFact[], swaps: readonly SwapFact[]): Map<string, string[]> {
  const fired = new Map<string, { key: string; time: number }[]>();
  const moves: SwapFact[] = [];
  for (const { swap, price, size } of weighings(swaps)) {
    // The price history holds the moves before this one (the window reads it).
    const earlier = [...moves];
    if (price) moves.push(swap);
    for (const bot of bots) {
      if (PRICE_KINDS.has(bot.kind) ? !price : !size) continue;
      // Armed to the second: blocks carry whole seconds.
      if (Math.floor(bot.armedAtMs / 1000) > swap.blockTime) continue;
      const runs = fired.get(bot.id) ?? [];
      const cooldown = bot.cooldownMinutes * 60;
      if (runs.some((run) => Math.abs(run.time - swap.blockTime) < cooldown)) continue;
      if (!satisfies(bot, swap, earlier)) continue;
      fired.set(bot.id, [...runs, { key: swapKey(swap.txHash, swap.logIndex), time: swap.blockTime }]);
    }
  }
  return new Map([...fired].map(([id, runs]) => [id, runs.map((run) => run.key)]));
}

const WINDOW_WORDS: Record<number, string> = {
  15: '15 min',
  30: '30 min',
  60: '1 h',
  240: '4 h',
  720: '12 h',
  1440: '24 h',
};

/** The level as trim_scale(level)::text shows it: a plain decimal without trailing zeros. */
function levelText(level: string): string {
  const units = scaled(level, PRICE_SCALE)
    .toString()
    .padStart(PRICE_SCALE + 1, '0');
  const whole = units.slice(0, -PRICE_SCALE);
  const fraction = units.slice(-PRICE_SCALE).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Whether a title says what fired `bot` on `swap` (the interface's titles). */
function titleFits(bot: BotFact, swap: SwapFact | undefined, title: string): boolean {
  switch (bot.kind) {
    case 'price_above':
      return title === `DDEX above ${levelText(bot.level ?? '')} ETH`;
    case 'price_below':
      return title === `DDEX below ${levelText(bot.level ?? '')} ETH`;
    case 'price_move': {
      const match = /^DDEX (up|down) (\d+(?:\.\d)?) % in (.+)$/.exec(title);
      return (
        match !== null &&
        match[3] === WINDOW_WORDS[bot.windowMinutes ?? 0] &&
        Number(match[2]) >= Number(bot.movePct) - 0.05
      );
    }
    case 'large_swap': {
      const word = swap?.side === 'buy' ? 'bought' : 'sold';
      return new RegExp(`^Large swap: [\\d,]+(\\.\\d+)? DDEX ${word}$`).test(title);
    }
  }
}

/** Compares what the server recorded with what the burst's swaps call for. */
export function judge(input: {
  bots: readonly BotFact[];
  swaps: readonly SwapFact[];
  runs: readonly RunFact[];
  notifications: readonly NotificationFact[];
}): Verdict {
  const expected = expectedFirings(input.bots, input.swaps);
  const swapsByKey = new Map(input.swaps.map((swap) => [swapKey(swap.txHash, swap.logIndex), swap]));
  const runsByBot = new Map<string, RunFact[]>();
  for (const run of input.runs) runsByBot.set(run.botId, [...(runsByBot.get(run.botId) ?? []), run]);
  const notificationsById = new Map(input.notifications.map((note) => [note.id, note]));
  const named = new Set<string>();
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length < PROBLEMS_KEPT) problems.push(text);
  };
  const verdict = {
    lost: 0,
    doubled: 0,
    unexpected: 0,
    wrongSwap: 0,
    wrongNotification: 0,
  };

  for (const bot of input.bots) {
    const wanted = expected.get(bot.id) ?? [];
    const runs = runsByBot.get(bot.id) ?? [];
    const prefix = `${bot.name}: `;
    const notes = input.notifications.filter(
      (note) => note.userId === bot.userId && note.message.startsWith(prefix),
    );
    const what = `${bot.kind} bot "${bot.name}"`;
    if (wanted.length === 0 && runs.length > 0) {
      verdict.unexpected += 1;
      problem(`${what} fired ${runs.length} time(s); no swap satisfied its rule`);
    } else if (runs.length < wanted.length || notes.length < wanted.length) {
      verdict.lost += 1;
      problem(`${what}: ${runs.length} run(s), ${notes.length} notification(s), ${wanted.length} expected`);
    }
    if (wanted.length > 0 && (runs.length > wanted.length || notes.length > wanted.length)) {
      verdict.doubled += 1;
      problem(`${what}: ${runs.length} run(s), ${notes.length} notification(s), ${wanted.length} expected`);
    }
    const keys = runs.map((run) => swapKey(run.txHash, run.logIndex)).sort();
    if (wanted.length > 0 && runs.length === wanted.length && keys.join() !== [...wanted].sort().join()) {
      verdict.wrongSwap += 1;
      problem(`${what} fired at ${keys.join(', ')}, expected at ${wanted.join(', ')}`);
    }
    for (const run of runs) {
      const note = run.notificationId === null ? undefined : notificationsById.get(run.notificationId);
      if (note) named.add(note.id);
      const swap = swapsByKey.get(swapKey(run.txHash, run.logIndex));
      const fits =
        note !== undefined &&
        note.userId === bot.userId &&
        note.message.startsWith(prefix) &&
        note.message.endsWith(`(tx ${run.txHash.slice(0, 10).toLowerCase()}…).`) &&
        titleFits(bot, swap, note.title);
      if (!fits) {
        verdict.wrongNotification += 1;
        problem(
          `${what}: its run's notification ${note ? `"${note.title}" / "${note.message}"` : 'is missing'}`,
        );
      }
    }
  }
  for (const note of input.notifications) {
    if (named.has(note.id)) continue;
    verdict.wrongNotification += 1;
    problem(`a notification no run names: "${note.title}" / "${note.message}"`);
  }
  const expectedByKind: Record<BotKind, number> = {
    price_above: 0,
    price_below: 0,
    price_move: 0,
    large_swap: 0,
  };
  for (const bot of input.bots) if (expected.has(bot.id)) expectedByKind[bot.kind] += 1;
  return {
    bots: input.bots.length,
    expected: expected.size,
    expectedByKind,
    fired: input.bots.filter((bot) => (runsByBot.get(bot.id) ?? []).length > 0).length,
    runs: input.runs.length,
    notifications: input.notifications.length,
    ...verdict,
    problems,
  };
}

/** Whether the server did exactly what the swaps call for. */
export function verdictHolds(verdict: Verdict): boolean {
  return (
    verdict.lost === 0 &&
    verdict.doubled === 0 &&
    verdict.unexpected === 0 &&
    verdict.wrongSwap === 0 &&
    verdict.wrongNotification === 0
  );
}
