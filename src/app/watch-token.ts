import { sendCopy } from '../copy/index.ts';
import { DDEX_DECIMALS } from '../domain/token.ts';
import type { ToastRequest } from '../machines/shared.ts';
import { watchTokenFailureToast, watchTokenToast } from '../machines/wallet/watch-token-toasts.ts';
import type { WalletService } from '../services/wallet/types.ts';

// The wallet machine's `watchToken` actor (src/app/provide-portal.ts): asks the wallet to list DDEX
// and answers with the toast for what it said. Imported on the first press, with its words
// (src/copy/watch-token.ts), rather than with the page: the entry has no room for them.

/** DDEX's symbol, as its contract names it (contracts/DDEX.sol); its decimals are DDEX_DECIMALS. */
export const DDEX_SYMBOL = 'DDEX';

/** Never rejects: every answer and every failure of the wallet has its toast. */
export async function watchDdex(wallet: WalletService, address: string | null): Promise<ToastRequest> {
  // The button shows only with a contract configured; this is the send form's 'Configuration Error'.
  if (!address) return { ...sendCopy.configurationError, variant: 'destructive' };
  try {
    const outcome = await wallet.watchToken({ address, symbol: DDEX_SYMBOL, decimals: DDEX_DECIMALS });
    return watchTokenToast(outcome, address);
  } catch (error) {
    return watchTokenFailureToast(error, wallet.chain.name);
  }
}
