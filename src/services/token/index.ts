export { createTokenService } from './token-service.ts';
export {
  TokenServiceError,
  type TokenBalance,
  type TokenService,
  type TokenServiceConfig,
  type TokenServiceErrorReason,
  type TransferRequest,
  type TransferResult,
} from './types.ts';
