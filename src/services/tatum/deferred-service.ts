import { deferService } from '../deferred.ts';
import { TatumServiceError, type TatumService } from './types.ts';

// The service's own code (answer checks, error mapping) and the supabase-js
// client it calls the functions through are needed when the balances or the
// webhook demo first ask for them; the entry bundle holds only this stand-in,
// which imports them on the first call.

export function createDeferredTatumService(load: () => Promise<TatumService>): TatumService {
  const deferred = deferService({
    load,
    failure: (detail) => new TatumServiceError('init', { detail }),
  });
  return {
    ...deferred.forward(['getNativeBalance', 'createAddressWebhook', 'listWebhooks', 'deleteWebhook']),
    // Nothing to release when the service was never used: no import just to destroy it.
    destroy: async () => {
      const current = await deferred.ifLoaded();
      await current?.destroy();
    },
  };
}
