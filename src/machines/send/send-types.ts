import type { Hex, PreparedTransfer, SignedTransfer } from '../../domain/token.ts';
import type { SealedKey } from './send-key.ts';

// The send machine's shapes (send.machine.ts): its input, context, the fact it reports, and its
// actors' inputs; its events are send-events.ts. Every other send file builds on these, so this one
// imports none of them but the sealed key. The history outbox takes its actor's input from here, so
// nothing here may import that machine back.

export type SendInput = {
  /** False when no DDEX contract address is configured: every send stops with 'Configuration Error'. */
  tokenConfigured: boolean;
};

export type SendContext = {
  tokenConfigured: boolean;
  /** The connected wallet, learned from the root's `wallet.changed`. */
  walletAddress: string | null;
  chainId: number | null;
  /** The signed-in user, learned from the root's `session.changed`; only their sends are recorded. */
  userId: string | null;
  /** Who was signed in when the transfer under way was submitted (null for a visitor). */
  sentBy: string | null;
  /** The form's fields as last submitted; kept after a failure, cleared after a success. */
  recipient: string;
  amount: string;
  /** Only while preparing and signing; null everywhere else. */
  privateKey: SealedKey | null;
  prepared: PreparedTransfer | null;
  /** The signed transaction, from signing until it is broadcast. */
  signed: SignedTransfer | null;
  /** The hash of the last transfer submitted. */
  lastHash: string | null;
  /** A transfer that may have been sent; its form checks it rather than sending again. */
  unresolved: UnresolvedTransfer | null;
};

/**
 * What is known of a transfer that may have been sent: its hash, and the form that made it
 * (send-unresolved.ts matches a submit against it).
 */
export type UnresolvedTransfer = {
  /** Null when the wallet failed without a hash: nothing can be checked, the user is warned instead. */
  hash: Hex | null;
  /** The signed bytes (private-key path), sent again as they are if the node never had them. */
  serialized: Hex | null;
  from: string;
  recipient: string;
  amount: string;
};

/**
 * The fact this machine reports to the root: a transfer went out (and, when signed in, left the
 * history outbox: its row saved, given up after the last try, or abandoned at sign-out).
 */
export type SendFact = { type: 'send.transferSubmitted'; hash: string };

export type PrepareTransferInput = {
  privateKey: SealedKey;
  to: string;
  amount: string;
  expectedFrom: string;
};
export type SignTransferInput = { privateKey: SealedKey; prepared: PreparedTransfer };
/** The history outbox's call to record-transaction, one transfer at a time. */
export type RecordTransactionInput = { hash: string };
