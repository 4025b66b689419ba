import { describe, expect, it } from 'vitest';
import { dexCopy } from '../../../src/copy/dex.ts';
import type { PricePoint, Trade } from '../../../src/domain/dex.ts';
import {
  amountText,
  assetsOf,
  bpsText,
  chartSeries,
  chartTimeRange,
  decimalText,
  displayAmount,
  marketFigures,
  priceText,
  tradeRows,
} from '../../../src/machines/trading/market-figures.ts';

// The market card's figures as a reader sees them: amounts, reserves, the price both ways, the
// trade list and the chart.

const E18 = 10n ** 18n;
const HASH = `0x${'ab'.repeat(32)}` as const;

describe('amounts', () => {
  it('writes the exact decimal text of an amount in its smallest unit', () => {
    expect(decimalText((3n * E18) / 2n)).toBe('1.5');
    expect(decimalText(0n)).toBe('0');
    expect(decimalText(1n)).toBe('0.000000000000000001');
    expect(decimalText(1234n * E18)).toBe('1234');
    expect(decimalText(1234n, 2)).toBe('12.34');
  });

  it('shows four decimals from 1 up and six significant digits below, rounded down', () => {
    expect(displayAmount(1_234_567_890_123_456_789_012n)).toBe('1234.5678');
    expect(displayAmount(123_456_789_012_345n)).toBe('0.000123456');
    expect(displayAmount(E18)).toBe('1');
    expect(displayAmount(E18 + 10n ** 13n)).toBe('1');
    expect(displayAmount(1n)).toBe('0.000000000000000001');
    expect(displayAmount(0n)).toBe('0');
    // Never more than there is: 0.99999999 stays below 1.
    expect(displayAmount(E18 - 1n)).toBe('0.999999');
  });

  it('keeps four decimals for an amount whose whole part ends in zero', () => {
    // 20000.123456789 DDEX: the zero ending 20000 is no leading zero of a fraction.
    expect(displayAmount(20_000_123_456_789n * 10n ** 9n)).toBe('20000.1234');
    expect(displayAmount(10n * E18 + 10n ** 12n)).toBe('10');
  });

  it('keeps the sign of a negative amount', () => {
    expect(decimalText((-3n * E18) / 2n)).toBe('-1.5');
    expect(decimalText(-1n)).toBe('-0.000000000000000001');
    expect(displayAmount((-3n * E18) / 2n)).toBe('-1.5');
    // Below one, six significant digits, as for a positive amount.
    expect(displayAmount(-123_456_789_012_345n)).toBe('-0.000123456');
  });

  it('names the asset', () => {
    expect(amountText(E18 / 2n, 'ETH')).toBe(dexCopy.amountOf('0.5', dexCopy.eth));
    expect(amountText(2000n * E18, 'DDEX')).toBe('2000 DDEX');
  });

  it('pays ETH and receives DDEX on a buy, the other way round on a sale', () => {
    expect(assetsOf('buy')).toEqual({ pays: 'ETH', receives: 'DDEX' });
    expect(assetsOf('sell')).toEqual({ pays: 'DDEX', receives: 'ETH' });
  });

  it('writes basis points as a percentage', () => {
    expect(bpsText(30)).toBe('0.3');
    expect(bpsText(125)).toBe('1.25');
    expect(bpsText(5)).toBe('0.05');
    expect(bpsText(100)).toBe('1');
    expect(bpsText(5000)).toBe('50');
    expect(bpsText(0)).toBe('0');
    expect(bpsText(-3)).toBe('0');
  });

  it('writes a price to six significant digits without an exponent', () => {
    expect(priceText(0.000123456789)).toBe('0.000123457');
    expect(priceText(1234.5678)).toBe('1234.57');
    expect(priceText(2)).toBe('2');
    expect(priceText(0.0005)).toBe('0.0005');
    expect(priceText(1e-7)).toBe('0.0000001');
    expect(priceText(1e-30)).toBe('0');
    expect(priceText(0)).toBe('0');
    expect(priceText(Number.NaN)).toBe('0');
    expect(priceText(-0.0005)).toBe('0');
    expect(priceText(Number.POSITIVE_INFINITY)).toBe('0');
  });

  it('writes a large price whole, keeping the zeros of its integer part', () => {
    expect(priceText(250_000)).toBe('250000');
    expect(priceText(123_456.7)).toBe('123457');
  });
});

