import type { SupabaseClient } from '@supabase/supabase-js';
import { ADDRESS } from '../_shared/address.ts';
import type { Database } from '../_shared/database.types.ts';
import { reply } from '../_shared/json.ts';
import { logError } from '../_shared/log.ts';
import { createRpcClient } from '../_shared/rpc.ts';
import { readSignedEvent } from '../_shared/signed-event.ts';
import { marketOf } from '../_shared/uniswap-pair.ts';
import { evaluateAll, evaluator, type EvaluateBatch, type Rules } from './evaluate.ts';
import { amountText, priceText } from './price-text.ts';
import { blockTime, readReceipt } from './swap-receipt.ts';
import { swapPrices, transactionMove, type SwapPrice } from './swap-prices.ts';

// market-bots receives Tatum address-event webhooks for the DDEX/WETH pair and runs the users'
// bots against each swap. A swap reaches the pair's subscription as two token transfers (WETH in
// and DDEX out, or the reverse); neither carries the price, and both name the same swap. So the
// delivery is trusted for its transaction hash only: the receipt is read from the chain, and every
// Swap of the pair in it is evaluated under its own log index, whichever transfer was delivered
// and however often, a batch of bots at a time; the price rules see the transaction's move as a
// whole, once. evaluate_market_swap makes a repeat add nothing.
// It is a plain Web-API handler so the same module runs on Supabase Edge Functions (Deno, see
// index.ts) and on the local stack (Node).

export type MarketBotsDeps = {
  /** The secret Tatum signs x-payload-hash with. */
  webhookSecret: string;
  /** A service-role client: only the service role may evaluate a swap. */
  supabase: SupabaseClient<Database>;
  /** The JSON-RPC endpoint of the chain (RPC_URL): receipts, blocks and the market. */
  rpcUrl: string;
  /** The market's UniswapV2Router02 (UNISWAP_V2_ROUTER); the pair and WETH are read from it. */
  uniswapRouter: string;
  /** The DDEX contract (DDEX_TOKEN_ADDRESS). */
  tokenAddress: string;
  /** Tatum's name of the one chain whose deliveries count (TATUM_CHAIN), e.g. 'ethereum-sepolia'. */
  chain: string;
  fetch?: typeof fetch;
  /** Stands in for one batch of evaluate_market_swap (tests); by default the rpc through `supabase`. */
  evaluate?: EvaluateBatch;
};

const nothing = (headers: Record<string, string> = {}) =>
  reply(200, { received: true, swaps: 0, fired: 0 }, headers);

export function createMarketBotsHandler(deps: MarketBotsDeps): (request: Request) => Promise<Response> {
  // Fail at start-up, not on the first delivery: an empty secret would make every signature check moot.
  if (!deps.webhookSecret) throw new Error('market-bots needs a webhook secret');
  if (!ADDRESS.test(deps.uniswapRouter)) {
    throw new Error('market-bots: the Uniswap V2 router must be an address (0x and 40 hex digits)');
  }
  if (!ADDRESS.test(deps.tokenAddress)) {
    throw new Error('market-bots: the DDEX token must be an address (0x and 40 hex digits)');
  }
  if (!deps.rpcUrl) throw new Error('market-bots needs the chain RPC URL to read the market’s swaps');
  if (!deps.chain) throw new Error('market-bots needs Tatum’s name of the chain its deliveries come from');
  const { webhookSecret, chain } = deps;
  const rpc = createRpcClient(deps.rpcUrl, deps.fetch ? { fetch: deps.fetch } : {});
  const token = deps.tokenAddress.toLowerCase();
  const market = marketOf(rpc, deps.uniswapRouter, token);
  const evaluate = deps.evaluate ?? evaluator(deps.supabase);

  return async (request) => {
    const read = await readSignedEvent(request, { name: 'market-bots', secret: webhookSecret, chain });
    if (read.kind === 'refused') return read.response;
    if (read.kind === 'skipped') {
      console.warn(`[market-bots] not evaluated: ${read.reason}`);
      return nothing();
    }
    const { event } = read;
    // Only the pair's token transfers are legs of a swap; the pair sends no transaction of its own.
    if (event.type !== 'fungible') return nothing();

    const timing = { rpc: 0, evaluate: 0 };
    const timed = async <T>(part: keyof typeof timing, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        timing[part] += performance.now() - started;
      }
    };
    const serverTiming = () => ({
      'server-timing': `rpc;dur=${timing.rpc.toFixed(1)}, evaluate;dur=${timing.evaluate.toFixed(1)}`,
    });
    try {
      const found = await timed('rpc', market);
      if (found === null || event.address.toLowerCase() !== found.pair) {
        // A subscription of another address points here: a setting or a subscription is wrong.
        console.warn(
          `[market-bots] not evaluated: ${event.address} is not the DDEX/WETH pair ${found?.pair ?? '(none yet)'}`,
        );
        return nothing(serverTiming());
      }
      const txHash = event.txId.toLowerCase();
      const { receipt, blockNumber } = await timed('rpc', () => readReceipt(rpc, txHash));
      // A reverted transaction has no logs: it moved nothing and swapped nothing.
      if (receipt.status === 'reverted') return nothing(serverTiming());
      // WETH is token0 when its address sorts first, as the factory orders every pair.
      const swaps = swapPrices(receipt, found.pair, found.weth < token);
      // Liquidity added or taken out moves the price too, but no bot watches it: no Swap, nothing to do.
      if (swaps.length === 0) return nothing(serverTiming());
      const time = await timed('rpc', () => blockTime(rpc, blockNumber));
      // A swap alone is weighed for every rule. Several in one transaction are weighed each for
      // its size, and together, once, for the price: a swap and a swap back in one transaction
      // never fire a price bot on the swing between them.
      const weighings: { swap: SwapPrice; rules: Rules }[] =
        swaps.length === 1
          ? swaps.map((swap) => ({ swap, rules: 'all' }))
          : [
              ...swaps.map((swap) => ({ swap, rules: 'size' as const })),
              { swap: transactionMove(swaps), rules: 'price' },
            ];
      let fired = 0;
      for (const { swap, rules } of weighings) {
        fired += await timed('evaluate', () =>
          evaluateAll(evaluate, {
            p_pair: found.pair,
            p_tx_hash: txHash,
            p_log_index: swap.logIndex,
            p_block_number: blockNumber,
            p_block_time: time,
            p_price_before: swap.priceBefore,
            p_price_after: swap.priceAfter,
            p_ddex_amount: swap.ddexAmount,
            p_side: swap.side,
            p_price_before_text: priceText(swap.priceBefore),
            p_price_after_text: priceText(swap.priceAfter),
            p_amount_text: amountText(swap.ddexAmount),
            p_rules: rules,
          }),
        );
      }
      return reply(200, { received: true, swaps: swaps.length, fired }, serverTiming());
    } catch (error) {
      // A non-2xx answer makes Tatum deliver again; evaluating is idempotent, so that is safe.
      logError('market-bots', 'evaluating failed', error);
      return reply(
        500,
        { error: 'Evaluation failed', message: 'The swap could not be evaluated; retry later' },
        serverTiming(),
      );
    }
  };
}
