import type { SwapSide } from './dex.ts';

// Trading bots as plain data (docs/product.md#trading-bots): what the bots service
// (src/services/bots/types.ts) answers and the bots machine carries. A bot watches the DDEX/WETH
// market on the server and notifies its owner; it never trades. Prices are ETH per DDEX.
//
// The bounds below are the checks of the `bots` table (supabase/migrations/20261201000001_market_bots.sql):
// the form refuses what the database would, so a refusal reads as a problem of one field and not
// as a failed request.

/** The moves a price-move bot may watch over, in minutes: 15 min to 24 h. */
export const WINDOW_PRESETS = [15, 30, 60, 240, 720, 1440] as const;
export type WindowMinutes = (typeof WINDOW_PRESETS)[number];

/** A new bot's cooldown: after firing it stays silent this long. */
export const DEFAULT_COOLDOWN_MINUTES = 15;
/** How many bots one user may have. */
export const MAX_BOTS = 25;

export const BOT_BOUNDS = {
  /** Characters of the name, after trimming (code points, as Postgres counts them). */
  name: { min: 1, max: 60 },
  /** A price move, in percent. */
  movePct: { min: 0.1, max: 1000 },
  /** Whole minutes. */
  cooldownMinutes: { min: 1, max: 1440 },
  /**
   * A large-swap rule's size in DDEX: the project's floor (bot_settings.large_swap_min_ddex as the
   * migration sets it), which the server enforces too, so nobody has every small swap fire a bot.
   */
  minDdex: { min: 1000 },
} as const;

/** How many runs the tab reads (the newest, across the user's bots), and how many it keeps per bot. */
export const RUNS_READ = 50;
export const RUNS_PER_BOT = 5;

/** One rule per bot. */
export type BotRule =
  /** The price crosses above `level` (before < level ≤ after). */
  | { kind: 'priceAbove'; level: number }
  /** The price crosses below `level` (before > level ≥ after). */
  | { kind: 'priceBelow'; level: number }
  /** The price moves by at least `movePct` % within the last `windowMinutes`, either way. */
  | { kind: 'priceMove'; movePct: number; windowMinutes: WindowMinutes }
  /** A single swap moves at least `minDdex` DDEX, bought or sold. */
  | { kind: 'largeSwap'; minDdex: number };

export type BotRuleKind = BotRule['kind'];

export const BOT_RULE_KINDS = [
  'priceAbove',
  'priceBelow',
  'priceMove',
  'largeSwap',
] as const satisfies readonly BotRuleKind[];

export type BotStatus = 'active' | 'paused';

export type Bot = {
  id: string;
  name: string;
  rule: BotRule;
  cooldownMinutes: number;
  status: BotStatus;
  /** ISO time of the last firing, or null when it never fired. */
  lastFiredAt: string | null;
  createdAt: string;
};

/** One firing of a bot: the swap that met its rule. */
export type BotRun = {
  id: string;
  botId: string;
  txHash: string;
  /** ISO time of the swap's block. */
  blockTime: string;
  priceBefore: number;
  priceAfter: number;
  /** DDEX bought or sold by the swap. */
  ddexAmount: number;
  side: SwapSide;
};

/** Runs by bot id, newest first, at most RUNS_PER_BOT each. */
export type BotRunsByBot = Readonly<Record<string, readonly BotRun[]>>;

/** What a user sets on a bot; the service turns it into a row. */
export type BotFields = { name: string; rule: BotRule; cooldownMinutes: number };

/**
 * The bot form as typed: every value is the field's text, so the form shows what the user typed
 * until it is checked (src/machines/bots/bot-checks.ts). Only the fields of the chosen kind are read.
 */
export type BotDraft = {
  name: string;
  kind: BotRuleKind;
  level: string;
  movePct: string;
  windowMinutes: string;
  minDdex: string;
  cooldownMinutes: string;
};

export type BotDraftField = keyof BotDraft;

/** The form as it opens for a new bot. */
export const EMPTY_BOT_DRAFT: BotDraft = {
  name: '',
  kind: 'priceAbove',
  level: '',
  movePct: '',
  windowMinutes: '60',
  minDdex: '',
  cooldownMinutes: String(DEFAULT_COOLDOWN_MINUTES),
};
