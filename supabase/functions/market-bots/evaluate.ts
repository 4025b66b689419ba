import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../_shared/database.types.ts';

// The one write of market-bots: public.evaluate_market_swap, which records the swap's price and
// weighs it against one batch of the active bots at a time (bot_settings.evaluation_batch_size),
// recording one run and one notification per firing, keyed by (bot, tx, Swap log) so a repeat
// adds nothing. Each batch is a call, so a transaction of its own: one swap never writes for
// every bot of the project in one transaction, and a delivery that failed part way is delivered
// again from the first batch, whose bots fired already.

/** Which rules a call weighs: all, the price rules (level crossings, moves) or the large-swap rule. */
export type Rules = 'all' | 'price' | 'size';

export type SwapEvaluation = {
  p_pair: string;
  p_tx_hash: string;
  p_log_index: number;
  p_block_number: number;
  p_block_time: string;
  /** numeric: passed as decimal text so no digit is lost on the way. */
  p_price_before: string;
  p_price_after: string;
  p_ddex_amount: string;
  p_side: 'buy' | 'sell';
  /** What titles and messages show (price-text.ts). */
  p_price_before_text: string;
  p_price_after_text: string;
  p_amount_text: string;
  p_rules: Rules;
  /** The bot the previous batch ended at; null for the first batch. */
  p_after_bot: string | null;
};

/** How many bots a batch fired (0 for a batch evaluated before) and the bot it ended at (null: none left). */
export type EvaluatedBatch = { fired: number; nextBot: string | null };

/** One batch of an evaluation. */
export type EvaluateBatch = (swap: SwapEvaluation) => Promise<EvaluatedBatch>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function evaluator(supabase: SupabaseClient<Database>): EvaluateBatch {
  return async (swap) => {
    const { data, error } = await supabase.rpc('evaluate_market_swap', swap);
    if (error) throw new Error(`evaluating the swap failed: ${error.message}`);
    const row: unknown = Array.isArray(data) && data.length === 1 ? data[0] : null;
    const { fired, next_bot: nextBot } = (row ?? {}) as { fired?: unknown; next_bot?: unknown };
    if (
      typeof fired !== 'number' ||
      !Number.isSafeInteger(fired) ||
      fired < 0 ||
      !(nextBot === null || (typeof nextBot === 'string' && UUID.test(nextBot)))
    ) {
      throw new Error(`evaluate_market_swap answered ${JSON.stringify(data)}, not one batch`);
    }
    return { fired, nextBot };
  };
}

/**
 * Every batch of one evaluation, one after another, from the first; how many bots fired. A batch
 * must end past where it started (bot ids only grow), or the evaluation fails rather than asking
 * forever.
 */
export async function evaluateAll(
  evaluate: EvaluateBatch,
  swap: Omit<SwapEvaluation, 'p_after_bot'>,
): Promise<number> {
  let fired = 0;
  let after: string | null = null;
  do {
    const batch: EvaluatedBatch = await evaluate({ ...swap, p_after_bot: after });
    fired += batch.fired;
    if (batch.nextBot !== null && after !== null && batch.nextBot <= after) {
      throw new Error(`evaluate_market_swap ended a batch at ${batch.nextBot}, not past ${after}`);
    }
    after = batch.nextBot;
  } while (after !== null);
  return fired;
}
