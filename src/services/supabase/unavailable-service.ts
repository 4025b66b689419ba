import { clientUnavailable } from './errors.ts';
import type { SupabaseService } from './types.ts';

/**
 * The service when the portal has no backend configured: every call fails with
 * BackendError 'client_unavailable', and supabase-js is never loaded.
 */
export function unavailableSupabaseService(): SupabaseService {
  const refuse = () => Promise.reject(clientUnavailable());
  return {
    available: false,
    getSession: refuse,
    // Nothing will ever change; getSession already reports why.
    onAuthChange: () => () => undefined,
    signUp: refuse,
    signIn: refuse,
    signOut: refuse,
    updateUserMetadata: refuse,
    fetchProfile: refuse,
    upsertProfile: refuse,
    listNotifications: refuse,
    markNotificationsRead: refuse,
    clearNotifications: refuse,
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
    listTransactions: refuse,
    uploadAvatar: refuse,
    avatarPublicUrl: () => null,
    recordTransaction: refuse,
  };
}
