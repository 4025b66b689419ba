// What the portal knows of a browser wallet. The wallet service produces these;
// the wallet machine and the views read them.

/** The connected account and the chain the wallet is on. */
export type WalletAccount = { address: string; chainId: number };

/** An ERC-20 token as a wallet is asked to list it (EIP-747 wallet_watchAsset). */
export type WalletAsset = { address: string; symbol: string; decimals: number };

/**
 * What a wallet answered when asked to list a token: it did ('added'), the user said no
 * ('declined'), or it has no such request ('unsupported').
 */
export type WatchTokenOutcome = 'added' | 'declined' | 'unsupported';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * An address's shape: 0x and 40 hex digits, in any letter case. A wrong EIP-55 checksum is not
 * refused here: wallets send lower case, and checking one needs keccak (the services have it).
 */
export function isAddress(text: string): text is `0x${string}` {
  return ADDRESS.test(text);
}

/** 0x and forty zeros: nothing is deployed there, so no transfer goes there and configuration reads it as unset. */
export function isZeroAddress(text: string): boolean {
  return /^0x0{40}$/.test(text);
}

export type WalletErrorCode =
  | 'not-installed'
  | 'rejected'
  | 'pending'
  | 'unrecognized-chain'
  /** The wallet granted no account. */
  | 'no-account'
  /** The wallet answered with something that is not an account list or a chain id. */
  | 'invalid-answer'
  /** The wallet is on another chain than the portal's, so a transaction it sent would go there. */
  | 'wrong-chain'
  /** The node refused the wallet's nonce as past the account's next one: the chain was started afresh. */
  | 'nonce-ahead'
  | 'unknown';

/**
 * Every failure of the wallet service: a plain, serialisable object (it may end up in the event
 * journal as an actor's error). `message` is set only for 'unknown': what the wallet or the
 * clipboard said; null when nothing was said. The other codes are worded by the machines.
 */
export type WalletError = { code: WalletErrorCode; message: string | null };

const WALLET_ERROR_CODES: ReadonlySet<string> = new Set<WalletErrorCode>([
  'not-installed',
  'rejected',
  'pending',
  'unrecognized-chain',
  'no-account',
  'invalid-answer',
  'wrong-chain',
  'nonce-ahead',
  'unknown',
]);

/** A wallet failure, also one that left out its message (read it as `message ?? null`). */
export function isWalletError(value: unknown): value is WalletError {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return (
    typeof code === 'string' &&
    WALLET_ERROR_CODES.has(code) &&
    (message == null || typeof message === 'string')
  );
}

/**
 * How long a signed wallet message is good for: its expiration time is at most this long after it
 * was issued, as Supabase Auth and the link-wallet function accept it (docs/product.md#wallet-sync).
 */
export const WALLET_PROOF_VALIDITY_MS = 10 * 60 * 1000;

/** What the link-wallet function hands out for one address: single use, bound to the user and it. */
export type WalletNonce = { nonce: string; expiresAt: string };

/** An EIP-4361 (Sign in with Ethereum) message and the wallet's signature of it. */
export type WalletProof = { message: string; signature: string };
