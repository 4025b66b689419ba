import { sendCopy, tokenCopy } from '../../copy/index.ts';
import type { TokenServiceErrorReason, TransferResult } from '../../domain/token.ts';
import { transferFailureWords, transferFieldWords } from '../error-words.ts';
import { fieldProblem } from './send-checks.ts';
import type { SealedKey } from './send-key.ts';
import type { SendEvent } from './send-events.ts';
import type { SendContext, SendFact } from './send-types.ts';
import { messageOf, type ToastRequest } from '../shared.ts';

// The send machine's toasts for a refused submit, a cancelled send, a step that failed, a transfer
// that may have gone out, and one that was submitted (docs/product.md#send-toasts): pure functions
// of the event or the failure, kept beside the machine so its file holds the chart.

/** The refusals of docs/product.md#send-form-order, each one destructive toast. */
const refuse = (toast: { title: string; description: string }) =>
  ({ type: 'showToast', params: { ...toast, variant: 'destructive' } }) as const;
export const REFUSE = {
  walletNotConnected: refuse(sendCopy.walletNotConnected),
  missingInformation: refuse(sendCopy.missingInformation),
  privateKeyRequired: refuse(sendCopy.privateKeyRequired),
  configurationError: refuse(sendCopy.configurationError),
  /** The form of a wallet transfer that failed without a hash: warned once, sent on the next press. */
  unchecked: refuse(sendCopy.walletMaybeSentAgain),
  fields: {
    type: 'showToast',
    params: ({ event }: { event: SendEvent }): ToastRequest => ({
      title: sendCopy.invalidTransfer,
      description: transferFieldWords(fieldProblem(event) ?? { code: 'invalid-amount' }),
      variant: 'destructive',
    }),
  },
} as const;

/** A send stopped before anything was broadcast, because the wallet or the session changed. */
export const cancelledToast = (description: string) =>
  ({ type: 'showToast', params: { title: sendCopy.transferCancelled, description } }) as const;

// Refusals of what the user entered, as opposed to failures of the network or the chain.
const INPUT_REASONS: ReadonlySet<TokenServiceErrorReason> = new Set<TokenServiceErrorReason>([
  'invalid-private-key',
  'wrong-account',
  'invalid-recipient',
  'invalid-address',
  'invalid-amount',
  'insufficient-token-balance',
]);

type Failure = { reason: string | undefined; message: string; hash: string | undefined };

function failureOf(error: unknown): Failure {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const message = messageOf(error, tokenCopy.unknown);
  return {
    reason: typeof fields.reason === 'string' ? fields.reason : undefined,
    message,
    hash: typeof fields.hash === 'string' ? fields.hash : undefined,
  };
}

/** The token service never echoes the key; this keeps a toast safe from any other actor that might. */
function withoutKey(message: string, key: SealedKey | null): string {
  const digits = key?.reveal().trim().replace(/^0x/i, '').toLowerCase() ?? '';
  if (digits.length < 8) return message;
  const lower = message.toLowerCase();
  let safe = '';
  let from = 0;
  for (let at = lower.indexOf(digits); at !== -1; at = lower.indexOf(digits, from)) {
    safe += `${message.slice(from, at)}[redacted]`;
    from = at + digits.length;
  }
  return safe + message.slice(from);
}

/** The toast of a failed step; a transfer already out (it has a hash) must not be retried blindly. */
export function failureToast(error: unknown, recipient: string, key: SealedKey | null = null): ToastRequest {
  const { reason, hash } = failureOf(error);
  const message = transferFailureWords(error, recipient);
  const title =
    reason !== undefined && INPUT_REASONS.has(reason as TokenServiceErrorReason)
      ? sendCopy.invalidTransfer
      : reason === 'confirmation-timeout'
        ? sendCopy.transferNotConfirmed
        : sendCopy.transferFailed;
  const safe = withoutKey(message, key);
  return {
    title,
    description: hash === undefined ? `${safe} ${sendCopy.keyCleared}` : safe,
    variant: 'destructive',
  };
}

/** Sent, maybe: a failure with a hash that is not a revert (mined and failed: nothing moved). */
export function maybeSent(error: unknown): boolean {
  const { reason, hash } = failureOf(error);
  return hash !== undefined && reason !== 'reverted';
}

/** 'Transfer Not Confirmed' when no receipt came in time, else 'Transfer May Have Been Sent'; with the hash. */
export function maybeSentToast(error: unknown): ToastRequest {
  const { reason, message, hash } = failureOf(error);
  const title = reason === 'confirmation-timeout' ? sendCopy.transferNotConfirmed : sendCopy.mayHaveBeenSent;
  const what = reason === 'confirmation-timeout' ? message : sendCopy.mayHaveBeenSentDescription(hash ?? '');
  return { title, description: `${what} ${sendCopy.checksInsteadOfResending}`, variant: 'destructive' };
}

/** The token service found the transfer's nonce used by another transaction: it can never be mined. */
export const replacedOnChain = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { replaced?: unknown }).replaced === true;

export function replacedToast(error: unknown): ToastRequest {
  const { hash } = failureOf(error);
  return {
    title: sendCopy.transferFailed,
    description: sendCopy.replacedOnChain(hash ?? ''),
    variant: 'destructive',
  };
}

export const submittedToast = (hash: string): ToastRequest => ({
  title: sendCopy.transferSubmitted,
  description: sendCopy.transferSubmittedDescription(hash),
});

/** A transfer confirmed on a receipt (broadcast, or found by a check): 'Transfer Submitted', then recorded. */
export const SUBMITTED = {
  target: '#send.sending.recordingIfSignedIn',
  actions: [
    {
      type: 'submitted',
      params: ({ event }: { event: { output: TransferResult } }) => ({ hash: event.output.hash }),
    },
    {
      type: 'showToast',
      params: ({ event }: { event: { output: TransferResult } }) => submittedToast(event.output.hash),
    },
  ],
} as const;

/** The fact of a transfer that went out, once it is recorded (or needs no record). */
export const REPORT_SUBMITTED = {
  type: 'report',
  params: ({ context }: { context: SendContext }): SendFact => ({
    type: 'send.transferSubmitted',
    hash: context.lastHash ?? '',
  }),
} as const;
