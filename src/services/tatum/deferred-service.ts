import { onFirstUse } from '../on-first-use.ts';
import { TatumServiceError, type TatumService } from './types.ts';

// The service's own code (answer checks, error mapping) and the supabase-js
// client it calls the functions through are needed when the balances or the
// webhook demo first ask for them; the entry bundle holds only this stand-in,
// which imports them on the first call.

export function createDeferredTatumService(load: () => Promise<TatumService>): TatumService {
  const loadOnce = onFirstUse(load);
  let loaded: Promise<TatumService> | null = null;
  const service = (): Promise<TatumService> => {
    loaded = loadOnce().catch((error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      throw new TatumServiceError('init', { detail });
    });
    return loaded;
  };
  return {
    getNativeBalance: (address) => service().then((s) => s.getNativeBalance(address)),
    createAddressWebhook: (input) => service().then((s) => s.createAddressWebhook(input)),
    listWebhooks: () => service().then((s) => s.listWebhooks()),
    deleteWebhook: (id) => service().then((s) => s.deleteWebhook(id)),
    // Nothing to release when the service was never used: no import just to destroy it.
    destroy: async () => {
      const current = await loaded?.catch(() => null);
      await current?.destroy();
    },
  };
}
