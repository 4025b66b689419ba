import type { Hex } from '../domain/token.ts';
import { sameAddress, type Submit } from './send-checks.ts';
import type { SendContext } from './send.machine.ts';

// Never twice (docs/reliability-and-security.md#sends): what the send machine keeps of a transfer
// that may have gone out without its outcome being known, and how a submit is matched against it.
// Whether a failure means "may have been sent" is `maybeSent` in send-toasts.ts, beside its toast.

/** What is known of a transfer that may have been sent: its hash, and the form that made it. */
export type UnresolvedTransfer = {
  hash: Hex;
  /** The signed bytes (private-key path), sent again as they are if the node never had them. */
  serialized: Hex | null;
  from: string;
  recipient: string;
  amount: string;
};

/** The transfer the form in context has just sent from the connected wallet. */
export const unresolvedTransfer = (
  context: SendContext,
  sent: { hash: Hex; serialized: Hex | null },
): UnresolvedTransfer => ({
  hash: sent.hash,
  serialized: sent.serialized,
  from: context.walletAddress ?? '',
  recipient: context.recipient,
  amount: context.amount,
});

/** The same form, from the same wallet, as a transfer that may have been sent. */
export const repeatsUnresolved = (context: SendContext, submit: Submit): boolean =>
  context.unresolved !== null &&
  sameAddress(context.unresolved.from, context.walletAddress) &&
  sameAddress(context.unresolved.recipient.trim(), submit.recipient.trim()) &&
  context.unresolved.amount.trim() === submit.amount.trim();
