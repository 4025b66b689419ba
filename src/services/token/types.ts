import type { Address, Hash } from 'viem';
import type {
  BroadcastTransferRequest,
  PreparedTransfer,
  SignedTransfer,
  TokenBalance,
  TokenServiceErrorReason,
  TransferResult,
} from '../../domain/token.ts';

export type {
  BroadcastTransferRequest,
  PreparedTransfer,
  SignedTransfer,
  TokenBalance,
  TokenServiceErrorReason,
  TransferResult,
};

export type TokenServiceConfig = {
  /** JSON-RPC endpoint of the node; reads and sends both go through it. */
  rpcUrl: string;
  /** The chain the portal is built for; a node on any other chain is refused. */
  chainId: number;
  tokenAddress: Address;
  /** How long a transfer waits for its receipt before giving up (default 2 minutes). */
  confirmationTimeoutMs?: number;
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

export type SignTransferRequest = {
  /** Used to sign and then dropped; the service keeps no reference to it. */
  privateKey: string;
  prepared: PreparedTransfer;
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
