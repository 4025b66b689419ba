import type { AuthUser } from '../domain/auth.ts';
import type { PreparedTransfer, SignedTransfer } from '../domain/token.ts';
import type { HistoryOutboxFact } from './history-outbox.machine.ts';
import type { SealedKey } from './send-key.ts';
import type { UnresolvedTransfer } from './send-unresolved.ts';

// The send machine's shapes (send.machine.ts): its input, context, events, the fact it reports,
// and its actors' inputs.

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

export type SendEvent =
  /** The only event that carries the private key. */
  | { type: 'send.submit'; recipient: string; amount: string; privateKey: string }
  /** 'Send with wallet'; `balance` is the DDEX balance the page shows, null while there is none. */
  | { type: 'send.submitWithWallet'; recipient: string; amount: string; balance: string | null }
  | { type: 'wallet.changed'; address: string | null; chainId: number | null }
  | { type: 'session.changed'; user: AuthUser | null }
  | HistoryOutboxFact;

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
