import { dexCopy } from '../../copy/dex.ts';
import type { Holdings, Quote, SwapSide } from '../../domain/dex.ts';
import { parseTokenAmount } from '../../domain/token.ts';
import { amountText, assetsOf, bpsText, displayAmount } from './market-figures.ts';
import type { SwapContext, SwapInput, SwapOrder } from './swap-types.ts';

// The swap form's checks and figures (docs/product.md#dex-trading): pure functions of the swap
// machine's context, used by its guards and read by the view, so both judge a form alike.

/** Above this slippage tolerance (1 %) the form warns. */
export const SLIPPAGE_WARNING_BPS = 100;
/** Above this one (5 %) 'Swap' asks the person to confirm the tolerance before the wallet is asked. */
export const SLIPPAGE_CONFIRM_BPS = 500;
/** Above this one (50 %) it refuses to swap. */
export const SLIPPAGE_LIMIT_BPS = 5000;
/** The deadline's range in minutes: up to three days. */
export const DEADLINE_MINUTES = { min: 1, max: 4320 } as const;

/**
 * The form as it opens: a buy, no amount, the defaults a wallet user expects (0.5 % slippage, a
 * 20-minute deadline, an exact approval), and nothing quoted or under way.
 */
export function initialSwapContext(input: SwapInput): SwapContext {
  return {
    expectedChainId: input.expectedChainId,
    side: 'buy',
    amountText: '',
    slippageText: '0.5',
    deadlineMinutes: 20,
    unlimitedApproval: false,
    account: input.account,
    chainId: input.chainId,
    signedIn: input.signedIn,
    quote: null,
    holdings: null,
    call: null,
    order: null,
    hash: null,
    result: null,
    problem: null,
  };
}

type Form = Pick<SwapContext, 'side' | 'amountText' | 'slippageText' | 'deadlineMinutes'>;

/** The amount in, in its smallest unit, or the words refusing it. */
export function parseAmountIn(text: string, side: SwapSide): { raw: bigint } | { problem: string } {
  const parsed = parseTokenAmount(text);
  if ('raw' in parsed) return parsed;
  switch (parsed.problem.code) {
    case 'below-minimum':
      return { problem: dexCopy.amountTooSmall(assetsOf(side).pays) };
    case 'too-many-decimals':
      return { problem: dexCopy.amountTooManyDecimals };
    default:
      return { problem: dexCopy.amountInvalid };
  }
}

/** The slippage tolerance in basis points ('0.5' → 50), or null for text that is no percentage. */
export function parseSlippage(text: string): number | null {
  const match = /^(\d{0,5})(?:\.(\d{0,2}))?$/.exec(text.trim());
  const whole = match?.[1] ?? '';
  const fraction = match?.[2] ?? '';
  if (!match || (whole === '' && fraction === '')) return null;
  return Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
}

export const amountBlank = (form: Pick<Form, 'amountText'>): boolean => form.amountText.trim() === '';

/** The amount in as parsed, or null when it is blank or refused. */
export function amountIn(form: Pick<Form, 'amountText' | 'side'>): bigint | null {
  const parsed = parseAmountIn(form.amountText, form.side);
  return 'raw' in parsed ? parsed.raw : null;
}

/** The first field refused, in plain words, or null: the amount (when typed), the slippage, the deadline. */
export function formProblem(form: Form): string | null {
  if (!amountBlank(form)) {
    const parsed = parseAmountIn(form.amountText, form.side);
    if ('problem' in parsed) return parsed.problem;
  }
  if (parseSlippage(form.slippageText) === null) return dexCopy.slippageInvalid;
  const { min, max } = DEADLINE_MINUTES;
  const minutes = form.deadlineMinutes;
  if (!Number.isInteger(minutes) || minutes < min || minutes > max) return dexCopy.deadlineInvalid;
  return null;
}

/** A slippage tolerance above 1 % and up to 50 %: allowed, with a warning. */
export function slippageWarning(form: Pick<Form, 'slippageText'>): boolean {
  const bps = parseSlippage(form.slippageText);
  return bps !== null && bps > SLIPPAGE_WARNING_BPS && bps <= SLIPPAGE_LIMIT_BPS;
}

/** A slippage tolerance above 50 %: the swap is refused. */
export function slippageRefused(form: Pick<Form, 'slippageText'>): boolean {
  const bps = parseSlippage(form.slippageText);
  return bps !== null && bps > SLIPPAGE_LIMIT_BPS;
}

