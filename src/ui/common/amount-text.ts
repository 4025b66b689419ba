/**
 * An exact decimal amount ('9899.978831758016184621') as a person reads it: grouped for the locale
 * (the reader's own unless given), five decimals from 1 up and six significant digits below 1,
 * cut on the text itself, so it is never more than there is, never 0 for an amount that is not,
 * and every digit of the whole part stays; a minus sign stays too. Anything that is not a plain
 * decimal comes back as it is.
 */
export function amountText(exact: string, locale?: string): string {
  const [, whole, fraction = ''] = /^(-?\d+)(?:\.(\d+))?$/.exec(exact) ?? [];
  if (!whole) return exact;
  const kept = fraction.slice(0, /[1-9]/.test(whole) ? 5 : fraction.search(/[1-9]|$/) + 6);
  // A string is formatted as the decimal it spells, not as a Number (Intl.NumberFormat v3; an older
  // browser goes through a Number, exact to 15 digits); 20 decimals, more than ETH's and DDEX's 18,
  // is the most every browser takes.
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(
    `${whole}.${kept}` as `${number}`,
  );
}
