import { clientUnavailable } from './errors.ts';
import { SUPABASE_REQUESTS, type SupabaseRequest, type SupabaseService } from './types.ts';

/**
 * The service when the portal has no backend configured: every call fails with
 * BackendError 'client_unavailable', and supabase-js is never loaded.
 */
export function unavailableSupabaseService(): SupabaseService {
  const refuse = () => Promise.reject(clientUnavailable());
  const requests = Object.fromEntries(SUPABASE_REQUESTS.map((name) => [name, refuse])) as Record<
    SupabaseRequest,
    typeof refuse
  >;
  return {
    ...requests,
    available: false,
    // Nothing will ever change; getSession already reports why.
    onAuthChange: () => () => undefined,
    subscribeNotifications(_userId, handlers) {
      let open = true;
      // Reported like a refused join, asynchronously as a real channel would.
      queueMicrotask(() => {
        if (open) handlers.onStatus('CHANNEL_ERROR', clientUnavailable().message);
      });
      return () => {
        open = false;
      };
    },
    avatarPublicUrl: () => null,
  };
}
