import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../_shared/database.types.ts';

// The one write of market-bots: public.evaluate_market_swap, which in one transaction records the
// swap's price, finds every active bot whose rule it satisfies outside its cooldown, and records
// one run and one notification per firing, keyed by (bot, tx, Swap log) so a repeat adds nothing.

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
};

/** How many bots fired for the swap; 0 for a swap evaluated before. */
export type EvaluateSwap = (swap: SwapEvaluation) => Promise<number>;

export function evaluator(supabase: SupabaseClient<Database>): EvaluateSwap {
  return async (swap) => {
    const { data, error } = await supabase.rpc('evaluate_market_swap', swap);
    if (error) throw new Error(`evaluating the swap failed: ${error.message}`);
    if (typeof data !== 'number' || !Number.isSafeInteger(data) || data < 0) {
      throw new Error(`evaluate_market_swap answered ${JSON.stringify(data)}, not a count`);
    }
    return data;
  };
}
