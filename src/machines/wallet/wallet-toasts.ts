import { walletCopy } from '../../copy/index.ts';
import { isWalletError, type WalletError } from '../../domain/wallet.ts';
import { messageOf } from '../shared.ts';

// The wallet machine's words under a failed connect or network switch
// (docs/product.md#wallet-toasts): pure functions of the failure, kept beside the machine so its
// files hold the chart.

/**
 * The service's failures keep their code; anything else a wallet actor threw is 'unknown'. The
 * message is what error-words.ts says of it: the wording of a coded failure, or what was said.
 */
function failureOf(error: unknown): WalletError {
  return { code: isWalletError(error) ? error.code : 'unknown', message: messageOf(error) ?? null };
}

/** The description under 'Wallet Connection Failed' (docs/product.md#wallet-toasts). */
export function connectFailureText(error: unknown): string {
  const failure = failureOf(error);
  switch (failure.code) {
    case 'not-installed':
      return walletCopy.notInstalled;
    case 'rejected':
      return walletCopy.denied;
    case 'pending':
      return walletCopy.pending;
    default:
      return failure.message || walletCopy.connectFallback;
  }
}

/** The description under 'Network Switch Failed'. */
export function switchFailureText(error: unknown, chainName: string): string {
  const failure = failureOf(error);
  switch (failure.code) {
    case 'not-installed':
      return walletCopy.notInstalled;
    case 'rejected':
      return walletCopy.switchRejected;
    case 'pending':
      return walletCopy.switchPending;
    case 'unrecognized-chain':
      return failure.message || walletCopy.chainNotAdded(chainName);
    default:
      return failure.message || walletCopy.switchFallback;
  }
}
