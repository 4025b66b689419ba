import type { BotKind } from './bots-oracle.ts';

// What the bots load phase creates and trades, worked out before it starts from the pool's price:
// every user's twenty bots (levels, moves and sizes spread over what the burst will cross, and a
// little past it, so some bots must stay silent), and each swap's side and size from a seeded
// generator and the price so far, so runs trade much alike (the traders swap at once, so the
// order they take the steps in varies). Pure; bench/load/bots.ts carries it out.

export const BOTS_PER_USER = 20;
/** Per user: 8 above, 8 below, 2 move, 2 large swap (400, 400, 100, 100 over 50 users). */
const KINDS_PER_USER: readonly BotKind[] = [
  ...Array<BotKind>(8).fill('price_above'),
  ...Array<BotKind>(8).fill('price_below'),
  ...Array<BotKind>(2).fill('price_move'),
  ...Array<BotKind>(2).fill('large_swap'),
];

/** The burst's price swings about this far either side of where it starts (see swapPlan). */
export const SWING = 0.06;
/** Levels reach this far either side, past the swing, so the outermost ones are never crossed. */
const LEVEL_SPREAD = 0.14;
/** A swap is worth this much ETH, at most. */
const MAX_SWAP_ETH = 1;
const MIN_SWAP_ETH = 0.1;
const MOVE_PCT = [0.5, 30] as const;
/** Sizes a large-swap bot watches for: from the project’s floor (bot_settings, 1,000 DDEX) up. */
const LARGE_SWAP_DDEX = [1_000, 9_000] as const;
const WINDOWS = [15, 30, 60, 240, 720, 1440] as const;

export type BotSpec = {
  name: string;
  kind: BotKind;
  level?: number;
  move_pct?: number;
  window_minutes?: number;
  min_ddex?: number;
};

/** mulberry32: small, seeded, good enough to spread sizes; not for anything secret. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `value` to six significant digits, as a person would type a level. */
const typed = (value: number) => Number(value.toPrecision(6));

/** Where the n-th of `count` values sits in [low, high], evenly, off the ends. */
const spread = (low: number, high: number, n: number, count: number) =>
  low + ((high - low) * (n + 0.5)) / count;

/**
 * The bots of user `user` of `users`. Each kind's values are dealt round the users, so every
 * user's bots span the range and no two bots of a kind share a value.
 */
export function botsOf(user: number, users: number, startPrice: number): BotSpec[] {
  const seen = new Map<BotKind, number>();
  return KINDS_PER_USER.map((kind) => {
    const nth = seen.get(kind) ?? 0;
    seen.set(kind, nth + 1);
    const perUser = KINDS_PER_USER.filter((k) => k === kind).length;
    const count = perUser * users;
    const at = nth * users + user;
    const id = `${user + 1}.${nth + 1}`;
    switch (kind) {
      case 'price_above':
      case 'price_below': {
        const level = typed(
          spread(startPrice * (1 - LEVEL_SPREAD), startPrice * (1 + LEVEL_SPREAD), at, count),
        );
        return { name: `${kind === 'price_above' ? 'Above' : 'Below'} ${level} #${id}`, kind, level };
      }
      case 'price_move': {
        const movePct = Number(spread(MOVE_PCT[0], MOVE_PCT[1], at, count).toFixed(2));
        const window = WINDOWS[at % WINDOWS.length] ?? 15;
        return { name: `Move ${movePct} % #${id}`, kind, move_pct: movePct, window_minutes: window };
      }
      case 'large_swap': {
        const minDdex = Math.round(spread(LARGE_SWAP_DDEX[0], LARGE_SWAP_DDEX[1], at, count));
        return { name: `Large ${minDdex} #${id}`, kind, min_ddex: minDdex };
      }
    }
  });
}

/** Where the price should be after `done` of `total` swaps: two swings up and down by SWING. */
export function targetPrice(startPrice: number, done: number, total: number): number {
  return startPrice * (1 + SWING * Math.sin((4 * Math.PI * done) / total));
}

export type SwapStep = { side: 'buy' | 'sell'; eth: number };

/**
 * The next swap: towards the target price mostly, the other way one time in four, so levels are
 * crossed both ways and back again; its size in ETH drawn between the bounds.
 */
export function nextSwap(random: () => number, price: number, target: number): SwapStep {
  const towards = price < target ? 'buy' : 'sell';
  const side = random() < 0.25 ? (towards === 'buy' ? 'sell' : 'buy') : towards;
  const eth = MIN_SWAP_ETH + random() * (MAX_SWAP_ETH - MIN_SWAP_ETH);
  return { side, eth: Number(eth.toFixed(4)) };
}
