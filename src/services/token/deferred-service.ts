import { onFirstUse } from '../on-first-use.ts';
import { TokenServiceError, type TokenService } from './types.ts';

// viem's reading, encoding and error-decoding code is needed for a transfer, never for the first
// screen: the entry bundle holds this stand-in, which imports the real service on the first call
// and forwards to it. (The signing code is a further chunk, loaded by the real service on the first
// send.) The balance, all a reconnecting wallet needs at start, has a loader of its own: the small
// balance reader (balance-reader.ts), so viem waits for the first send or the Trading tab.

export function createDeferredTokenService(
  load: () => Promise<TokenService>,
  loadReader?: () => Promise<Pick<TokenService, 'readBalance'>>,
): TokenService {
  const loadOnce = onFirstUse(load);
  const readerOnce = loadReader ? onFirstUse(loadReader) : loadOnce;
  const unreachable = (error: unknown): never => {
    const cause = new Error(error instanceof Error ? error.message : String(error));
    throw new TokenServiceError({ code: 'rpc-unavailable', status: null }, { cause });
  };
  const service = () => loadOnce().catch(unreachable);
  return {
    readBalance: (holder) =>
      readerOnce()
        .catch(unreachable)
        .then((reader) => reader.readBalance(holder)),
    prepareTransfer: (request) => service().then((s) => s.prepareTransfer(request)),
    signTransfer: (request) => service().then((s) => s.signTransfer(request)),
    broadcastTransfer: (request) => service().then((s) => s.broadcastTransfer(request)),
    prepareWalletTransfer: (request) => service().then((s) => s.prepareWalletTransfer(request)),
    confirmTransfer: (request) => service().then((s) => s.confirmTransfer(request)),
  };
}
