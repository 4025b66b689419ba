import { onFirstUse } from '../on-first-use.ts';
import type { WalletChain, WalletError, WalletService } from './types.ts';

// The wallet service (EIP-6963 discovery, EIP-1193 requests, EIP-55 checksums with their keccak)
// is needed as soon as the portal has painted, never for the first paint itself: the entry
// bundle holds this stand-in, which imports the real service on the first call (the boot's
// discovery) and forwards to it. The chain is configuration, known at once.

export function createDeferredWalletService(
  chain: WalletChain,
  load: () => Promise<WalletService>,
): WalletService {
  const loadOnce = onFirstUse(load);
  const service = (): Promise<WalletService> =>
    loadOnce().catch((error: unknown) => {
      throw {
        code: 'unknown',
        message: `The wallet code could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      } satisfies WalletError;
    });
  return {
    chain,
    discover: () => service().then((s) => s.discover()),
    // Never rejects, like the real one: no code, no wallet to reconnect.
    silentReconnect: () =>
      service().then(
        (s) => s.silentReconnect(),
        () => null,
      ),
    requestAccounts: () => service().then((s) => s.requestAccounts()),
    switchChain: (chainId) => service().then((s) => s.switchChain(chainId)),
    signMessage: (address, message) => service().then((s) => s.signMessage(address, message)),
    sendTransaction: (transaction) => service().then((s) => s.sendTransaction(transaction)),
    copyAddress: (address) => service().then((s) => s.copyAddress(address)),
    forgetConnection: () =>
      service().then(
        (s) => s.forgetConnection(),
        () => undefined,
      ),
    watch: (handlers) => {
      // The machines watch a wallet only once one is connected, so the code is loaded by then;
      // an unsubscribe that comes first still wins.
      let stop: (() => void) | null = null;
      let stopped = false;
      void service().then(
        (s) => {
          if (!stopped) stop = s.watch(handlers);
        },
        () => undefined,
      );
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}