/** A slippage tolerance above 5 % and up to 50 %: the swap waits for the person's confirmation. */
export function slippageNeedsConfirmation(form: Pick<Form, 'slippageText'>): boolean {
  const bps = parseSlippage(form.slippageText);
  return bps !== null && bps > SLIPPAGE_CONFIRM_BPS && bps <= SLIPPAGE_LIMIT_BPS;
}

/** The least output accepted: the quote less the slippage tolerance, rounded down. */
export function minimumReceived(amountOut: bigint, slippageBps: number): bigint {
  const kept = BigInt(Math.max(0, 10_000 - slippageBps));
  return (amountOut * kept) / 10_000n;
}

type Holding = Pick<SwapContext, 'side' | 'amountText' | 'holdings'>;

/**
 * More than the account holds of what it pays (ETH for a buy, DDEX for a sell); unknown holdings
 * pass. The network fee is not counted: the wallet estimates it and says when ETH is short.
 */
export function insufficientBalance({ side, amountText, holdings }: Holding): boolean {
  const amount = amountIn({ side, amountText });
  if (amount === null || holdings === null) return false;
  return amount > (side === 'buy' ? holdings.eth : holdings.token);
}

/** A sale the router may not take yet: its allowance is below the amount. */
export function needsApproval({ side, amountText, holdings }: Holding): boolean {
  const amount = amountIn({ side, amountText });
  if (side !== 'sell' || amount === null || holdings === null) return false;
  return holdings.allowance < amount;
}

export type ImpactLevel = keyof typeof dexCopy.impact;

/** How bad a price impact is: below 1 %, 3 %, 15 %, and beyond. */
export function impactLevel(priceImpactBps: number): ImpactLevel {
  if (priceImpactBps < 100) return 'low';
  if (priceImpactBps < 300) return 'medium';
  if (priceImpactBps < 1500) return 'high';
  return 'severe';
}

/** The balance of what the side pays, as the form shows it under 'You pay'. */
export function balanceText(side: SwapSide, holdings: Holdings | null): string | null {
  if (holdings === null) return null;
  const { pays } = assetsOf(side);
  return dexCopy.balance(amountText(pays === 'ETH' ? holdings.eth : holdings.token, pays));
}

/** A quote as the form shows it. */
export type QuoteFigures = {
  /** 'You receive': the quote's output. */
  amountOut: string;
  /** The output as plain decimal text, for the read-only field. */
  amountOutValue: string;
  /** Null while the slippage tolerance is no percentage. */
  minimumReceived: string | null;
  priceImpact: string;
  impact: ImpactLevel;
  impactWords: string;
};

export function quoteFigures(quote: Quote, slippageText: string): QuoteFigures {
  const { receives } = assetsOf(quote.side);
  const bps = parseSlippage(slippageText);
  const level = impactLevel(quote.priceImpactBps);
  return {
    amountOut: amountText(quote.amountOut, receives),
    amountOutValue: displayAmount(quote.amountOut),
    minimumReceived: bps === null ? null : amountText(minimumReceived(quote.amountOut, bps), receives),
    priceImpact: dexCopy.percent(bpsText(quote.priceImpactBps)),
    impact: level,
    impactWords: dexCopy.impact[level],
  };
}

/** The pool's fee as the form shows it ('0.3 %'). */
export const poolFeeText = (feeBps: number): string => dexCopy.percent(bpsText(feeBps));

/** The question before a swap with a tolerance above 5 %: the tolerance, and the least output it accepts. */
export function highSlippageWords(context: Pick<SwapContext, 'slippageText' | 'quote'>) {
  const bps = parseSlippage(context.slippageText) ?? 0;
  const { quote } = context;
  const minimum = quote
    ? amountText(minimumReceived(quote.amountOut, bps), assetsOf(quote.side).receives)
    : '';
  return {
    title: dexCopy.highSlippageTitle(dexCopy.percent(bpsText(bps))),
    description: dexCopy.highSlippageDescription(minimum),
  };
}

/** What 'Swap' asks for, fixed when pressed: the amount, and the quote less the slippage tolerance. */
export function swapOrder(context: SwapContext): SwapOrder {
  return {
    side: context.side,
    amountIn: amountIn(context) ?? 0n,
    minAmountOut: minimumReceived(context.quote?.amountOut ?? 0n, parseSlippage(context.slippageText) ?? 0),
    deadlineMinutes: context.deadlineMinutes,
  };
}

/** What a quote is asked for: the form's side and amount, for the connected account. */
export function quoteInput(context: Pick<SwapContext, 'side' | 'amountText' | 'account'>) {
  return { side: context.side, amountIn: amountIn(context) ?? 0n, account: context.account };
}
