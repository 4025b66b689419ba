import type { TokenServiceErrorReason } from './token.ts';

// How the adapters' failures look to the rest of the portal: a name, a typed
// code and the values the words need. The adapters say what went wrong; the
// machines choose the words (src/machines/error-words.ts). These are shapes,
// not classes, so a failure is still recognised after the event journal has
// turned it into plain data and back.

/** Why the token service failed, with what its words need; `TokenServiceErrorReason` is the broad kind. */
export type TokenProblem =
  | { code: 'invalid-private-key-format' }
  /** 64 hex digits, but 0 or beyond the secp256k1 order. */
  | { code: 'invalid-private-key-value' }
  /** The key belongs to another account than the connected wallet. */
  | { code: 'key-mismatch' }
  | { code: 'invalid-recipient' }
  | { code: 'zero-recipient' }
  /** readBalance was given something that is not an address. */
  | { code: 'invalid-address' }
  | { code: 'invalid-amount' }
  | { code: 'zero-amount' }
  | { code: 'too-many-decimals'; decimals: number }
  | { code: 'amount-too-large' }
  /** `figures`, when known: both amounts as decimal text in whole tokens ('2.5'). */
  | { code: 'insufficient-token-balance'; figures: { balance: string; needed: string } | null }
  | { code: 'insufficient-funds-for-gas' }
  /** The node answered with another chain id than the portal is built for. */
  | { code: 'wrong-chain'; actual: number; expected: number }
  /** The node refused a transaction for its chain id, without saying which it is on. */
  | { code: 'chain-mismatch' }
  /** The token contract's ERC20InvalidReceiver. */
  | { code: 'invalid-receiver' }
  /** Another revert the gas estimate foresaw; `revertReason` is the contract's own, when it gave one. */
  | { code: 'refused'; revertReason: string | null }
  /** Mined, and failed on chain. */
  | { code: 'reverted' }
  | { code: 'not-confirmed'; seconds: number }
  /** The transaction is out, but what happened next could not be checked; `failure` is why. */
  | { code: 'sent-but-unchecked'; failure: TokenProblem }
  /** `status` is the node's HTTP status, when it answered with one. */
  | { code: 'rpc-unavailable'; status: number | null }
  | { code: 'no-token-contract' }
  | { code: 'unknown' };

export type TokenProblemCode = TokenProblem['code'];

/** The token service's TokenServiceError, as any layer may read it. */
export type TokenFailure = {
  name: 'TokenServiceError';
  reason: TokenServiceErrorReason;
  problem: TokenProblem;
  /** The transaction, when one was sent. */
  hash: string | undefined;
};

/** What the data provider (Tatum) was asked to do; each has its own words when it fails. */
export type DataProviderOperation =
  'init' | 'getNativeBalance' | 'createAddressWebhook' | 'listWebhooks' | 'deleteWebhook';

/** The data provider's TatumServiceError, as any layer may read it. */
export type DataProviderFailure = {
  name: 'TatumServiceError';
  operation: DataProviderOperation;
  /** What Tatum, the node or the SDK said, or what was wrong with their answer; never the API key. */
  detail: string | null;
  /** Tatum's errorCode when it sent one, e.g. 'subscription.not.found', or the function's ('rate_limited'). */
  code: string | null;
  /** With 'rate_limited': how long the function asks the client to wait. */
  retryAfterSeconds?: number | null;
};

/** The backend's own codes; any other code is the server's (PostgREST's, GoTrue's, Storage's). */
export type BackendErrorCode =
  /** The portal has no backend configured. */
  | 'client_unavailable'
  /** No answer came (or the backend client could not be loaded). */
  | 'network_error';

/**
 * Why the link-wallet function refused a wallet proof (its `code`): the message or its nonce did not
 * hold, the address belongs to another account, or the request could not be read.
 */
export type WalletProofRefusalCode =
  | 'malformed'
  | 'proof_domain'
  | 'proof_chain'
  /** The message, or the nonce it carries, expired. */
  | 'proof_expired'
  /** Not signed by the address the message names. */
  | 'proof_signature'
  /** A nonce the function never gave out, or gave to another user or for another address. */
  | 'proof_nonce'
  /** The nonce was already used. */
  | 'proof_replayed'
  | 'wallet_taken'
  /** Nonces asked for too many wallets in a short time (429). */
  | 'too_many_nonces';

/** The backend adapter's BackendError, as any layer may read it: `message` is the server's own. */
export type BackendFailure = {
  name: 'BackendError';
  message: string;
  code: BackendErrorCode | (string & {}) | null;
  status: number | null;
};
