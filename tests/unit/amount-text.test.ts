import { describe, expect, it } from 'vitest';
import { amountText } from '../../src/ui/common/amount-text.ts';

// An exact decimal amount as a person reads it (docs/product.md#balances): grouped for the
// locale, five decimals from 1 up and six significant digits below 1, cut (never rounded up, so
// never more than there is, and never 0 for an amount that is not 0). The tests fix the locale;
// the portal passes none, so the reader's own applies.

const en = (exact: string) => amountText(exact, 'en-US');

describe('amountText', () => {
  it('groups the whole part and keeps five decimals from 1 up', () => {
    expect(en('9899.978831758016184621')).toBe('9,899.97883');
    expect(en('1.23456789')).toBe('1.23456');
    expect(en('12.3456789')).toBe('12.34567');
    expect(en('1000250.5')).toBe('1,000,250.5');
  });

  it('cuts the decimals instead of rounding them up, so it never shows more than there is', () => {
    expect(en('9899.999999999999999999')).toBe('9,899.99999');
    expect(en('0.999999999999999999')).toBe('0.999999');
    expect(en('2.000009')).toBe('2');
  });

  it('shows whole amounts without a point, and no trailing zeros', () => {
    expect(en('0')).toBe('0');
    expect(en('10000')).toBe('10,000');
    expect(en('1000000')).toBe('1,000,000');
    expect(en('12.500000000000000000')).toBe('12.5');
    expect(en('0.000')).toBe('0');
  });

  it('keeps six significant digits below 1, so a tiny amount never reads 0', () => {
    expect(en('0.75')).toBe('0.75');
    expect(en('0.1234567')).toBe('0.123456');
    expect(en('0.000001234')).toBe('0.000001234');
    expect(en('0.000000123456789')).toBe('0.000000123456');
    expect(en('0.000000000000000001')).toBe('0.000000000000000001');
  });

  it('keeps every digit of a whole part beyond what a Number holds, never in exponent form', () => {
    expect(en('123456789012345678901234567890.123456789')).toBe(
      '123,456,789,012,345,678,901,234,567,890.12345',
    );
    expect(en('115792089237316195423570985008687907853269984665640564039457.584007913129639935')).toBe(
      '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.584',
    );
    expect(en('1234567.000000000000000001')).toBe('1,234,567');
    expect(en('9007199254740993')).toBe('9,007,199,254,740,993');
  });

  it("uses the locale's grouping and decimal mark", () => {
    expect(amountText('9899.978831758016184621', 'de-DE')).toBe('9.899,97883');
    expect(amountText('1234567.5', 'en-IN')).toBe('12,34,567.5');
    expect(amountText('0.000001234', 'de-DE')).toBe('0,000001234');
  });

  it("keeps the sign of a signed amount (a history row's)", () => {
    expect(en('-1234.567890123')).toBe('-1,234.56789');
    expect(en('-0.000001234')).toBe('-0.000001234');
    expect(en('-3')).toBe('-3');
  });

  it('returns anything that is not a plain decimal as it is', () => {
    for (const text of ['', 'N/A', '1e18', '+1', '--1', '1,000', '0x10', ' 1', '1.'])
      expect(en(text)).toBe(text);
  });
});
