import { walletCopy } from '../../copy/index.ts';
import { watchTokenCopy } from '../../copy/watch-token.ts';
import { isWalletError, type WatchTokenOutcome } from '../../domain/wallet.ts';
import { messageOf, type ToastRequest } from '../shared.ts';

// The toast the wallet machine shows for each answer to adding DDEX to the wallet
// (docs/product.md#wallet). Loaded with the request on the first press (src/app/watch-token.ts),
// not with the machine: the entry has no room for its words.

/** What the wallet answered: 'DDEX Added to Wallet', or why it was not added. */
export function watchTokenToast(outcome: WatchTokenOutcome, address: string): ToastRequest {
  switch (outcome) {
    case 'added':
      return watchTokenCopy.added;
    case 'declined':
      return { title: walletCopy.tokenNotAdded, description: watchTokenCopy.declined };
    case 'unsupported':
      return { title: walletCopy.tokenNotAdded, description: watchTokenCopy.unsupported(address) };
  }
}

/** The wallet service's failure, worded as the network switch's are; `chainName` is the portal's. */
export function watchTokenFailureToast(error: unknown, chainName: string): ToastRequest {
  const code = isWalletError(error) ? error.code : null;
  const description =
    code === 'pending'
      ? walletCopy.switchPending
      : code === 'not-installed'
        ? walletCopy.notInstalled
        : code === 'wrong-chain'
          ? watchTokenCopy.wrongChain(chainName)
          : messageOf(error, watchTokenCopy.failed);
  return { title: walletCopy.tokenNotAdded, description, variant: 'destructive' };
}
