import { formatUnits } from '../_shared/transfer-log.ts';

// The numbers a bot's notification shows, worded here rather than in SQL so both database engines
// print the same text: six significant digits, rounded half up, never in exponent notation.

export const DISPLAY_DIGITS = 6;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A plain decimal ('0.000201234567') to `digits` significant digits ('0.000201235'). */
export function significant(decimal: string, digits = DISPLAY_DIGITS): string {
  const match = DECIMAL.exec(decimal);
  if (!match) throw new Error(`not a plain decimal: ${decimal}`);
  const [, sign = '', whole = '', fraction = ''] = match;
  const value = BigInt(whole + fraction);
  const length = value.toString().length;
  let kept = value;
  if (length > digits) {
    const unit = 10n ** BigInt(length - digits);
    kept = (value / unit) * unit;
    if ((value % unit) * 2n >= unit) kept += unit;
  }
  const text = formatUnits(kept, fraction.length);
  return kept === 0n ? text : `${sign}${text}`;
}

/** A price in ETH per DDEX, as titles and messages show it. */
export function priceText(decimal: string): string {
  return significant(decimal);
}

/** A DDEX amount, with its thousands grouped ('12,345.7'), as a large swap's title shows it. */
export function amountText(decimal: string): string {
  const [whole = '', fraction] = significant(decimal).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
