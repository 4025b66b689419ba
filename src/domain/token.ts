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
