export { createFaucetService } from './functions-service.ts';
export { FaucetError, type FaucetService, type FaucetServiceConfig } from './types.ts';
