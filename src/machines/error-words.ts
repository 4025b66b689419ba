import {
  authCopy,
  dataProviderCopy,
  sendCopy,
  tokenCopy,
  walletCopy,
  walletProofCopy,
} from '../copy/index.ts';
import type {
  BackendFailure,
  DataProviderFailure,
  DataProviderOperation,
  TokenFailure,
  TokenProblem,
} from '../domain/errors.ts';
import { recipientProblem, type TransferFieldProblem } from '../domain/token.ts';
import { isWalletError, type WalletError, type WalletErrorCode } from '../domain/wallet.ts';

// The words a user reads for a failure a service reported. Services speak in
// typed codes (src/domain/errors.ts, src/domain/wallet.ts); this is the one
// place that turns a code into the copy's text, so no service needs to know
// the product's wording. Failures are recognised by their shape, not their
// class, so one revived from the event journal reads the same.

/** What to tell the user about this failure, or null when it says nothing usable. */
export function describeError(error: unknown): string | null {
  if (isTokenFailure(error)) return tokenWords(error.problem);
  if (isDataProviderFailure(error)) {
    if (error.code === 'webhook_limit') return dataProviderCopy.webhookLimit;
    if (error.code === 'busy') return dataProviderCopy.busy(error.retryAfterSeconds ?? null);
    return error.code === 'rate_limited'
      ? dataProviderCopy.rateLimited(error.retryAfterSeconds ?? null)
      : DATA_PROVIDER_WORDS[error.operation];
  }
  if (isBackendFailure(error)) {
    if (error.code === 'client_unavailable') return authCopy.clientUnavailable.description;
  } else if (isWalletFailure(error)) {
    return WALLET_WORDS[error.code];
  }
  // What the backend or the wallet said, or any other error's message.
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message } = error;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return null;
}

function tokenWords(problem: TokenProblem): string {
  switch (problem.code) {
    case 'invalid-private-key-format':
      return tokenCopy.invalidPrivateKeyFormat;
    case 'invalid-private-key-value':
      return tokenCopy.invalidPrivateKeyValue;
    case 'key-mismatch':
      return sendCopy.keyMismatch;
    case 'invalid-recipient':
      return tokenCopy.invalidRecipient;
    case 'zero-recipient':
      return tokenCopy.zeroRecipient;
    case 'invalid-address':
      return tokenCopy.invalidAddress;
    case 'invalid-amount':
      return tokenCopy.invalidAmount;
    case 'zero-amount':
      return tokenCopy.zeroAmount;
    case 'too-many-decimals':
      return tokenCopy.tooManyDecimals(problem.decimals);
    case 'amount-too-large':
      return tokenCopy.amountTooLarge;
    case 'insufficient-token-balance':
      return problem.figures === null
        ? tokenCopy.insufficientTokenBalance
        : tokenCopy.insufficientTokenBalanceOf(problem.figures.balance, problem.figures.needed);
    case 'insufficient-funds-for-gas':
      return tokenCopy.insufficientFundsForGas;
    case 'wrong-chain':
      return tokenCopy.wrongChain(problem.actual, problem.expected);
    case 'chain-mismatch':
      return tokenCopy.chainMismatch;
    case 'invalid-receiver':
      return tokenCopy.invalidReceiver;
    case 'refused':
      return problem.revertReason ? `${tokenCopy.refused} ${problem.revertReason}` : tokenCopy.refused;
    case 'reverted':
      return tokenCopy.reverted;
    case 'not-confirmed':
      return tokenCopy.notConfirmed(problem.seconds);
    case 'sent-but-unchecked':
      return `${tokenCopy.sentButUnchecked} ${tokenWords(problem.failure)}`;
    case 'rpc-unavailable':
      return problem.status === null
        ? tokenCopy.rpcUnavailable
        : tokenCopy.rpcUnavailableStatus(problem.status);
    case 'no-token-contract':
      return tokenCopy.noTokenContract;
    case 'unknown':
      return tokenCopy.unknown;
  }
}

const DATA_PROVIDER_WORDS: Record<DataProviderOperation, string> = {
  init: dataProviderCopy.initFailed,
  getNativeBalance: dataProviderCopy.balanceUnknownError,
  createAddressWebhook: dataProviderCopy.createWebhookFailed,
  listWebhooks: dataProviderCopy.listWebhooksFailed,
  deleteWebhook: dataProviderCopy.deleteWebhookFailed,
};

// Only the codes whose words do not depend on what was asked: a refusal or a
// pending prompt reads differently for a connect and for a network switch, so
// the wallet machine words those itself.
const WALLET_WORDS = {
  'no-account': walletCopy.noAccount,
  'invalid-answer': walletCopy.invalidAnswer,
} satisfies Partial<Record<WalletError['code'], string>>;

