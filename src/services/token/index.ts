export { createTokenService } from './token-service.ts';
export {
  TokenServiceError,
  type BroadcastTransferRequest,
  type ConfirmTransferRequest,
  type PreparedTransfer,
  type PrepareTransferRequest,
  type PrepareWalletTransferRequest,
  type SignedTransfer,
  type SignTransferRequest,
  type TokenBalance,
  type TokenProblem,
  type TokenService,
  type TokenServiceConfig,
  type TokenServiceErrorReason,
  type TransferRequest,
  type TransferResult,
  type WalletTransfer,
} from './types.ts';
