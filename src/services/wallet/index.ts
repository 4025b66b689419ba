export {
  createWalletService,
  PREFERRED_RDNS,
  toWalletError,
  USER_DISCONNECTED_KEY,
} from './wallet-service.ts';
export type {
  Eip1193Provider,
  WalletAsset,
  WalletChain,
  WalletConnection,
  WalletDiscovery,
  WalletError,
  WalletErrorCode,
  WalletEventHandlers,
  WalletInfo,
  WalletService,
  WalletServiceConfig,
  WalletTransaction,
  WalletWindow,
  WatchTokenOutcome,
} from './types.ts';
