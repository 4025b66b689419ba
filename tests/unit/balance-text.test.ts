import { describe, expect, it } from 'vitest';
import { balanceCopy } from '../../src/copy/index.ts';
import type { BalanceReading } from '../../src/machines/balances.machine.ts';
import { balanceText } from '../../src/ui/portal/balance-text.ts';

// What the wallet panel shows for each balance reading: the value grouped and cut for reading
// (its exact text for hover and copy), 'Loading...' while loading, 'N/A' when empty, red for
// 'Error' and 'N/A (Config Error)'.

const none: BalanceReading = { status: 'none' };
const failed: BalanceReading = { status: 'failed' };
const notConfigured: BalanceReading = { status: 'notConfigured' };
const loaded = (value: string): BalanceReading => ({ status: 'loaded', value });

describe('balanceText', () => {
  it('shows a loaded balance grouped and cut for reading, in the normal colour, with the exact value beside it', () => {
    expect(balanceText(loaded('0.75'), false, 'en-US')).toEqual({
      text: '0.75',
      alarm: false,
      exact: '0.75',
    });
    expect(balanceText(loaded('9899.978831758016184621'), false, 'en-US')).toEqual({
      text: '9,899.97883',
      alarm: false,
      exact: '9899.978831758016184621',
    });
    expect(balanceText(loaded('1234567.000000000000000001'), false, 'en-US')).toEqual({
      text: '1,234,567',
      alarm: false,
      exact: '1234567.000000000000000001',
    });
  });

  it('offers no exact value while loading or without a loaded one', () => {
    expect(balanceText(loaded('0.75'), true).exact).toBeUndefined();
    for (const reading of [none, loaded(''), failed, notConfigured])
      expect(balanceText(reading, false).exact).toBeUndefined();
  });

  it("shows 'N/A' without a reading or for an empty value", () => {
    expect(balanceText(none, false)).toEqual({ text: balanceCopy.empty, alarm: false });
    expect(balanceText(loaded(''), false)).toEqual({ text: balanceCopy.empty, alarm: false });
  });

  it("shows 'Error' in red for a failed fetch", () => {
    expect(balanceText(failed, false)).toEqual({ text: balanceCopy.error, alarm: true });
  });

  it("shows 'N/A (Config Error)' in red without a token contract", () => {
    expect(balanceText(notConfigured, false)).toEqual({ text: balanceCopy.configError, alarm: true });
  });

  it("shows 'Loading...' while loading, whatever the reading", () => {
    for (const reading of [none, loaded('0.75'), failed, notConfigured]) {
      expect(balanceText(reading, true).text).toBe(balanceCopy.loading);
    }
  });

  it('keeps the colour of the reading being replaced while loading', () => {
    expect(balanceText(failed, true).alarm).toBe(true);
    expect(balanceText(notConfigured, true).alarm).toBe(true);
    expect(balanceText(loaded('0.75'), true).alarm).toBe(false);
    expect(balanceText(none, true).alarm).toBe(false);
  });

  it('uses the spec’s words', () => {
    expect([balanceCopy.loading, balanceCopy.empty, balanceCopy.error, balanceCopy.configError]).toEqual([
      'Loading...',
      'N/A',
      'Error',
      'N/A (Config Error)',
    ]);
  });
});
