import { isAddress, isZeroAddress } from './wallet.ts';

// A DDEX transfer as it moves from the form to the chain. Plain data with no
// key material; the token service produces it, the send machine carries it.

export type Hex = `0x${string}`;

/** A transfer checked against the chain (recipient, amount, balance), holding no key material. */
export type PreparedTransfer = {
  /** The sender: the key's address, equal to the connected wallet (checksummed). */
  from: Hex;
  /** The recipient (checksummed). */
  to: Hex;
  /** The amount in the token's smallest unit. */
  raw: bigint;
  /** `raw` as decimal text with the token's decimals ('12.5'). */
  amount: string;
  decimals: number;
  /**
   * The signed bytes of a transfer from the same sender that may have been sent: this one is signed
   * with their nonce (and higher fees), so at most one of the two is ever mined.
   */
  replaces?: Hex | null;
};

/** A signed transaction, ready to broadcast; the signature reveals nothing of the key. */
export type SignedTransfer = {
  serialized: Hex;
  /** The hash the transaction will have once broadcast. */
  hash: Hex;
};

export type BroadcastTransferRequest = { serialized: Hex };

export type TransferResult = {
  hash: Hex;
  /** The address the private key belongs to (checksummed). */
  from: Hex;
  /** The recipient (checksummed). */
  to: Hex;
  /** The amount moved, in the token's smallest unit. */
  raw: bigint;
  blockNumber: bigint;
};

export type TokenBalance = {
  /** In the token's smallest unit. */
  raw: bigint;
  /** `raw` as decimal text with the token's decimals, without trailing zeros ('12.5', '0'). */
  formatted: string;
  decimals: number;
};

/** Why the token service refused or failed a request; the machines choose the words. */
export type TokenServiceErrorReason =
  | 'invalid-private-key'
  /** The key is valid but belongs to another account than the connected wallet. */
  | 'wrong-account'
  | 'invalid-recipient'
  /** readBalance was given something that is not an address. */
  | 'invalid-address'
  | 'invalid-amount'
  | 'insufficient-token-balance'
  | 'insufficient-funds-for-gas'
  | 'wrong-chain'
  /**
   * The token contract refused the transfer for a reason not listed here: when the gas estimate
   * already failed nothing was sent; with `hash` set it was mined, failed, and the fee is spent.
   */
  | 'reverted'
  /** Sent, but no receipt came in time: it may still be mined, so a retry could pay twice. */
  | 'confirmation-timeout'
  | 'rpc-unavailable'
  | 'unknown';

/** DDEX's decimals: the spec's minimum amount, 0.000000000000000001, is one unit of them. */
export const DDEX_DECIMALS = 18;

/**
 * Why the send form's fields are refused before anything is signed (docs/product.md#send-form-order).
 * 'bad-checksum': mixed-case letters that are not the address's EIP-55 checksum, so likely a typo
 * (the token service checks it, as it needs keccak; the rest needs no library).
 */
export type TransferFieldProblem =
  | { code: 'invalid-recipient' }
  | { code: 'zero-recipient' }
  | { code: 'bad-checksum' }
  | { code: 'invalid-amount' }
  | { code: 'below-minimum'; decimals: number }
  | { code: 'too-many-decimals'; decimals: number }
  | { code: 'over-balance'; balance: string; needed: string };

/** The recipient's shape: 0x and 40 hex digits, not the zero address. Its checksum is the token service's. */
export function recipientProblem(text: string): TransferFieldProblem | null {
  const trimmed = text.trim();
  if (!isAddress(trimmed)) return { code: 'invalid-recipient' };
  if (isZeroAddress(trimmed)) return { code: 'zero-recipient' };
  return null;
}

/**
 * The amount in the token's smallest unit, or why it is refused: not plain decimal text, below the
 * smallest unit (zero included), or with more fraction digits than the token has. Refused rather
 * than rounded, so what is signed is what was typed.
 */
export function parseTokenAmount(
  text: string,
  decimals: number = DDEX_DECIMALS,
): { raw: bigint } | { problem: TransferFieldProblem } {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text.trim());
  const whole = match?.[1] ?? '';
  const typed = match?.[2] ?? '';
  if (!match || (whole === '' && typed === '')) return { problem: { code: 'invalid-amount' } };
  // Trailing zeros add no precision: '1.50' is as valid as '1.5'.
  const fraction = typed.replace(/0+$/, '');
  if (fraction.length > decimals) {
    const belowOneUnit = /^0*$/.test(whole) && /^0*$/.test(fraction.slice(0, decimals));
    return { problem: { code: belowOneUnit ? 'below-minimum' : 'too-many-decimals', decimals } };
  }
  const raw = BigInt(`${whole || '0'}${fraction.padEnd(decimals, '0')}`);
  if (raw === 0n) return { problem: { code: 'below-minimum', decimals } };
  return { raw };
}

/** Whether an amount is within a balance, both decimal text with the token's decimals. */
export function amountProblem(
  amount: string,
  balance: string | null,
  decimals: number = DDEX_DECIMALS,
): TransferFieldProblem | null {
  const parsed = parseTokenAmount(amount, decimals);
  if ('problem' in parsed) return parsed.problem;
  if (balance === null) return null;
  const held = parseTokenAmount(balance, decimals);
  // A balance of 0 parses as below the minimum: nothing is held.
  const heldRaw = 'raw' in held ? held.raw : 0n;
  return parsed.raw > heldRaw ? { code: 'over-balance', balance, needed: amount.trim() } : null;
}

/** What the wallet is asked to sign and send (EIP-1193 eth_sendTransaction): a call of the token. */
export type WalletTransferCall = { from: Hex; to: Hex; data: Hex };

/** A transfer checked on the chain for the wallet to send, and the call that makes it. */
export type WalletTransfer = { prepared: PreparedTransfer; call: WalletTransferCall };

export type PrepareWalletTransferRequest = { from: string; to: string; amount: string };

/**
 * A transfer whose hash is known but whose fate is not. With `serialized` (the signed bytes), a
 * transaction the node has never seen is sent again as the same bytes: same nonce, same hash, so
 * it can be mined at most once.
 */
export type ConfirmTransferRequest = {
  hash: Hex;
  serialized: Hex | null;
  /** The sender, so a refused resend can tell whether its nonce was taken by another transaction. */
  from?: string;
};
