import { describe, expect, it } from 'vitest';
import { dexCopy } from '../../../src/copy/dex.ts';
import type { Holdings, Quote } from '../../../src/domain/dex.ts';
import {
  amountBlank,
  balanceText,
  formProblem,
  highSlippageWords,
  impactLevel,
  insufficientBalance,
  minimumReceived,
  needsApproval,
  parseAmountIn,
  parseSlippage,
  poolFeeText,
  quoteFigures,
  slippageNeedsConfirmation,
  slippageRefused,
  slippageWarning,
  swapOrder,
} from '../../../src/machines/trading/swap-checks.ts';
import type { SwapContext } from '../../../src/machines/trading/swap-types.ts';

// The swap form's checks as a user meets them: what is refused and in which words, when the
// slippage tolerance warns or refuses, what the router is asked to guarantee, and the figures
// shown under a quote.

const E18 = 10n ** 18n;
const holdings = (eth: bigint, token: bigint, allowance: bigint): Holdings => ({ eth, token, allowance });
const form = {
  side: 'buy' as const,
  amountText: '1',
  slippageText: '0.5',
  deadlineMinutes: 20,
};

describe('the amount', () => {
  it('is read in whole ETH or DDEX, 18 decimals', () => {
    expect(parseAmountIn('1.5', 'buy')).toEqual({ raw: (3n * E18) / 2n });
    expect(parseAmountIn(' .25 ', 'sell')).toEqual({ raw: E18 / 4n });
  });

  it('is refused with words that say why, naming the asset paid', () => {
    expect(parseAmountIn('abc', 'buy')).toEqual({ problem: dexCopy.amountInvalid });
    expect(parseAmountIn('-1', 'buy')).toEqual({ problem: dexCopy.amountInvalid });
    expect(parseAmountIn('0', 'buy')).toEqual({ problem: dexCopy.amountTooSmall('ETH') });
    expect(parseAmountIn('0.0000000000000000001', 'sell')).toEqual({
      problem: dexCopy.amountTooSmall('DDEX'),
    });
    expect(parseAmountIn('1.0000000000000000001', 'buy')).toEqual({ problem: dexCopy.amountTooManyDecimals });
  });
});

describe('the slippage tolerance', () => {
  it('is a percentage with at most two decimals, read in basis points', () => {
    expect(parseSlippage('0.5')).toBe(50);
    expect(parseSlippage('1')).toBe(100);
    expect(parseSlippage('.25')).toBe(25);
    expect(parseSlippage('.5')).toBe(50);
    expect(parseSlippage('50.01')).toBe(5001);
    expect(parseSlippage(' 2 ')).toBe(200);
    expect(parseSlippage('50.00')).toBe(5000);
    expect(parseSlippage('0')).toBe(0);
    for (const text of ['', '.', '0.123', '-1', 'abc', '1e2', '1,5'])
      expect(parseSlippage(text), text).toBeNull();
  });

  it('warns above 1 % and refuses above 50 %', () => {
    const at = (slippageText: string) => ({
      warn: slippageWarning({ slippageText }),
      refuse: slippageRefused({ slippageText }),
    });
    expect(at('1')).toEqual({ warn: false, refuse: false });
    expect(at('1.01')).toEqual({ warn: true, refuse: false });
    expect(at('50')).toEqual({ warn: true, refuse: false });
    expect(at('50.01')).toEqual({ warn: false, refuse: true });
    expect(at('x')).toEqual({ warn: false, refuse: false });
  });

  it('asks for a confirmation above 5 % and up to 50 %', () => {
    const asks = (slippageText: string) => slippageNeedsConfirmation({ slippageText });
    expect(asks('5')).toBe(false);
    expect(asks('5.00')).toBe(false);
    expect(asks('5.01')).toBe(true);
    expect(asks('10')).toBe(true);
    expect(asks('50')).toBe(true);
    // Past 50 % the swap is refused: nothing to confirm.
    expect(asks('50.01')).toBe(false);
    expect(asks('x')).toBe(false);
  });

  it('words the confirmation with the tolerance and the least output it accepts', () => {
    const quote: Quote = {
      side: 'buy',
      amountIn: E18,
      amountOut: 2000n * E18,
      priceImpactBps: 10,
      pool: { reserveEth: 1n, reserveToken: 1n, blockNumber: 1n },
    };
    expect(highSlippageWords({ slippageText: ' 12.5 ', quote })).toEqual({
      title: dexCopy.highSlippageTitle(dexCopy.percent('12.5')),
      description: dexCopy.highSlippageDescription('1750 DDEX'),
    });
    expect(
      highSlippageWords({ slippageText: '10', quote: { ...quote, side: 'sell', amountOut: E18 } }),
    ).toEqual({
      title: dexCopy.highSlippageTitle(dexCopy.percent('10')),
      description: dexCopy.highSlippageDescription('0.9 ETH'),
    });
  });

  it('sets the least output accepted: the quote less the tolerance, rounded down', () => {
    expect(minimumReceived(1000n, 50)).toBe(995n);
    expect(minimumReceived(999n, 50)).toBe(994n);
    expect(minimumReceived(1000n, 0)).toBe(1000n);
    expect(minimumReceived(1000n, 12_000)).toBe(0n);
  });
});

