import type { Address, Hash } from 'viem';
import type { TokenFailure, TokenProblem } from '../../domain/errors.ts';
import type {
  BroadcastTransferRequest,
  ConfirmTransferRequest,
  PreparedTransfer,
  PrepareWalletTransferRequest,
  SignedTransfer,
  TokenBalance,
  TokenServiceErrorReason,
  TransferResult,
  WalletTransfer,
} from '../../domain/token.ts';

export type {
  BroadcastTransferRequest,
  ConfirmTransferRequest,
  PreparedTransfer,
  PrepareWalletTransferRequest,
  SignedTransfer,
  TokenBalance,
  TokenProblem,
  TokenServiceErrorReason,
  TransferResult,
  WalletTransfer,
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

/** The DDEX token on the configured chain. Every call rejects with a TokenServiceError. */
export interface TokenService {
  /** The holder's token balance, formatted with the token's decimals (read once and cached). */
  readBalance(holder: string): Promise<TokenBalance>;
  /**
   * Every check that needs no signature, in this order: the key's format and range, the key's
   * address against `expectedFrom`, the recipient, the amount's syntax, the node's chain, the
   * token's decimals and the sender's balance. Sends nothing.
   */
  prepareTransfer(request: PrepareTransferRequest): Promise<PreparedTransfer>;
  /**
   * Fills nonce, gas and fees from the node and signs locally. Sends nothing. With
   * `prepared.replaces`, it takes that transaction's nonce and fees above its own (a replacement). A refusal the gas
   * estimate foresees (the token's) rejects here; nodes check the sender's ETH for the fee only
   * on broadcast.
   */
  signTransfer(request: SignTransferRequest): Promise<SignedTransfer>;
  /**
   * Sends a signed DDEX transfer for the configured chain and waits for its receipt. Its hash is
   * known before it is sent: once the node may have it (anything but a JSON-RPC refusal), every
   * failure carries the hash ('sent-but-unchecked', 'not-confirmed', 'reverted').
   */
  broadcastTransfer(request: BroadcastTransferRequest): Promise<TransferResult>;
  /**
   * The checks of prepareTransfer without a key (the recipient, the amount, the node's chain, the
   * token's decimals and the sender's balance), and the call a wallet sends to make the transfer.
   */
  prepareWalletTransfer(request: PrepareWalletTransferRequest): Promise<WalletTransfer>;
  /**
   * Waits for the receipt of a transfer already sent (by the wallet, or a broadcast whose answer was
   * lost) and fails as broadcastTransfer does. Sends nothing, except the same signed bytes again
   * when `serialized` is given and the node does not know the transaction. If the node refuses those
   * bytes, the receipt is looked up again; it fails with `replaced` only when `from`'s nonce has been
   * used by another transaction, else with the hash ('sent-but-unchecked').
   */
  confirmTransfer(request: ConfirmTransferRequest): Promise<TransferResult>;
}

/**
 * Every failure of the token service. `problem` says what went wrong, with the values its words
 * need; the machines choose the words (src/machines/error-words.ts). `reason` is the broad kind,
 * which follows from the problem. `message` is for developers.
 * `cause`, when present, is a plain Error summarising what the node or viem reported, with any key
 * material removed: the original viem error is deliberately not kept, so nothing reachable from
 * this error can carry the private key.
 */
export class TokenServiceError extends Error implements TokenFailure {
  override readonly name = 'TokenServiceError';
  readonly reason: TokenServiceErrorReason;
  readonly problem: TokenProblem;
  /** The transaction, when one was sent (reverted, confirmation-timeout). */
  readonly hash: Hash | undefined;
  /**
   * True when the transaction `hash` can never be mined: the chain used its nonce for another
   * transaction from the same sender (confirmTransfer only).
   */
  readonly replaced: boolean;

  constructor(
    problem: TokenProblem,
    options: { cause?: Error | undefined; hash?: Hash | undefined; replaced?: boolean } = {},
  ) {
    super(summaryOf(problem), options.cause ? { cause: options.cause } : undefined);
    this.problem = problem;
    this.reason = reasonOf(problem);
    this.hash = options.hash;
    this.replaced = options.replaced ?? false;
  }
}

/** The broad kind of a problem: what the send machine tells apart (a refused input, a timeout, ...). */
function reasonOf(problem: TokenProblem): TokenServiceErrorReason {
  switch (problem.code) {
    case 'invalid-private-key-format':
    case 'invalid-private-key-value':
      return 'invalid-private-key';
    case 'key-mismatch':
      return 'wrong-account';
    case 'invalid-recipient':
    case 'zero-recipient':
    case 'invalid-receiver':
      return 'invalid-recipient';
    case 'invalid-address':
      return 'invalid-address';
    case 'invalid-amount':
    case 'zero-amount':
    case 'too-many-decimals':
    case 'amount-too-large':
      return 'invalid-amount';
    case 'insufficient-token-balance':
      return 'insufficient-token-balance';
    case 'insufficient-funds-for-gas':
      return 'insufficient-funds-for-gas';
    case 'wrong-chain':
    case 'chain-mismatch':
      return 'wrong-chain';
    case 'refused':
    case 'reverted':
      return 'reverted';
    case 'not-confirmed':
      return 'confirmation-timeout';
    case 'sent-but-unchecked':
      return reasonOf(problem.failure);
    case 'rpc-unavailable':
      return 'rpc-unavailable';
    case 'no-token-contract':
    case 'unknown':
      return 'unknown';
  }
}

/** The code and its values on one line, e.g. `too-many-decimals {"decimals":6}`, for logs. */
function summaryOf(problem: TokenProblem): string {
  const { code, ...values } = problem;
  return Object.keys(values).length === 0 ? code : `${code} ${JSON.stringify(values)}`;
}
