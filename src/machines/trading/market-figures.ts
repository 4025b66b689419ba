import { dexCopy } from '../../copy/dex.ts';
import type { PoolState, PricePoint, SwapSide, Trade } from '../../domain/dex.ts';

// What the Trading tab shows of the market, as text: amounts, reserves, the price both ways, the
// trade list and the chart's series. Pure functions of the market machine's context, so the view
// only lays them out. ETH and DDEX both have 18 decimals.

const DECIMALS = 18;
const ONE = 10n ** BigInt(DECIMALS);

/** The exact decimal text of an amount in its smallest unit: 1500000000000000000n → '1.5'. */
export function decimalText(raw: bigint, decimals: number = DECIMALS): string {
  const negative = raw < 0n;
  const digits = (negative ? -raw : raw).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * An amount for reading, rounded down so that it never shows more than there is: four digits
 * after the point from 1 up, six significant digits below 1 (0.000123456), nothing trailing.
 */
export function displayAmount(raw: bigint, decimals: number = DECIMALS): string {
  const exact = decimalText(raw, decimals);
  const [whole = '0', fraction = ''] = exact.split('.');
  if (fraction === '') return whole;
  const zeros = /^0*/.exec(fraction)?.[0].length ?? 0;
  const kept = /^-?0$/.test(whole) ? fraction.slice(0, zeros + 6) : fraction.slice(0, 4);
  const trimmed = kept.replace(/0+$/, '');
  return trimmed ? `${whole}.${trimmed}` : whole;
}

/** An amount with its asset, for reading: '0.5 ETH', '1234.5678 DDEX'. */
export function amountText(raw: bigint, asset: 'ETH' | 'DDEX'): string {
  return dexCopy.amountOf(displayAmount(raw), asset === 'ETH' ? dexCopy.eth : dexCopy.ddex);
}

/** Basis points as a percentage's decimal text: 30 → '0.3', 125 → '1.25', 5000 → '50' (none below 0). */
export function bpsText(bps: number): string {
  const value = Math.max(0, Math.round(bps));
  const rest = String(value % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return rest ? `${Math.trunc(value / 100)}.${rest}` : String(value / 100);
}

/** A price held as a number (the chart's, a trade's), to six significant digits, never in exponent form. */
export function priceText(price: number): string {
  if (!Number.isFinite(price) || price <= 0) return '0';
  const magnitude = Math.floor(Math.log10(price));
  const digits = Math.min(Math.max(5 - magnitude, 0), 18);
  const fixed = price.toFixed(digits);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** `numerator / denominator` of two 18-decimal amounts, as an 18-decimal amount; null for an empty side. */
function ratio(numerator: bigint, denominator: bigint): bigint | null {
  return denominator === 0n ? null : (numerator * ONE) / denominator;
}

/** The pool as the market card shows it: both reserves and the mid price both ways. */
export type MarketFigures = {
  reserveEth: string;
  reserveToken: string;
  /** ETH for one DDEX, or null while the pool holds no DDEX. */
  ethPerDdex: string | null;
  /** DDEX for one ETH, or null while the pool holds no ETH. */
  ddexPerEth: string | null;
};

export function marketFigures(pool: PoolState): MarketFigures {
  const ethPerDdex = ratio(pool.reserveEth, pool.reserveToken);
  const ddexPerEth = ratio(pool.reserveToken, pool.reserveEth);
  return {
    reserveEth: amountText(pool.reserveEth, 'ETH'),
    reserveToken: amountText(pool.reserveToken, 'DDEX'),
    ethPerDdex: ethPerDdex === null ? null : displayAmount(ethPerDdex),
    ddexPerEth: ddexPerEth === null ? null : displayAmount(ddexPerEth),
  };
}

/** The assets a side pays and receives. */
export function assetsOf(side: SwapSide): { pays: 'ETH' | 'DDEX'; receives: 'ETH' | 'DDEX' } {
  return side === 'buy' ? { pays: 'ETH', receives: 'DDEX' } : { pays: 'DDEX', receives: 'ETH' };
}

/** One row of the trade list. */
export type TradeRow = {
  id: string;
  hash: string;
  /** Milliseconds since 1970, for the view to show in the reader's time zone. */
  time: number;
  side: string;
  amountIn: string;
  amountOut: string;
  /** ETH per DDEX. */
  price: string;
};

export function tradeRows(trades: readonly Trade[]): TradeRow[] {
  return trades.map((trade) => {
    const { pays, receives } = assetsOf(trade.side);
    return {
      id: trade.id,
      hash: trade.hash,
      time: trade.timestamp * 1000,
      side: dexCopy.sides[trade.side],
      amountIn: amountText(trade.amountIn, pays),
      amountOut: amountText(trade.amountOut, receives),
      price: priceText(trade.price),
    };
  });
}

/** The chart's line: its points (time in ms, ETH per DDEX), the range of the price axis and the last price. */
export type ChartSeries = {
  points: { time: number; price: number }[];
  low: number;
  high: number;
  last: string;
};

/** The chart of the pool's mid price, or null before the first price point. */
export function chartSeries(prices: readonly PricePoint[]): ChartSeries | null {
  const last = prices.at(-1);
  if (!last) return null;
  const values = prices.map((point) => point.price);
  return {
    points: prices.map((point) => ({ time: point.timestamp * 1000, price: point.price })),
    low: Math.min(...values),
    high: Math.max(...values),
    last: priceText(last.price),
  };
}

/**
 * The narrowest span the chart's time axis shows, in seconds. A fresh market has a single price
 * point, or a few within seconds, and their own span is nothing or next to it: uPlot, left to
 * itself, stretches a lone point over 86,400,000 s (its one day counted in milliseconds, on an axis
 * of seconds), and the axis reads 2027, 2028, 2029. Ten minutes reads in minutes, and a burst of
 * trades still shows apart within it.
 */
export const CHART_MIN_WINDOW_S = 10 * 60;

/**
 * The time axis's range for the chart's times (seconds since 1970, as the chart holds them): from
 * the first point to the last, widened back to at least CHART_MIN_WINDOW_S. It always ends at the
 * last point, as it does with many points: the latest price stays at the right edge, where a
 * trader looks for it, and the line grows from the left as trades come.
 */
export function chartTimeRange(times: ArrayLike<number>): [number, number] | [null, null] {
  if (times.length === 0) return [null, null];
  const values = Array.from(times);
  const first = Math.min(...values);
  const last = Math.max(...values);
  return [Math.min(first, last - CHART_MIN_WINDOW_S), last];
}