describe('the form', () => {
  it('names the first field refused: the amount when typed, then the slippage, then the deadline', () => {
    expect(formProblem(form)).toBeNull();
    expect(formProblem({ ...form, amountText: '' })).toBeNull();
    // Spaces alone are no amount yet: nothing to refuse.
    expect(amountBlank({ amountText: '   ' })).toBe(true);
    expect(formProblem({ ...form, amountText: '   ' })).toBeNull();
    expect(formProblem({ ...form, amountText: 'x', slippageText: 'y', deadlineMinutes: 0 })).toBe(
      dexCopy.amountInvalid,
    );
    expect(formProblem({ ...form, slippageText: 'y', deadlineMinutes: 0 })).toBe(dexCopy.slippageInvalid);
    expect(formProblem({ ...form, amountText: '', slippageText: 'y' })).toBe(dexCopy.slippageInvalid);
    for (const minutes of [0, 4321, 1.5, Number.NaN])
      expect(formProblem({ ...form, deadlineMinutes: minutes }), String(minutes)).toBe(
        dexCopy.deadlineInvalid,
      );
    expect(formProblem({ ...form, deadlineMinutes: 1 })).toBeNull();
    expect(formProblem({ ...form, deadlineMinutes: 4320 })).toBeNull();
  });

  it('finds a buy above the ETH held and a sale above the DDEX held', () => {
    const held = holdings(E18, 5n * E18, 0n);
    expect(insufficientBalance({ side: 'buy', amountText: '1', holdings: held })).toBe(false);
    expect(insufficientBalance({ side: 'buy', amountText: '1.01', holdings: held })).toBe(true);
    expect(insufficientBalance({ side: 'sell', amountText: '5', holdings: held })).toBe(false);
    expect(insufficientBalance({ side: 'sell', amountText: '6', holdings: held })).toBe(true);
    expect(insufficientBalance({ side: 'buy', amountText: '9', holdings: null })).toBe(false);
  });

  it('asks for an approval only for a sale above the allowance', () => {
    const held = holdings(E18, 5n * E18, 2n * E18);
    expect(needsApproval({ side: 'sell', amountText: '2', holdings: held })).toBe(false);
    expect(needsApproval({ side: 'sell', amountText: '2.5', holdings: held })).toBe(true);
    expect(needsApproval({ side: 'buy', amountText: '2.5', holdings: held })).toBe(false);
    expect(needsApproval({ side: 'sell', amountText: '2.5', holdings: null })).toBe(false);
  });

  it("shows the balance of what is paid under 'You pay'", () => {
    const held = holdings((3n * E18) / 2n, 250n * E18, 0n);
    expect(balanceText('buy', held)).toBe(dexCopy.balance('1.5 ETH'));
    expect(balanceText('sell', held)).toBe(dexCopy.balance('250 DDEX'));
    expect(balanceText('buy', null)).toBeNull();
  });

  it("fixes the order 'Swap' sends: the amount and the quote less the tolerance", () => {
    const quote: Quote = {
      side: 'sell',
      amountIn: 2n * E18,
      amountOut: 1000n,
      priceImpactBps: 10,
      pool: { reserveEth: 1n, reserveToken: 1n, blockNumber: 1n },
    };
    const context = {
      ...form,
      side: 'sell',
      amountText: '2',
      slippageText: '2',
      deadlineMinutes: 5,
      quote,
    } as SwapContext;
    expect(swapOrder(context)).toEqual({
      side: 'sell',
      amountIn: 2n * E18,
      minAmountOut: 980n,
      deadlineMinutes: 5,
    });
  });
});

describe('the figures under a quote', () => {
  const quote: Quote = {
    side: 'buy',
    amountIn: E18,
    amountOut: 1990n * E18,
    priceImpactBps: 42,
    pool: { reserveEth: 100n * E18, reserveToken: 200_000n * E18, blockNumber: 3n },
  };

  it('shows what is received, the minimum, the price impact and how bad it is', () => {
    expect(quoteFigures(quote, '0.5')).toEqual({
      amountOut: '1990 DDEX',
      amountOutValue: '1990',
      minimumReceived: '1980.05 DDEX',
      priceImpact: dexCopy.percent('0.42'),
      impact: 'low',
      impactWords: dexCopy.impact.low,
    });
    expect(quoteFigures({ ...quote, side: 'sell', amountOut: E18 / 2n }, 'x')).toMatchObject({
      amountOut: '0.5 ETH',
      minimumReceived: null,
    });
  });

  it('grades the price impact at 1 %, 3 % and 15 %', () => {
    expect([99, 100, 299, 300, 1499, 1500].map(impactLevel)).toEqual([
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'severe',
    ]);
  });

  it("shows the pool's fee", () => {
    expect(poolFeeText(30)).toBe('0.3 %');
  });
});
