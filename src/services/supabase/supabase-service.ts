import {
  FunctionsFetchError,
  FunctionsHttpError,
  FunctionsRelayError,
  type RealtimePostgresChangesPayload,
  type SupabaseClient,
} from '@supabase/supabase-js';
import type { AuthChange, EmailLinkSession } from '../../domain/auth.ts';
import { toAuthUser } from './auth-user.ts';
import { AVATAR_BUCKET } from './avatar-url.ts';
import { AVATAR_CACHE_SECONDS, avatarObjectName } from './avatars.ts';
import type { Database } from '../../domain/database.types.ts';
import { isEmailAlertKind } from '../../domain/email-alerts.ts';
import { NETWORK_ERROR } from './errors.ts';
import { fromAuth, fromPostgrest, fromStorage, fromThrown, fromWalletSignIn } from './failures.ts';
import { clientProfileFields } from './profile-fields.ts';
import { unavailableSupabaseService } from './unavailable-service.ts';
import {
  BackendError,
  type AuthChangeEvent,
  type NotificationChange,
  type NotificationRow,
  type Profile,
  type SubscriptionStatus,
  type SupabaseService,
  type WalletNonce,
} from './types.ts';

export type SupabaseServiceOptions = {
  /** Where the sign-up confirmation link leads: the site origin (docs/product.md#calls). */
  siteUrl: string;
  /** Test seam for the avatar timestamp. */
  now?: () => number;
  /**
   * The session an emailed link opened this page with, which the boot took out of the address
   * (src/app/email-link.ts; the client does not read the address itself). It becomes the session
   * before the first read, and a recovery link is reported to this page's listeners only.
   */
  emailLink?: EmailLinkSession | null;
};

/** Notifications and transactions lists show the 20 newest (docs/product.md#constants). */
export const LIST_LIMIT = 20;
const NOT_FOUND = 'PGRST116';
const RECORD_TRANSACTION = 'record-transaction';
const LINK_WALLET = 'link-wallet';
const EMAIL_UNSUBSCRIBE = 'email-unsubscribe';

const AUTH_EVENTS: ReadonlySet<string> = new Set<AuthChangeEvent>([
  'INITIAL_SESSION',
  'SIGNED_IN',
  'SIGNED_OUT',
  'USER_UPDATED',
  'TOKEN_REFRESHED',
  'PASSWORD_RECOVERY',
]);
const SUBSCRIPTION_STATES: ReadonlySet<string> = new Set<SubscriptionStatus>([
  'SUBSCRIBED',
  'CHANNEL_ERROR',
  'TIMED_OUT',
  'CLOSED',
]);

// Channel topics must be unique per subscription: supabase-js hands back the
// existing channel for a topic it already holds, which a resubscribe after an
// error must not get.
let channelSequence = 0;

/**
 * The portal's backend calls (docs/product.md#calls). With a null client (no configuration)
 * every call fails with BackendError code 'client_unavailable'.
 */
export function createSupabaseService(
  client: SupabaseClient<Database> | null,
  options: SupabaseServiceOptions,
): SupabaseService {
  return client === null ? unavailableSupabaseService() : liveService(client, options);
}

