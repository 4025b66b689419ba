import { dexCopy } from '../../copy/dex.ts';
import { tokenCopy, walletCopy } from '../../copy/index.ts';
import { dexProblemOf, type DexProblem } from '../../domain/dex.ts';
import { isWalletError, type WalletErrorCode } from '../../domain/wallet.ts';
import { describeError } from '../error-words.ts';

// The words of the Trading tab's failures: the DEX service's problems, the router's revert reasons
// and the wallet's failures while it sends an approval or a swap. Apart from error-words.ts so that
// they load with the tab's chunk: module-level tables that read dexCopy would otherwise keep every
// DEX string in the entry.

/** The words for the DEX service's problem (src/domain/dex.ts); the router's revert reason in plain words. */
export function dexProblemWords(problem: DexProblem): string {
  switch (problem.code) {
    case 'no-pair':
      return dexCopy.noPair;
    case 'no-router':
      return dexCopy.noRouter;
    case 'wrong-chain':
      return tokenCopy.wrongChain(problem.actual, problem.expected);
    case 'insufficient-liquidity':
      return dexCopy.insufficientLiquidity;
    case 'insufficient-balance':
      return dexCopy.insufficientBalanceOf(problem.asset);
    case 'reverted':
      return revertWords(problem.reason);
    case 'not-confirmed':
      return dexCopy.notConfirmed(problem.hash);
    case 'rpc-unavailable':
      return tokenCopy.rpcUnavailable;
    case 'unknown':
      return tokenCopy.unknown;
  }
}

/** Uniswap V2's revert strings a user can act on; any other is quoted as the router gave it. */
const REVERT_WORDS: Record<string, string> = {
  'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT': dexCopy.revertedSlippage,
  'UniswapV2Router: EXPIRED': dexCopy.revertedExpired,
  'TransferHelper: TRANSFER_FROM_FAILED': dexCopy.revertedTransferFailed,
};

/** The words for a swap the router reverted, by its revert string (null when the node gave none). */
export function revertWords(reason: string | null): string {
  if (reason === null || reason.trim() === '') return dexCopy.reverted;
  return Object.hasOwn(REVERT_WORDS, reason)
    ? (REVERT_WORDS[reason] ?? dexCopy.reverted)
    : dexCopy.revertedReason(reason);
}

/** The wallet's failures while it sends an approval or a swap (a refusal has a state of its own). */
const DEX_SENDING_WORDS: Record<WalletErrorCode, string> = {
  rejected: dexCopy.walletRejected,
  pending: walletCopy.switchPending,
  'not-installed': walletCopy.notInstalled,
  'unrecognized-chain': dexCopy.walletWrongChain,
  'wrong-chain': dexCopy.walletWrongChain,
  'no-account': walletCopy.noAccount,
  'invalid-answer': walletCopy.invalidAnswer,
  'nonce-ahead': walletCopy.nonceAhead,
  unknown: dexCopy.walletFailed,
};

/**
 * The wallet failures that prove it broadcast nothing: refused, on another chain, absent, busy
 * with another request, or refused by the node for a nonce past the account's. Any other (an answer that is not a hash, a relay's timeout) can come after
 * the wallet broadcast the transaction.
 */
const DEX_NOTHING_SENT: ReadonlySet<WalletErrorCode> = new Set<WalletErrorCode>([
  'rejected',
  'wrong-chain',
  'not-installed',
  'pending',
  'nonce-ahead',
]);

/** The words for a failed DEX step: the service's problem, the wallet's failure, else as any failure. */
export function dexFailureWords(error: unknown): string {
  const problem = dexProblemOf(error);
  if (problem) return dexProblemWords(problem);
  if (isWalletError(error)) {
    return error.code === 'unknown' && error.message ? error.message : DEX_SENDING_WORDS[error.code];
  }
  return describeError(error) ?? tokenCopy.unknown;
}

/** The words for a wallet that failed to send an approval or a swap, warning when it may have sent it. */
export function dexSendWords(error: unknown): string {
  const nothingSent = isWalletError(error) && DEX_NOTHING_SENT.has(error.code);
  const words = dexFailureWords(error);
  return nothingSent ? words : `${words} ${dexCopy.walletMaybeSent}`;
}
