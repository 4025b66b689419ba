import type { Address, Hash, Hex } from 'viem';

export type TokenServiceConfig = {
  /** JSON-RPC endpoint of the node; reads and sends both go through it. */
  rpcUrl: string;
  /** The chain the portal is built for; a node on any other chain is refused. */
  chainId: number;
  tokenAddress: Address;
  /** How long a transfer waits for its receipt before giving up (default 2 minutes). */
  confirmationTimeoutMs?: number;
};

export type TokenBalance = {
  /** In the token's smallest unit. */
  raw: bigint;
  /** `raw` as decimal text with the token's decimals, without trailing zeros ('12.5', '0'). */
  formatted: string;
  decimals: number;
};

export type TransferRequest = {
  /** 64 hex digits, with or without 0x, as typed into the form. Used only to sign; never stored. */
  privateKey: string;
  /** A 0x address in any letter case. */
  to: string;
  /** Decimal text from the form, e.g. '12.5'. */
  amount: string;
};

/** What the form hands over before anything is signed: the key only to check it, never kept. */
export type PrepareTransferRequest = TransferRequest & {
  /** The connected wallet; the key must belong to it (any letter case). */
  expectedFrom: string;
};

/** A transfer checked against the chain (recipient, amount, balance), holding no key material. */
export type PreparedTransfer = {
  /** The sender: the key's address, equal to the connected wallet (checksummed). */
  from: Address;
  /** The recipient (checksummed). */
  to: Address;
  /** The amount in the token's smallest unit. */
  raw: bigint;
  /** `raw` as decimal text with the token's decimals ('12.5'). */
  amount: string;
  decimals: number;
};

export type SignTransferRequest = {
  /** Used to sign and then dropped; the service keeps no reference to it. */
  privateKey: string;
  prepared: PreparedTransfer;
};

/** A signed transaction, ready to broadcast; the signature reveals nothing of the key. */
export type SignedTransfer = {
  serialized: Hex;
  /** The hash the transaction will have once broadcast. */
  hash: Hash;
};

export type BroadcastTransferRequest = { serialized: Hex };

export type TransferResult = {
  hash: Hash;
  /** The address the private key belongs to (checksummed). */
  from: Address;
  /** The recipient (checksummed). */
  to: Address;
  /** The amount moved, in the token's smallest unit. */
  raw: bigint;
  blockNumber: bigint;
};

export interface TokenService {
  /** The holder's token balance, formatted with the token's decimals (read once and cached). */
  readBalance(holder: string): Promise<TokenBalance>;
  /**
   * Signs an ERC-20 transfer locally, sends it raw through the RPC and waits for its receipt.
   * Rejects with a TokenServiceError; inputs are checked before any network call.
   */
  transfer(request: TransferRequest): Promise<TransferResult>;
  /**
   * Every check that needs no signature, in this order: the key's format and range, the key's
   * address against `expectedFrom`, the recipient, the amount's syntax, the node's chain, the
   * token's decimals and the sender's balance. Sends nothing.
   */
  prepareTransfer(request: PrepareTransferRequest): Promise<PreparedTransfer>;
  /**
   * Fills nonce, gas and fees from the node and signs locally. Sends nothing. A refusal the gas
   * estimate foresees (the token's) rejects here; nodes check the sender's ETH for the fee only
   * on broadcast.
   */
  signTransfer(request: SignTransferRequest): Promise<SignedTransfer>;
  /** Sends a signed DDEX transfer for the configured chain and waits for its receipt. */
  broadcastTransfer(request: BroadcastTransferRequest): Promise<TransferResult>;
}

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

/**
 * Every failure of the token service. `message` is meant for the user.
 * `cause`, when present, is a plain Error summarising what the node or viem reported, with any key
 * material removed: the original viem error is deliberately not kept, so nothing reachable from
 * this error can carry the private key.
 */
export class TokenServiceError extends Error {
  override readonly name = 'TokenServiceError';
  readonly reason: TokenServiceErrorReason;
  /** The transaction, when one was sent (reverted, confirmation-timeout). */
  readonly hash: Hash | undefined;

  constructor(
    reason: TokenServiceErrorReason,
    message: string,
    options: { cause?: Error | undefined; hash?: Hash | undefined } = {},
  ) {
    super(message, options.cause ? { cause: options.cause } : undefined);
    this.reason = reason;
    this.hash = options.hash;
  }
}
