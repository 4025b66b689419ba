import { decodeSwap, decodeSync } from '../_shared/swap-log.ts';
import { formatUnits, type Receipt } from '../_shared/transfer-log.ts';

// What each swap on the DDEX/WETH pair did to its price, read from the swap's own receipt: a pair
// emits Sync (its reserves after the call) and then Swap (the amounts in and out) in the same
// call, so the reserves before are the reserves after minus what came in plus what went out,
// exactly. The price needs no state of ours and no historical node state, so a late, repeated
// or out-of-order delivery prices a swap as its first delivery did.

export type Side = 'buy' | 'sell';

export type SwapPrice = {
  /** The Swap log's own index in its block: the swap's key, whichever transfer was delivered. */
  logIndex: number;
  /** ETH per DDEX before and after the swap, as plain decimals (PRICE_DECIMALS places at most). */
  priceBefore: string;
  priceAfter: string;
  /** The DDEX the swap moved, in DDEX (18 decimals), exact. */
  ddexAmount: string;
  /** buy: DDEX out of the pair; sell: DDEX into it. */
  side: Side;
};

/**
 * Places kept of a price, cut off (never rounded up). Enough that two different reserves'
 * ratios differ in the digits kept, at any price a pair of 18-decimal tokens can hold.
 */
export const PRICE_DECIMALS = 40;
const DDEX_DECIMALS = 18;

/**
 * Every Swap of `pair` in the receipt, in log order, priced. A Swap whose previous log is not the
 * pair's Sync is not one UniswapV2Pair emitted, and one without a log index has no key: neither is
 * priced. `wethIs0`: WETH is the pair's token0 (its address sorts before the DDEX contract's).
 */
export function swapPrices(receipt: Receipt, pair: string, wethIs0: boolean): SwapPrice[] {
  const wanted = pair.toLowerCase();
  const prices: SwapPrice[] = [];
  receipt.logs.forEach((log, index) => {
    const swap = decodeSwap(log);
    if (swap?.pair !== wanted || log.logIndex === undefined) return;
    const previous = receipt.logs[index - 1];
    const sync = previous === undefined ? null : decodeSync(previous);
    if (sync?.pair !== wanted) return;
    const after = wethIs0
      ? { weth: sync.reserve0, ddex: sync.reserve1 }
      : { weth: sync.reserve1, ddex: sync.reserve0 };
    const moved = wethIs0
      ? { wethIn: swap.amount0In, wethOut: swap.amount0Out, ddexIn: swap.amount1In, ddexOut: swap.amount1Out }
      : {
          wethIn: swap.amount1In,
          wethOut: swap.amount1Out,
          ddexIn: swap.amount0In,
          ddexOut: swap.amount0Out,
        };
    const before = {
      weth: after.weth - moved.wethIn + moved.wethOut,
      ddex: after.ddex - moved.ddexIn + moved.ddexOut,
    };
    // An empty side has no price; UniswapV2Pair never swaps against one, so this is no pair's log.
    if (before.ddex <= 0n || after.ddex <= 0n || before.weth < 0n) return;
    const net = moved.ddexOut - moved.ddexIn;
    prices.push({
      logIndex: log.logIndex,
      priceBefore: ratio(before.weth, before.ddex),
      priceAfter: ratio(after.weth, after.ddex),
      ddexAmount: formatUnits(net < 0n ? -net : net, DDEX_DECIMALS),
      side: net > 0n ? 'buy' : 'sell',
    });
  });
  return prices;
}

/**
 * What a transaction did to the pair's price, for the price rules: from before its first swap to
 * after its last, under the last Swap's log; its DDEX the net amount, bought when more came out
 * of the pair than went in. A swap and a swap back in one transaction (a contract's, a multicall)
 * so move the price by what is left of them, never by the swing between. `swaps` in log order,
 * at least one.
 */
export function transactionMove(swaps: readonly SwapPrice[]): SwapPrice {
  const first = swaps[0];
  const last = swaps.at(-1);
  if (first === undefined || last === undefined) throw new Error('a transaction’s move needs a swap');
  // DDEX out of the pair, in its smallest unit: positive for a buy.
  const net = swaps.reduce((sum, swap) => {
    const amount = units(swap.ddexAmount, DDEX_DECIMALS);
    return swap.side === 'buy' ? sum + amount : sum - amount;
  }, 0n);
  return {
    logIndex: last.logIndex,
    priceBefore: first.priceBefore,
    priceAfter: last.priceAfter,
    ddexAmount: formatUnits(net < 0n ? -net : net, DDEX_DECIMALS),
    // No DDEX moved in all: the side the price went.
    side:
      net > 0n ||
      (net === 0n && units(last.priceAfter, PRICE_DECIMALS) > units(first.priceBefore, PRICE_DECIMALS))
        ? 'buy'
        : 'sell',
  };
}

/** A plain decimal of at most `decimals` places (as formatUnits writes it) in its smallest unit. */
function units(decimal: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole + fraction.padEnd(decimals, '0'));
}

/** numerator / denominator as a plain decimal, cut off after PRICE_DECIMALS places. */
export function ratio(numerator: bigint, denominator: bigint): string {
  const scaled = (numerator * 10n ** BigInt(PRICE_DECIMALS)) / denominator;
  return formatUnits(scaled, PRICE_DECIMALS);
}