/** Runs `work`, turning anything thrown that is not already a BackendError into one. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (thrown) {
    throw fromThrown(thrown);
  }
}

function liveService(client: SupabaseClient<Database>, options: SupabaseServiceOptions): SupabaseService {
  const now = options.now ?? Date.now;
  const avatars = () => client.storage.from(AVATAR_BUCKET);
  const avatarPublicUrl = (path: string): string | null => {
    if (path === '') return null;
    const url = avatars().getPublicUrl(path).data.publicUrl;
    return url === '' ? null : url;
  };

  // A recovery link's PASSWORD_RECOVERY is this page's alone: supabase-js would tell every open tab
  // (over its BroadcastChannel), and each would ask for a new password. So the client's own are
  // dropped, and this page's listeners hear the one its address carried.
  const listeners = new Set<(change: AuthChange) => void>();
  let recovery: AuthChange | null = null;
  let link = options.emailLink ?? null;
  let linkTaken: Promise<void> | null = null;
  const setLinkSession = async (): Promise<void> => {
    if (!link) return;
    const { type, accessToken, refreshToken } = link;
    link = null;
    const { data, error } = await client.auth.setSession({
      access_token: accessToken,
      refresh_token: refreshToken,
    });
    if (error) throw fromAuth(error);
    if (type !== 'recovery' || !data.user) return;
    const change: AuthChange = { event: 'PASSWORD_RECOVERY', user: toAuthUser(data.user) };
    if (listeners.size === 0) recovery = change;
    for (const listener of listeners) listener(change);
  };
  /** Once, before the first read; a link that could not be set fails that read only. */
  const takeLink = (): Promise<void> => {
    const taking = (linkTaken ??= setLinkSession());
    linkTaken = taking.catch(() => undefined);
    return taking;
  };

  return {
    available: true,

    getSession: () =>
      guarded(async () => {
        await takeLink();
        const { data, error } = await client.auth.getSession();
        if (error) throw fromAuth(error);
        return data.session ? toAuthUser(data.session.user) : null;
      }),

    onAuthChange(listener) {
      listeners.add(listener);
      const waiting = recovery;
      recovery = null;
      if (waiting) queueMicrotask(() => listener(waiting));
      const { data } = client.auth.onAuthStateChange((event, session) => {
        // MFA events are not part of the portal's session model; PASSWORD_RECOVERY is told above.
        if (!AUTH_EVENTS.has(event) || event === 'PASSWORD_RECOVERY') return;
        // Called synchronously and never awaited: supabase-js holds its auth lock
        // while it notifies, so the listener must not make it wait.
        listener({ event: event as AuthChangeEvent, user: session ? toAuthUser(session.user) : null });
      });
      return () => {
        listeners.delete(listener);
        data.subscription.unsubscribe();
      };
    },

    signUp: ({ email, password }) =>
      guarded(async () => {
        const { data, error } = await client.auth.signUp({
          email,
          password,
          options: { emailRedirectTo: options.siteUrl },
        });
        if (error) throw fromAuth(error);
        return { user: data.user ? toAuthUser(data.user) : null, hasSession: data.session !== null };
      }),

    signIn: ({ email, password }) =>
      guarded(async () => {
        const { data, error } = await client.auth.signInWithPassword({ email, password });
        if (error) throw fromAuth(error);
        return toAuthUser(data.user);
      }),

    signInWithWallet: ({ message, signature }) =>
      guarded(async () => {
        const { data, error } = await client.auth
          .signInWithWeb3({ chain: 'ethereum', message, signature: signature as `0x${string}` })
          .catch((thrown: unknown) => {
            throw fromWalletSignIn(thrown);
          });
        if (error) throw fromAuth(error);
        if (!data.user) throw new BackendError('Sign in with Ethereum answered without a user');
        return toAuthUser(data.user);
      }),

    signOut: () =>
      guarded(async () => {
        const { error } = await client.auth.signOut();
        if (error) throw fromAuth(error);
      }),

    requestPasswordReset: (email) =>
      guarded(async () => {
        const { error } = await client.auth.resetPasswordForEmail(email, { redirectTo: options.siteUrl });
        if (error) throw fromAuth(error);
      }),

    updatePassword: (password) =>
      guarded(async () => {
        const { error } = await client.auth.updateUser({ password });
        if (error) throw fromAuth(error);
        // A password is reset when the old one is forgotten or may be known to someone else:
        // every other session of the account ends (their refresh tokens are revoked), this one
        // stays. The password is set either way, so a failure here is not the reset's.
        await client.auth.signOut({ scope: 'others' });
      }),

    updateUserMetadata: (metadata) =>
      guarded(async () => {
        const { error } = await client.auth.updateUser({ data: metadata });
        if (error) throw fromAuth(error);
      }),

    fetchProfile: (userId) =>
      guarded(async () => {
        const { data, error, status } = await client.from('profiles').select('*').eq('id', userId).single();
        if (error) {
          if (error.code === NOT_FOUND) return null;
          throw fromPostgrest(error, status);
        }
        return data;
      }),

    upsertProfile: (row) =>
      guarded(async () => {
        const { data, error, status } = await client
          .from('profiles')
          .upsert(clientProfileFields(row), { onConflict: 'id' })
          .select()
          .single();
        if (error) throw fromPostgrest(error, status);
        return data;
      }),

    clearWallet: (userId) =>
      guarded(async () => {
        // Not through clientProfileFields: clearing is the one wallet write the owner may make.
        const { data, error, status } = await client
          .from('profiles')
          .upsert({ id: userId, wallet_address: null }, { onConflict: 'id' })
          .select()
          .single();
        if (error) throw fromPostgrest(error, status);
        return data;
      }),

    setEmailAlert: (kind, on) =>
      guarded(async () => {
        const { data, error, status } = await client.rpc('set_email_alert', { p_kind: kind, p_on: on });
        if (error) throw fromPostgrest(error, status);
        return data;
      }),

    listNotifications: (userId) =>
      guarded(async () => {
        const { data, error, status } = await client
          .from('user_notifications')
          .select('*')
          .eq('user_id', userId)
          .order('created_at', { ascending: false })
          .limit(LIST_LIMIT);
        if (error) throw fromPostgrest(error, status);
        return data;
      }),

    markNotificationsRead: (ids) =>
      guarded(async () => {
        // `id=in.()` would be a request that can change nothing.
        if (ids.length === 0) return;
        const { error, status } = await client
          .from('user_notifications')
          .update({ is_read: true, read_at: new Date(now()).toISOString() })
          .in('id', [...ids]);
        if (error) throw fromPostgrest(error, status);
      }),

    clearNotifications: (userId) =>
      guarded(async () => {
        const { error, status } = await client.from('user_notifications').delete().eq('user_id', userId);
        if (error) throw fromPostgrest(error, status);
      }),

    subscribeNotifications(userId, handlers) {
      let open = true;
      channelSequence += 1;
      const channel = client
        .channel(`user_notifications:${userId}:${channelSequence}`)
        .on<NotificationRow>(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'user_notifications', filter: `user_id=eq.${userId}` },
          (payload) => {
            if (open) handlers.onChange(toNotificationChange(payload));
          },
        );
      channel.subscribe((status, error) => {
        if (!open || !SUBSCRIPTION_STATES.has(status)) return;
        if (error) handlers.onStatus(status as SubscriptionStatus, error.message);
        else handlers.onStatus(status as SubscriptionStatus);
      });
      return () => {
        if (!open) return;
        // Closed first, so our own removal is not reported back as CLOSED.
        open = false;
        void client.removeChannel(channel).catch(() => undefined);
      };
    },

    listTransactions: (userId) =>
      guarded(async () => {
        const { data, error, status } = await client
          .from('transactions')
          .select('*')
          .eq('user_id', userId)
          .order('created_at', { ascending: false })
          .limit(LIST_LIMIT);
        if (error) throw fromPostgrest(error, status);
        return data;
      }),

    uploadAvatar: (userId, file) =>
      guarded(async () => {
        const name = avatarObjectName(userId, file, now());
        const { data, error } = await avatars().upload(name, file.data, {
          cacheControl: AVATAR_CACHE_SECONDS,
          contentType: file.type,
          upsert: true,
        });
        if (error) throw fromStorage(error);
        return data.path;
      }),

    avatarPublicUrl,

    removeAvatar: (userId, publicUrl) =>
      guarded(async () => {
        // Only a name uploadAvatar gives this user's files (avatarObjectName), whose public URL is
        // exactly this one: another user's avatar or an address elsewhere is not theirs to remove.
        const name = publicUrl.slice(publicUrl.lastIndexOf('/') + 1);
        if (!name.startsWith(`${userId}-`) || avatarPublicUrl(name) !== publicUrl) return false;
        const { error } = await avatars().remove([name]);
        if (error) throw fromStorage(error);
        return true;
      }),

    recordTransaction: (txHash) =>
      guarded(async () => {
        const { data, error } = await client.functions.invoke<unknown>(RECORD_TRANSACTION, {
          body: { txHash },
        });
        if (error) throw await fromFunctions(RECORD_TRANSACTION, error);
        if (
          typeof data !== 'object' ||
          data === null ||
          !('recorded' in data) ||
          typeof data.recorded !== 'boolean'
        ) {
          throw new BackendError(
            `${RECORD_TRANSACTION} answered without saying whether it recorded the transfer`,
          );
        }
        return { recorded: data.recorded };
      }),

    requestWalletNonce: (address) =>
      guarded(async () => {
        const { data, error } = await client.functions.invoke<unknown>(LINK_WALLET, { body: { address } });
        if (error) throw await fromFunctions(LINK_WALLET, error);
        return walletNonceOf(data);
      }),

    linkWallet: ({ message, signature }) =>
      guarded(async () => {
        const { data, error } = await client.functions.invoke<unknown>(LINK_WALLET, {
          body: { message, signature },
        });
        if (error) throw await fromFunctions(LINK_WALLET, error);
        const profile = isRecord(data) ? data['profile'] : null;
        if (!isRecord(profile) || typeof profile['id'] !== 'string') {
          throw new BackendError(`${LINK_WALLET} answered without the linked profile`);
        }
        return profile as Profile;
      }),

    unsubscribeEmail: (token) =>
      guarded(async () => {
        const { data, error } = await client.functions.invoke<unknown>(EMAIL_UNSUBSCRIBE, {
          body: { token },
        });
        if (error) throw await fromFunctions(EMAIL_UNSUBSCRIBE, error);
        const kind = isRecord(data) ? data['kind'] : null;
        if (!isEmailAlertKind(kind)) throw new BackendError(`${EMAIL_UNSUBSCRIBE} answered without the kind`);
        return kind;
      }),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** link-wallet's `{ nonce, expiresAt }`, refused when it is not that. */