describe('the pool', () => {
  it('shows both reserves and the mid price both ways', () => {
    const figures = marketFigures({ reserveEth: 10n * E18, reserveToken: 20_000n * E18, blockNumber: 7n });
    expect(figures).toEqual({
      reserveEth: '10 ETH',
      reserveToken: '20000 DDEX',
      ethPerDdex: '0.0005',
      ddexPerEth: '2000',
    });
    expect(dexCopy.priceOfDdex(figures.ethPerDdex ?? '')).toBe('1 DDEX = 0.0005 ETH');
  });

  it('has no price while a side of the pool is empty', () => {
    expect(marketFigures({ reserveEth: 0n, reserveToken: 0n, blockNumber: 1n })).toEqual({
      reserveEth: '0 ETH',
      reserveToken: '0 DDEX',
      ethPerDdex: null,
      ddexPerEth: null,
    });
  });
});

describe('trades and the chart', () => {
  const trade = (side: Trade['side'], amountIn: bigint, amountOut: bigint): Trade => ({
    id: `${HASH}:1`,
    hash: HASH,
    blockNumber: 9n,
    timestamp: 1_700_000_000,
    side,
    amountIn,
    amountOut,
    price: 0.000505,
  });

  it('lists each trade with its side, what went in and out, and its price', () => {
    expect(tradeRows([trade('buy', E18 / 2n, 990n * E18), trade('sell', 1000n * E18, E18 / 2n)])).toEqual([
      {
        id: `${HASH}:1`,
        hash: HASH,
        time: 1_700_000_000_000,
        side: dexCopy.sides.buy,
        amountIn: '0.5 ETH',
        amountOut: '990 DDEX',
        price: '0.000505',
      },
      {
        id: `${HASH}:1`,
        hash: HASH,
        time: 1_700_000_000_000,
        side: dexCopy.sides.sell,
        amountIn: '1000 DDEX',
        amountOut: '0.5 ETH',
        price: '0.000505',
      },
    ]);
  });

  it('draws the price line with its range, or nothing before the first point', () => {
    expect(chartSeries([])).toBeNull();
    const points: PricePoint[] = [
      { timestamp: 100, blockNumber: 1n, price: 0.0005 },
      { timestamp: 112, blockNumber: 2n, price: 0.00052 },
      { timestamp: 124, blockNumber: 3n, price: 0.00049 },
    ];
    expect(chartSeries(points)).toEqual({
      points: [
        { time: 100_000, price: 0.0005 },
        { time: 112_000, price: 0.00052 },
        { time: 124_000, price: 0.00049 },
      ],
      low: 0.00049,
      high: 0.00052,
      last: '0.00049',
    });
  });
});

describe("the chart's time axis", () => {
  // Block times in seconds, as the chart's time axis holds them: 17:50:00 UTC on 17 January 2026.
  const AT = Date.UTC(2026, 0, 17, 17, 50) / 1000;
  const MINUTE = 60;

  it('spans the ten minutes up to a single point, not the years a lone timestamp would guess', () => {
    expect(chartTimeRange([AT])).toEqual([AT - 10 * MINUTE, AT]);
  });

  it('widens points a minute apart to ten minutes, ending at the last one', () => {
    expect(chartTimeRange([AT - MINUTE, AT])).toEqual([AT - 10 * MINUTE, AT]);
  });

  it('spans points a day apart exactly, from the first to the last', () => {
    expect(chartTimeRange([AT - 24 * 60 * MINUTE, AT - 60 * MINUTE, AT])).toEqual([
      AT - 24 * 60 * MINUTE,
      AT,
    ]);
  });

  it('spans 500 points from the first to the last', () => {
    const times = Array.from({ length: 500 }, (_, index) => AT - (499 - index) * 30);
    expect(chartTimeRange(times)).toEqual([AT - 499 * 30, AT]);
  });

  it('widens 500 points within a few seconds to the ten minutes up to the last one', () => {
    const times = Array.from({ length: 500 }, (_, index) => AT - 499 + index);
    expect(chartTimeRange(times)).toEqual([AT - 10 * MINUTE, AT]);
  });

  it('has no range without a point', () => {
    expect(chartTimeRange([])).toEqual([null, null]);
  });
});
