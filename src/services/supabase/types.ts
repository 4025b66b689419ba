import type { AuthChange, AuthUser, Credentials, SignUpResult, UserMetadata } from '../../domain/auth.ts';
import type { BackendFailure } from '../../domain/errors.ts';
import type { NotificationChange, NotificationRow, SubscriptionStatus } from '../../domain/notifications.ts';
import type { AvatarFile, Profile, ProfileUpsert } from '../../domain/profile.ts';
import type { TransactionRow } from '../../domain/transactions.ts';

// The backend contract the composition root builds the machines' actors from.
// The shapes it speaks in live in src/domain/.

export type { AuthChangeEvent } from '../../domain/auth.ts';
export type {
  AuthChange,
  AuthUser,
  AvatarFile,
  Credentials,
  NotificationChange,
  NotificationRow,
  Profile,
  ProfileUpsert,
  SignUpResult,
  SubscriptionStatus,
  TransactionRow,
  UserMetadata,
};

/**
 * A failure the backend explained: `message` is what the server said, `code` its code (PostgREST's,
 * GoTrue's, Storage's) or one of the portal's own (BackendErrorCode), whose words the machines choose.
 */
export class BackendError extends Error implements BackendFailure {
  override readonly name = 'BackendError';
  readonly code: string | null;
  readonly status: number | null;

  constructor(message: string, code: string | null = null, status: number | null = null) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export type NotificationHandlers = {
  onChange(change: NotificationChange): void;
  /** `error` is realtime's explanation for CHANNEL_ERROR, when it gave one. */
  onStatus(status: SubscriptionStatus, error?: string): void;
};

/**
 * Every backend call the portal makes (docs/product.md#calls). Every promise rejects with a
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
  /**
   * Uploads to the avatars bucket as `<user id>-<timestamp>.<ext>` and resolves with that object name.
   * The file is not checked here: the bucket refuses another type (415) or more than 2 MB (413),
   * and callers check first with avatarProblem (src/domain/profile.ts).
   */
  uploadAvatar(userId: string, file: AvatarFile): Promise<string>;
  /** The public URL of an avatar object, or null when there is none to give. */
  avatarPublicUrl(path: string): string | null;

  // Functions
  /** Records the signed-in user's own DDEX send (edge function record-transaction). */
  recordTransaction(txHash: string): Promise<{ recorded: boolean }>;
}