function walletNonceOf(data: unknown): WalletNonce {
  const nonce = isRecord(data) ? data['nonce'] : null;
  const expiresAt = isRecord(data) ? data['expiresAt'] : null;
  if (
    typeof nonce !== 'string' ||
    !/^[A-Za-z0-9]{8,}$/.test(nonce) ||
    typeof expiresAt !== 'string' ||
    Number.isNaN(Date.parse(expiresAt))
  ) {
    throw new BackendError(`${LINK_WALLET} answered without a usable nonce`);
  }
  return { nonce, expiresAt };
}

function toNotificationChange(payload: RealtimePostgresChangesPayload<NotificationRow>): NotificationChange {
  // Full replica identity (migration 20261121000005) makes `old` a whole row.
  return payload.eventType === 'DELETE'
    ? { eventType: 'DELETE', row: payload.old as NotificationRow }
    : { eventType: payload.eventType, row: payload.new };
}

/** The edge function's own `{ code, message }` and status, so the caller sees why it refused. */
async function fromFunctions(name: string, error: unknown): Promise<BackendError> {
  if (error instanceof FunctionsHttpError || error instanceof FunctionsRelayError) {
    const response: unknown = error.context;
    if (response instanceof Response) {
      const body = await response.json().catch(() => null);
      const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      const message = typeof record['message'] === 'string' ? record['message'] : null;
      const code = typeof record['code'] === 'string' ? record['code'] : null;
      return new BackendError(
        message ?? `${name} failed with HTTP ${response.status}`,
        code,
        response.status,
      );
    }
  }
  if (error instanceof FunctionsFetchError) return new BackendError(error.message, NETWORK_ERROR);
  return fromThrown(error);
}
