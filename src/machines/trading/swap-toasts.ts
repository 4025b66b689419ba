import { dexCopy } from '../../copy/dex.ts';
import { dexFailureWords, dexSendWords } from './dex-words.ts';
import { amountText, assetsOf, displayAmount } from './market-figures.ts';
import type { ToastRequest } from '../shared.ts';
import { amountIn } from './swap-checks.ts';
import type { SwapContext } from './swap-types.ts';

// The swap machine's toasts (swap.machine.ts), one per wallet step and outcome as 'Send with
// wallet' has them: the prompt, the hash while pending, then what happened.

const destructive = (title: string, description: string): ToastRequest => ({
  title,
  description,
  variant: 'destructive',
});

export const swapToasts = {
  approvalPrompt: dexCopy.approvalPrompt,
  swapPrompt: dexCopy.swapPrompt,
  approvalRejected: dexCopy.approvalRejected,
  swapRejected: dexCopy.swapRejected,
  /** A transaction the wallet sent, with its hash. */
  pending: (title: string, context: Pick<SwapContext, 'hash'>): ToastRequest => ({
    title,
    description: dexCopy.pendingDescription(context.hash ?? ''),
  }),
  /** The allowance is set: to the amount typed, or unlimited. */
  approved: (context: SwapContext): ToastRequest => ({
    title: dexCopy.approved,
    description: context.unlimitedApproval
      ? dexCopy.approvedUnlimitedDescription
      : dexCopy.approvedDescription(displayAmount(amountIn(context) ?? 0n)),
  }),
  /** Building or confirming the approval failed. */
  approvalFailed: (error: unknown): ToastRequest =>
    destructive(dexCopy.approvalFailed, dexFailureWords(error)),
  /** The wallet failed to send the approval (and may have sent it). */
  approvalNotSent: (error: unknown): ToastRequest => destructive(dexCopy.approvalFailed, dexSendWords(error)),
  /** The amounts the pair's events report. */
  confirmed: ({ result, side }: Pick<SwapContext, 'result' | 'side'>): ToastRequest => {
    const { pays, receives } = assetsOf(result?.side ?? side);
    return {
      title: dexCopy.swapConfirmed,
      description: dexCopy.swapConfirmedDescription(
        amountText(result?.amountIn ?? 0n, pays),
        amountText(result?.amountOut ?? 0n, receives),
      ),
    };
  },
  reverted: ({ problem }: Pick<SwapContext, 'problem'>): ToastRequest =>
    destructive(dexCopy.swapReverted, problem ?? dexCopy.reverted),
  failed: ({ problem }: Pick<SwapContext, 'problem'>): ToastRequest =>
    destructive(dexCopy.swapFailed, problem ?? dexCopy.walletFailed),
  notSaved: ({ hash }: Pick<SwapContext, 'hash'>): ToastRequest =>
    destructive(dexCopy.swapNotSaved, dexCopy.swapNotSavedDescription(hash ?? '')),
};
