import { describe, expect, it } from 'vitest';
import { dexCopy } from '../../../src/copy/dex.ts';
import type { SwapResult } from '../../../src/domain/dex.ts';
import { swapToasts } from '../../../src/machines/trading/swap-toasts.ts';
import type { SwapContext } from '../../../src/machines/trading/swap-types.ts';

// The swap form's toasts as a user reads them: what a confirmed swap paid and received, what an
// approval lets the router spend, the hash while a transaction is pending.

const E18 = 10n ** 18n;
const HASH = `0x${'cd'.repeat(32)}` as const;

describe('swap toasts', () => {
  it("words a confirmed swap with the side and amounts the receipt reports, not the form's", () => {
    // A sale of 50 DDEX that received 0.025 ETH, while the form has meanwhile been set to buy.
    const result: SwapResult = {
      hash: HASH,
      side: 'sell',
      amountIn: 50n * E18,
      amountOut: E18 / 40n,
      blockNumber: 9n,
    };
    expect(swapToasts.confirmed({ result, side: 'buy' })).toEqual({
      title: dexCopy.swapConfirmed,
      description: dexCopy.swapConfirmedDescription('50 DDEX', '0.025 ETH'),
    });
    // Amounts as the form shows them: four decimals from 1 up, six significant digits below.
    const bought: SwapResult = {
      hash: HASH,
      side: 'buy',
      amountIn: 123_456_789_012_345n,
      amountOut: 1_234_567_890_123_456_789_012n,
      blockNumber: 9n,
    };
    expect(swapToasts.confirmed({ result: bought, side: 'sell' }).description).toBe(
      dexCopy.swapConfirmedDescription('0.000123456 ETH', '1234.5678 DDEX'),
    );
  });

  it('says what an approval lets the router spend: the amount typed, or any amount', () => {
    const context = { side: 'sell', amountText: '2.5', unlimitedApproval: false } as SwapContext;
    expect(swapToasts.approved(context)).toEqual({
      title: dexCopy.approved,
      description: dexCopy.approvedDescription('2.5'),
    });
    expect(swapToasts.approved({ ...context, unlimitedApproval: true })).toEqual({
      title: dexCopy.approved,
      description: dexCopy.approvedUnlimitedDescription,
    });
  });

  it("shows a pending transaction's hash, and the hash of a swap the history could not take", () => {
    expect(swapToasts.pending(dexCopy.swapPending, { hash: HASH })).toEqual({
      title: dexCopy.swapPending,
      description: dexCopy.pendingDescription(HASH),
    });
    expect(swapToasts.notSaved({ hash: HASH })).toEqual({
      title: dexCopy.swapNotSaved,
      description: dexCopy.swapNotSavedDescription(HASH),
      variant: 'destructive',
    });
  });

  it("shows the router's reason for a revert, and the reason of any other failure", () => {
    expect(swapToasts.reverted({ problem: dexCopy.revertedExpired })).toEqual({
      title: dexCopy.swapReverted,
      description: dexCopy.revertedExpired,
      variant: 'destructive',
    });
    expect(swapToasts.failed({ problem: dexCopy.notConfirmed(HASH) })).toEqual({
      title: dexCopy.swapFailed,
      description: dexCopy.notConfirmed(HASH),
      variant: 'destructive',
    });
  });
});
