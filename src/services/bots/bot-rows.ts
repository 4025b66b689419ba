import { WINDOW_PRESETS, type BotRule, type WindowMinutes } from '../../domain/bots.ts';
import { BackendError } from '../supabase/types.ts';
import type { Bot, BotRow, BotRun, BotRunRow, BotRunsByBot } from './types.ts';

// The bots tables' rows as the portal's types and back: snake-case kinds and one column per rule
// value in the table, one `BotRule` union here. A row the tables' checks should have refused is
// a BackendError, not a bot the tab cannot show.

/** The columns of a rule: those of its kind set, the others null, so an edit clears the old kind's. */
export type RuleColumns = Pick<BotRow, 'kind' | 'level' | 'move_pct' | 'window_minutes' | 'min_ddex'>;

const NO_RULE = { level: null, move_pct: null, window_minutes: null, min_ddex: null } as const;

export function ruleColumns(rule: BotRule): RuleColumns {
  switch (rule.kind) {
    case 'priceAbove':
      return { ...NO_RULE, kind: 'price_above', level: rule.level };
    case 'priceBelow':
      return { ...NO_RULE, kind: 'price_below', level: rule.level };
    case 'priceMove':
      return { ...NO_RULE, kind: 'price_move', move_pct: rule.movePct, window_minutes: rule.windowMinutes };
    case 'largeSwap':
      return { ...NO_RULE, kind: 'large_swap', min_ddex: rule.minDdex };
  }
}

/**
 * A numeric column's value. PostgREST sends a number; the local stack's REST sends a numeric whose
 * text a number cannot hold exactly as that text, so both are read.
 */
function numberOf(value: number | string | null, column: string): number {
  const number = typeof value === 'string' ? Number(value) : value;
  if (number === null || !Number.isFinite(number)) {
    throw new BackendError(`The backend answered with a bot whose ${column} is not a number`);
  }
  return number;
}

function ruleOf(row: BotRow): BotRule {
  switch (row.kind) {
    case 'price_above':
      return { kind: 'priceAbove', level: numberOf(row.level, 'level') };
    case 'price_below':
      return { kind: 'priceBelow', level: numberOf(row.level, 'level') };
    case 'price_move': {
      const windowMinutes = numberOf(row.window_minutes, 'window_minutes');
      if (!(WINDOW_PRESETS as readonly number[]).includes(windowMinutes)) {
        throw new BackendError(`The backend answered with a bot watching a ${windowMinutes}-minute window`);
      }
      return {
        kind: 'priceMove',
        movePct: numberOf(row.move_pct, 'move_pct'),
        windowMinutes: windowMinutes as WindowMinutes,
      };
    }
    case 'large_swap':
      return { kind: 'largeSwap', minDdex: numberOf(row.min_ddex, 'min_ddex') };
    default:
      throw new BackendError(`The backend answered with a bot of an unknown kind (${row.kind})`);
  }
}

export function toBot(row: BotRow): Bot {
  if (row.status !== 'active' && row.status !== 'paused') {
    throw new BackendError(`The backend answered with a bot whose status is ${row.status}`);
  }
  return {
    id: row.id,
    name: row.name,
    rule: ruleOf(row),
    cooldownMinutes: numberOf(row.cooldown_minutes, 'cooldown_minutes'),
    status: row.status,
    lastFiredAt: row.last_fired_at,
    createdAt: row.created_at,
  };
}

/** The columns the tab reads of a run. */
export const RUN_COLUMNS = 'id, bot_id, tx_hash, block_time, price_before, price_after, ddex_amount, side';
export type RunColumns = Pick<
  BotRunRow,
  'id' | 'bot_id' | 'tx_hash' | 'block_time' | 'price_before' | 'price_after' | 'ddex_amount' | 'side'
>;

export function toRun(row: RunColumns): BotRun {
  if (row.side !== 'buy' && row.side !== 'sell') {
    throw new BackendError(`The backend answered with a run whose side is ${row.side}`);
  }
  return {
    id: row.id,
    botId: row.bot_id,
    txHash: row.tx_hash,
    blockTime: row.block_time,
    priceBefore: numberOf(row.price_before, 'price_before'),
    priceAfter: numberOf(row.price_after, 'price_after'),
    ddexAmount: numberOf(row.ddex_amount, 'ddex_amount'),
    side: row.side,
  };
}

/** Runs, newest first, grouped by bot with at most `perBot` each. */
export function groupRuns(runs: readonly BotRun[], perBot: number): BotRunsByBot {
  const grouped: Record<string, BotRun[]> = {};
  for (const run of runs) {
    const list = (grouped[run.botId] ??= []);
    if (list.length < perBot) list.push(run);
  }
  return grouped;
}
