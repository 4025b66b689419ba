export { createTatumService } from './functions-service.ts';
export {
  TatumServiceError,
  type AddressWebhook,
  type FunctionsClient,
  type NativeBalance,
  type TatumOperation,
  type TatumService,
  type TatumServiceConfig,
} from './types.ts';
