import { deferService } from '../deferred.ts';
import type { WalletChain, WalletError, WalletService } from './types.ts';

// The wallet service (EIP-6963 discovery, EIP-1193 requests, EIP-55 checksums with their keccak)
// is needed as soon as the portal has painted, never for the first paint itself: the entry
// bundle holds this stand-in, which imports the real service on the first call (the boot's
// discovery) and forwards to it. The chain is configuration, known at once.

export function createDeferredWalletService(
  chain: WalletChain,
  load: () => Promise<WalletService>,
): WalletService {
  const deferred = deferService({
    load,
    failure: (reason): WalletError => ({
      code: 'unknown',
      message: `The wallet code could not be loaded: ${reason}`,
    }),
  });
  return {
    chain,
    ...deferred.forward([
      'discover',
      'requestAccounts',
      'switchChain',
      'signMessage',
      'sendTransaction',
      'watchToken',
      'copyAddress',
    ]),
    // Never rejects, like the real one: no code, no wallet to reconnect.
    silentReconnect: () =>
      deferred.service().then(
        (s) => s.silentReconnect(),
        () => null,
      ),
    forgetConnection: () =>
      deferred.service().then(
        (s) => s.forgetConnection(),
        () => undefined,
      ),
    // The machines watch a wallet only once one is connected, so the code is loaded by then;
    // an unsubscribe that comes first still wins.
    watch: (handlers) => deferred.subscribe((s) => s.watch(handlers)),
  };
}
