import type { SnapshotFrom } from 'xstate';
import { dexCopy } from '../../../copy/dex.ts';
import { assetsOf } from '../../../machines/trading/market-figures.ts';
import { swapTags, type swapMachine } from '../../../machines/trading/swap.machine.ts';

// What the swap form's one button says and does in each state of the swap machine
// (docs/product.md#dex-trading); a pure function of its snapshot, so the card only lays it out.

export type SwapSnapshot = SnapshotFrom<typeof swapMachine>;

/** The event the button sends: to the swap machine, or to the portal's wallet; null when disabled. */
export type SwapAction = 'swap.approve' | 'swap.submit' | 'wallet.connect' | 'wallet.switchNetwork' | null;

export type SwapButtonView = { label: string; action: SwapAction; busy: boolean };

const disabled = (label: string, busy = false): SwapButtonView => ({ label, action: null, busy });

/**
 * The button, or null while a swap's outcome is shown instead of the form, or the question a
 * slippage tolerance above 5 % asks (HighSlippageQuestion.tsx) is shown instead of the button.
 */
export function swapButton(snapshot: SwapSnapshot, chainName: string): SwapButtonView | null {
  if (snapshot.matches('noWallet'))
    return { label: dexCopy.connectWallet, action: 'wallet.connect', busy: false };
  if (snapshot.matches('wrongNetwork')) {
    return { label: dexCopy.switchNetwork(chainName), action: 'wallet.switchNetwork', busy: false };
  }
  if (snapshot.hasTag(swapTags.waiting)) return disabled(dexCopy.waitingForWallet, true);
  if (snapshot.hasTag(swapTags.pending)) {
    return disabled(snapshot.matches('approving') ? dexCopy.approving : dexCopy.swapping, true);
  }
  if (!snapshot.matches('form')) return null;
  if (snapshot.matches({ form: 'empty' })) return disabled(dexCopy.enterAmount);
  if (snapshot.matches({ form: 'debouncing' }) || snapshot.matches({ form: 'quoting' })) {
    return disabled(dexCopy.quoting, true);
  }
  if (snapshot.matches({ form: 'insufficientLiquidity' }))
    return disabled(dexCopy.insufficientLiquidityShort);
  if (snapshot.matches({ form: 'quoteFailed' })) return disabled(dexCopy.quoteFailed);
  if (snapshot.matches({ form: { quoted: 'insufficientBalance' } })) {
    return disabled(dexCopy.insufficientBalance(assetsOf(snapshot.context.side).pays));
  }
  if (snapshot.matches({ form: { quoted: 'needsApproval' } })) {
    return { label: dexCopy.approve, action: 'swap.approve', busy: false };
  }
  if (snapshot.matches({ form: { quoted: 'ready' } }))
    return { label: dexCopy.swap, action: 'swap.submit', busy: false };
  // A field refused, or a slippage tolerance past 50 %: the words under the fields say which.
  return disabled(dexCopy.swap);
}

/** The form takes input only in its `form` state (not while a transaction is under way, nor without a wallet). */
export const formOpen = (snapshot: SwapSnapshot): boolean => snapshot.matches('form');

/** The outcome shown in place of the form, or null. */
export function swapOutcome(snapshot: SwapSnapshot): 'confirmed' | 'rejected' | 'reverted' | 'failed' | null {
  for (const outcome of ['confirmed', 'rejected', 'reverted', 'failed'] as const) {
    if (snapshot.matches(outcome)) return outcome;
  }
  return null;
}
