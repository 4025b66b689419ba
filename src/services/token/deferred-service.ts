import { deferService } from '../deferred.ts';
import { TokenServiceError, type TokenService } from './types.ts';

// viem's reading, encoding and error-decoding code is needed for a transfer, never for the first
// screen: the entry bundle holds this stand-in, which imports the real service on the first call
// and forwards to it. (The signing code is a further chunk, loaded by the real service on the first
// send.) The balance, all a reconnecting wallet needs at start, has a loader of its own: the small
// balance reader (balance-reader.ts), so viem waits for the first send or the Trading tab.

/** A service that cannot be imported is, as far as the user can tell, a node that cannot be reached. */
function unreachable(reason: string): TokenServiceError {
  return new TokenServiceError({ code: 'rpc-unavailable', status: null }, { cause: new Error(reason) });
}

export function createDeferredTokenService(
  load: () => Promise<TokenService>,
  loadReader?: () => Promise<Pick<TokenService, 'readBalance'>>,
): TokenService {
  const service = deferService({ load, failure: unreachable });
  const reader = loadReader ? deferService({ load: loadReader, failure: unreachable }) : service;
  return {
    ...reader.forward(['readBalance']),
    ...service.forward([
      'prepareTransfer',
      'signTransfer',
      'broadcastTransfer',
      'prepareWalletTransfer',
      'confirmTransfer',
    ]),
  };
}
