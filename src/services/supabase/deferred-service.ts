import { avatarPublicUrl } from './avatar-url.ts';
import { NETWORK_ERROR } from './errors.ts';
import { BackendError, SUPABASE_REQUESTS, type AuthChange, type SupabaseService } from './types.ts';
import { deferService } from '../deferred.ts';

// supabase-js is a third of the portal's JavaScript and nothing on the first
// screen needs it, so the entry bundle holds only this stand-in: it has the
// service's shape, imports the real service on the first call (the auth
// machine's session read, right after start) and forwards every call to it.

export type DeferredSupabaseConfig = {
  /** The API origin, for avatar URLs (a pure function of it, needed before the import lands). */
  url: string;
  load: () => Promise<SupabaseService>;
};

export function createDeferredSupabaseService({ url, load }: DeferredSupabaseConfig): SupabaseService {
  // Auth listeners wait here until an import succeeds, so one that failed (a network blip) does not
  // leave the session deaf for the rest of the page's life: the next call that loads attaches them.
  type AuthListener = { listener: (change: AuthChange) => void; stop: (() => void) | null };
  const authListeners = new Set<AuthListener>();
  const deferred = deferService({
    load,
    onLoaded: (loaded) => {
      for (const entry of authListeners) entry.stop ??= loaded.onAuthChange(entry.listener);
    },
    // A chunk that cannot be fetched is the backend being unreachable, as far as the user can tell.
    failure: (reason) => new BackendError(`The backend client could not be loaded: ${reason}`, NETWORK_ERROR),
  });

  return {
    // Every plain request is forwarded as it is, by name.
    ...deferred.forward(SUPABASE_REQUESTS),
    available: true,
    onAuthChange(listener) {
      const entry: AuthListener = { listener, stop: null };
      authListeners.add(entry);
      // A failed import is reported by getSession, which the auth machine calls first.
      deferred.service().catch(() => undefined);
      return () => {
        authListeners.delete(entry);
        entry.stop?.();
      };
    },
    subscribeNotifications: (userId, handlers) =>
      deferred.subscribe(
        (s) => s.subscribeNotifications(userId, handlers),
        // Reported as a refused join, so the notifications machine's back-off takes over.
        (error) => handlers.onStatus('CHANNEL_ERROR', (error as BackendError).message),
      ),
    avatarPublicUrl: (path) => avatarPublicUrl(url, path),
  };
}
