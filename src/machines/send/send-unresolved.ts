import { parseTokenAmount, type Hex } from '../../domain/token.ts';
import { sameAddress, type Submit } from './send-checks.ts';
import type { SendContext, UnresolvedTransfer } from './send-types.ts';

// Never twice (docs/reliability-and-security.md#sends): what the send machine keeps of a transfer
// that may have gone out without its outcome being known, and how a submit is matched against it.
// Whether a failure means "may have been sent" is `maybeSent` in send-toasts.ts, beside its toast.
// It lives in the machine's context only: a reload of the page forgets it. Its shape,
// `UnresolvedTransfer`, is in send-types.ts with the rest of the context.

/** The transfer the form in context has just sent from the connected wallet. */
export const unresolvedTransfer = (
  context: SendContext,
  sent: { hash: Hex | null; serialized: Hex | null },
): UnresolvedTransfer => ({
  hash: sent.hash,
  serialized: sent.serialized,
  from: context.walletAddress ?? '',
  recipient: context.recipient,
  amount: context.amount,
});

/** The amount in DDEX's smallest unit, so '0.75', '0.750' and '.75' are one amount; null if unreadable. */
const rawOf = (amount: string): bigint | null => {
  const parsed = parseTokenAmount(amount);
  return 'raw' in parsed ? parsed.raw : null;
};

/** Two amounts the form would send as the same number of units (unreadable text only equals itself). */
export const sameAmount = (a: string, b: string): boolean => {
  const [left, right] = [rawOf(a), rawOf(b)];
  return left !== null && right !== null ? left === right : a.trim() === b.trim();
};

/** The same form, from the same wallet, as a transfer that may have been sent. */
export const repeatsUnresolved = (context: SendContext, submit: Submit): boolean =>
  context.unresolved !== null &&
  sameAddress(context.unresolved.from, context.walletAddress) &&
  sameAddress(context.unresolved.recipient.trim(), submit.recipient.trim()) &&
  sameAmount(context.unresolved.amount, submit.amount);

/**
 * The signed bytes of an unresolved private-key transfer from the connected wallet: a new transfer
 * signed now takes their nonce, so at most one of the two can ever be mined.
 */
export const nonceToReuse = (context: SendContext): Hex | null =>
  context.unresolved !== null && sameAddress(context.unresolved.from, context.walletAddress)
    ? context.unresolved.serialized
    : null;
