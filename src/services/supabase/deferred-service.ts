import { avatarPublicUrl } from './avatar-url.ts';
import { NETWORK_ERROR } from './errors.ts';
import {
  BackendError,
  SUPABASE_REQUESTS,
  type AuthChange,
  type SupabaseRequest,
  type SupabaseService,
} from './types.ts';
import { onFirstUse } from '../on-first-use.ts';

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
  const loadOnce = onFirstUse(load);
  // Auth listeners wait here until an import succeeds, so one that failed (a network blip) does not
  // leave the session deaf for the rest of the page's life: the next call that loads attaches them.
  type AuthListener = { listener: (change: AuthChange) => void; stop: (() => void) | null };
  const authListeners = new Set<AuthListener>();
  const service = (): Promise<SupabaseService> =>
    loadOnce().then(
      (loaded) => {
        for (const entry of authListeners) entry.stop ??= loaded.onAuthChange(entry.listener);
        return loaded;
      },
      (error: unknown) => {
        // A chunk that cannot be fetched is the backend being unreachable, as far as the user can tell.
        const reason = error instanceof Error ? error.message : String(error);
        throw new BackendError(`The backend client could not be loaded: ${reason}`, NETWORK_ERROR);
      },
    );

  // Every plain request is forwarded as it is, by name.
  const forwarded = Object.fromEntries(
    SUPABASE_REQUESTS.map((name) => [
      name,
      (...args: unknown[]) =>
        service().then((real) => (real[name] as (...params: unknown[]) => Promise<unknown>)(...args)),
    ]),
  ) as Pick<SupabaseService, SupabaseRequest>;

  return {
    ...forwarded,
    available: true,
    onAuthChange(listener) {
      const entry: AuthListener = { listener, stop: null };
      authListeners.add(entry);
      // A failed import is reported by getSession, which the auth machine calls first.
      service().catch(() => undefined);
      return () => {
        authListeners.delete(entry);
        entry.stop?.();
      };
    },
    subscribeNotifications(userId, handlers) {
      let unsubscribe: (() => void) | null = null;
      let active = true;
      service()
        .then((s) => {
          if (active) unsubscribe = s.subscribeNotifications(userId, handlers);
        })
        .catch((error: unknown) => {
          // Reported as a refused join, so the notifications machine's back-off takes over.
          if (active) handlers.onStatus('CHANNEL_ERROR', (error as BackendError).message);
        });
      return () => {
        active = false;
        unsubscribe?.();
      };
    },
    avatarPublicUrl: (path) => avatarPublicUrl(url, path),
  };
}
