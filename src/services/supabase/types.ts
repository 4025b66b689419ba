import type { Database } from './database.types.ts';

// The shapes the portal's machines work with. Machines import these types
// (never the client), so they stay pure and the service can change underneath.

export type Profile = Database['public']['Tables']['profiles']['Row'];
export type ProfileUpsert = Database['public']['Tables']['profiles']['Insert'];
export type NotificationRow = Database['public']['Tables']['user_notifications']['Row'];
export type TransactionRow = Database['public']['Tables']['transactions']['Row'];

/** Spec §3 "Auth user metadata". */
export type UserMetadata = {
  wallet_address?: string | null;
  username?: string | null;
  avatar_url?: string | null;
  full_name?: string | null;
};

export type AuthUser = {
  id: string;
  email: string | null;
  /** Set once the address is confirmed (or when confirmations are off). */
  emailConfirmedAt: string | null;
  metadata: UserMetadata;
};

/** Spec §7 auth state change events, as supabase-js names them. */
export type AuthChangeEvent =
  'INITIAL_SESSION' | 'SIGNED_IN' | 'SIGNED_OUT' | 'USER_UPDATED' | 'TOKEN_REFRESHED' | 'PASSWORD_RECOVERY';

export type AuthChange = { event: AuthChangeEvent; user: AuthUser | null };

/** Outcome of signUp: with confirmations on there is no session until the link is used. */
export type SignUpResult = { user: AuthUser | null; hasSession: boolean };

/** A failure the backend explained; `code` is PostgREST's / GoTrue's code when there is one. */
export class BackendError extends Error {
  readonly code: string | null;
  readonly status: number | null;
  constructor(message: string, code: string | null = null, status: number | null = null) {
    super(message);
    this.name = 'BackendError';
    this.code = code;
    this.status = status;
  }
}

/** Spec §7 "realtime subscription to all events": a change to one of the user's notifications. */
export type NotificationChange = {
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
  /** The new row, or for DELETE the old one (the table has full replica identity). */
  row: NotificationRow;
};

/** Realtime's channel states as supabase-js reports them to `subscribe`. */
export type SubscriptionStatus = 'SUBSCRIBED' | 'CHANNEL_ERROR' | 'TIMED_OUT' | 'CLOSED';

export type NotificationHandlers = {
  onChange(change: NotificationChange): void;
  /** `error` is realtime's explanation for CHANNEL_ERROR, when it gave one. */
  onStatus(status: SubscriptionStatus, error?: string): void;
};

/** An avatar as the browser's file input gives it. */
export type AvatarFile = { name: string; type: string; size: number; data: Blob };

export type Credentials = { email: string; password: string };

/**
 * Spec §7: every backend call the portal makes. Every promise rejects with a
 * BackendError. Made without a client (missing configuration), every call
 * rejects with code 'client_unavailable'.
 */
export interface SupabaseService {
  /** False when the service was made without a client; every call then fails with 'client_unavailable'. */
  readonly available: boolean;

  // Auth
  getSession(): Promise<AuthUser | null>;
  /** Session events as supabase-js emits them (INITIAL_SESSION first). Returns the unsubscribe. */
  onAuthChange(listener: (change: AuthChange) => void): () => void;
  /** Redirects the confirmation link to the site origin. */
  signUp(credentials: Credentials): Promise<SignUpResult>;
  signIn(credentials: Credentials): Promise<AuthUser>;
  signOut(): Promise<void>;
  updateUserMetadata(metadata: UserMetadata): Promise<void>;

  // Profiles
  /** The user's profile, or null when it has no row yet (PGRST116). */
  fetchProfile(userId: string): Promise<Profile | null>;
  /**
   * Upserts on conflict id and returns the saved row. Only client-owned fields
   * are sent (CLIENT_PROFILE_FIELDS): a fetched profile can be passed back as is.
   */
  upsertProfile(row: ProfileUpsert): Promise<Profile>;

  // Notifications
  /** The 20 newest, newest first. */
  listNotifications(userId: string): Promise<NotificationRow[]>;
  markNotificationsRead(ids: readonly string[]): Promise<void>;
  clearNotifications(userId: string): Promise<void>;
  /**
   * Live changes of the user's notifications. Never retries on its own: the
   * caller decides when to subscribe again. The returned function removes the
   * channel; no handler is called after it.
   */
  subscribeNotifications(userId: string, handlers: NotificationHandlers): () => void;

  // Transactions
  /** The 20 newest, newest first. */
  listTransactions(userId: string): Promise<TransactionRow[]>;

  // Storage
  /** Uploads to the avatars bucket as `<user id>-<timestamp>.<ext>` and resolves with that object name. */
  uploadAvatar(userId: string, file: AvatarFile): Promise<string>;
  /** The public URL of an avatar object, or null when there is none to give. */
  avatarPublicUrl(path: string): string | null;

  // Functions
  /** Records the signed-in user's own DDEX send (edge function record-transaction). */
  recordTransaction(txHash: string): Promise<{ recorded: boolean }>;
}
