export { createTokenService } from './token-service.ts';
export {
  TokenServiceError,
  type BroadcastTransferRequest,
  type PreparedTransfer,
  type PrepareTransferRequest,
  type SignedTransfer,
  type SignTransferRequest,
  type TokenBalance,
  type TokenProblem,
  type TokenService,
  type TokenServiceConfig,
  type TokenServiceErrorReason,
  type TransferRequest,
  type TransferResult,
} from './types.ts';