/** The wallet's failures while it was asked to sign a proof. */
const SIGNING_WORDS: Record<WalletErrorCode, string> = {
  rejected: walletProofCopy.declined,
  pending: walletCopy.switchPending,
  'not-installed': walletCopy.notInstalled,
  'unrecognized-chain': walletProofCopy.walletFailed,
  'no-account': walletCopy.noAccount,
  'invalid-answer': walletCopy.invalidAnswer,
  'wrong-chain': walletProofCopy.walletFailed,
  'nonce-ahead': walletProofCopy.walletFailed,
  unknown: walletProofCopy.walletFailed,
};

/**
 * The words for a wallet proof that was refused: by the wallet (the user declined, another request
 * is open, it failed to sign) or by the link-wallet function (WalletProofRefusalCode). Null for any
 * other failure (no answer, a server error), which is the backend's and keeps its own words.
 */
export function walletProofRefusal(error: unknown): string | null {
  if (isBackendFailure(error)) {
    const code = error.code ?? '';
    const refused: Record<string, string> = walletProofCopy.refused;
    return Object.hasOwn(refused, code) ? (refused[code] ?? null) : null;
  }
  if (isWalletError(error)) {
    // What the wallet itself said, for a failure without a code of its own.
    return error.code === 'unknown' && error.message ? error.message : SIGNING_WORDS[error.code];
  }
  return null;
}

/**
 * The words for a failed Sign in with Ethereum: a declined signature (the wallet service's
 * 'rejected') says so, a missing wallet too; anything else as usual.
 */
export function walletSignInWords(error: unknown): string {
  // The wallet service asks for the signature (src/app/provide-portal.ts); the backend the rest.
  if (isWalletError(error) && !isBackendFailure(error)) {
    if (error.code === 'rejected') return authCopy.walletSignInDeclined;
    if (error.code === 'not-installed') return walletCopy.notInstalled;
  }
  return describeError(error) ?? authCopy.unexpectedError;
}

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

const hasCode = (value: unknown): boolean => isObject(value) && typeof value['code'] === 'string';

function isTokenFailure(error: unknown): error is TokenFailure {
  return isObject(error) && error['name'] === 'TokenServiceError' && hasCode(error['problem']);
}

function isDataProviderFailure(error: unknown): error is DataProviderFailure {
  return (
    isObject(error) &&
    error['name'] === 'TatumServiceError' &&
    typeof error['operation'] === 'string' &&
    Object.hasOwn(DATA_PROVIDER_WORDS, error['operation'])
  );
}

export function isBackendFailure(error: unknown): error is BackendFailure {
  return isObject(error) && error['name'] === 'BackendError';
}

/** Only the wallet codes worded here; the others fall through to the message. */
function isWalletFailure(error: unknown): error is { code: keyof typeof WALLET_WORDS } {
  return hasCode(error) && Object.hasOwn(WALLET_WORDS, (error as Fields)['code'] as string);
}

/** The words for a send form's field refused before anything is signed (docs/product.md#send-form-order). */
export function transferFieldWords(problem: TransferFieldProblem): string {
  switch (problem.code) {
    case 'invalid-recipient':
      return tokenCopy.invalidRecipient;
    case 'zero-recipient':
      return tokenCopy.zeroRecipient;
    case 'bad-checksum':
      return sendCopy.badChecksum;
    case 'invalid-amount':
      return tokenCopy.invalidAmount;
    case 'below-minimum':
      return sendCopy.belowMinimum(sendCopy.minimumAmount);
    case 'too-many-decimals':
      return tokenCopy.tooManyDecimals(problem.decimals);
    case 'over-balance':
      return tokenCopy.insufficientTokenBalanceOf(problem.balance, problem.needed);
  }
}

/** The wallet's failures while it was asked to send a transfer ('rejected' has a toast of its own). */
const SENDING_WORDS: Record<WalletErrorCode, string> = {
  rejected: sendCopy.walletRejected.description,
  pending: walletCopy.switchPending,
  'not-installed': walletCopy.notInstalled,
  'unrecognized-chain': sendCopy.walletWrongChain,
  'wrong-chain': sendCopy.walletWrongChain,
  'no-account': walletCopy.noAccount,
  'invalid-answer': walletCopy.invalidAnswer,
  'nonce-ahead': walletCopy.nonceAhead,
  unknown: sendCopy.walletSendFailed,
};

/** The words for a failed wallet send: the wallet's (its own message when it gave one), else as any failure. */
export function walletSendWords(error: unknown): string {
  if (isWalletError(error)) {
    return error.code === 'unknown' && error.message ? error.message : SENDING_WORDS[error.code];
  }
  return describeError(error) ?? tokenCopy.unknown;
}

/**
 * The words for a failed transfer step. The token service refuses a recipient ('invalid-recipient')
 * for its shape or for a wrong EIP-55 checksum; the form has already checked the shape, so a
 * well-shaped recipient refused that way has a mistyped checksum.
 */
export function transferFailureWords(error: unknown, recipient: string): string {
  if (isTokenFailure(error) && error.problem.code === 'invalid-recipient' && !recipientProblem(recipient)) {
    return transferFieldWords({ code: 'bad-checksum' });
  }
  return describeError(error) ?? tokenCopy.unknown;
}
