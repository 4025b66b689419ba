import { onFirstUse } from '../on-first-use.ts';
import { TokenServiceError, type TokenService } from './types.ts';

// viem's reading, encoding and error-decoding code is needed once a wallet is
// connected, never for the first screen: the entry bundle holds this stand-in,
// which imports the real service on the first call and forwards to it. (The
// signing code is a further chunk, loaded by the real service on the first send.)

export function createDeferredTokenService(load: () => Promise<TokenService>): TokenService {
  const loadOnce = onFirstUse(load);
  const service = (): Promise<TokenService> =>
    loadOnce().catch((error: unknown) => {
      const cause = new Error(error instanceof Error ? error.message : String(error));
      throw new TokenServiceError({ code: 'rpc-unavailable', status: null }, { cause });
    });
  return {
    readBalance: (holder) => service().then((s) => s.readBalance(holder)),
    prepareTransfer: (request) => service().then((s) => s.prepareTransfer(request)),
    signTransfer: (request) => service().then((s) => s.signTransfer(request)),
    broadcastTransfer: (request) => service().then((s) => s.broadcastTransfer(request)),
    prepareWalletTransfer: (request) => service().then((s) => s.prepareWalletTransfer(request)),
    confirmTransfer: (request) => service().then((s) => s.confirmTransfer(request)),
  };
}
