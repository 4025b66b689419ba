export { createTatumService, type TatumServiceDeps } from './tatum-service.ts';
export {
  TatumServiceError,
  type AddressWebhook,
  type NativeBalance,
  type TatumNetwork,
  type TatumOperation,
  type TatumService,
  type TatumServiceConfig,
} from './types.ts';
