import type { AuthChange, AuthUser, Credentials, SignUpResult, UserMetadata } from '../../domain/auth.ts';
import type { EmailAlertKind } from '../../domain/email-alerts.ts';
import type { Json } from '../../domain/database.types.ts';
import type { BackendFailure } from '../../domain/errors.ts';
import type { NotificationChange, NotificationRow, SubscriptionStatus } from '../../domain/notifications.ts';
import type { AvatarFile, Profile, ProfileUpsert } from '../../domain/profile.ts';
import type { TransactionRow } from '../../domain/transactions.ts';
import type { WalletNonce, WalletProof } from '../../domain/wallet.ts';

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
  WalletNonce,
  WalletProof,
};

/** The EIP-1193 side of a browser wallet, as supabase-js talks to it. */
export type Eip1193Requester = { request(args: { method: string; params?: unknown }): Promise<unknown> };

/** Sign in with Ethereum (docs/product.md#auth-dialog): the wallet signs supabase-js's EIP-4361 message. */
export type WalletSignIn = {
  /** The EIP-4361 message the wallet signed (src/services/wallet/siwe.ts builds it). */
  message: string;
  /** The wallet's personal_sign signature of it. */
  signature: string;
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
  /**
   * Sign in with Ethereum through supabase-js, with a message the wallet has already signed (the
   * composition root asks it through the wallet service, one prompt at a time, and drops a
   * signature that comes after the dialog closed). The backend links the signed-in address to the
   * profile itself, unless another account holds it.
   */
  signInWithWallet(request: WalletSignIn): Promise<AuthUser>;
  signOut(): Promise<void>;
  updateUserMetadata(metadata: UserMetadata): Promise<void>;
  /**
   * Mails a password recovery link to `email`, which opens the site signed in for recovery
   * (PASSWORD_RECOVERY). Answers the same whether or not the address has an account.
   */
  requestPasswordReset(email: string): Promise<void>;
  /** Sets the signed-in user's password (after a recovery link) and ends the account's other sessions. */
  updatePassword(password: string): Promise<void>;

  // Profiles
  /** The user's profile, or null when it has no row yet (PGRST116). */
  fetchProfile(userId: string): Promise<Profile | null>;
  /**
   * Upserts on conflict id and returns the saved row. Only client-owned fields
   * are sent (CLIENT_PROFILE_FIELDS): a fetched profile can be passed back as is.
   * The wallet is not one of them: it is linked by proof (linkWallet) and cleared by clearWallet.
   */
  upsertProfile(row: ProfileUpsert): Promise<Profile>;
  /** Unlinks the profile's wallet (upsert `wallet_address: null`, which also clears `wallet_verified_at`). */
  clearWallet(userId: string): Promise<Profile>;
  /**
   * Turns one kind of email alert on or off in the signed-in user's own profile, on the row as the
   * database holds it (rpc set_email_alert), and answers its notification_preferences as they now
   * stand: a kind changed elsewhere (an alert mail's unsubscribe link) is never written back.
   */
  setEmailAlert(kind: EmailAlertKind, on: boolean): Promise<Json>;

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
  /**
   * Removes the avatar object `publicUrl` names when it is one of `userId`'s own uploads (as
   * uploadAvatar names them, at avatarPublicUrl's address) and resolves true; any other URL is
   * left alone and resolves false without a request.
   */
  removeAvatar(userId: string, publicUrl: string): Promise<boolean>;

  // Functions
  /** Records the signed-in user's own DDEX send (edge function record-transaction). */
  recordTransaction(txHash: string): Promise<{ recorded: boolean }>;
  /**
   * A nonce for proving `address` (edge function link-wallet): single use, for this user and address,
   * valid 10 minutes. Code 'wallet_taken' (409) when another account holds the address.
   */
  requestWalletNonce(address: string): Promise<WalletNonce>;
  /**
   * Links the wallet a signed EIP-4361 message proves (edge function link-wallet) and returns the
   * profile with `wallet_verified_at`. A refusal keeps the function's code (WalletProofRefusalCode)
   * and message.
   */
  linkWallet(proof: WalletProof): Promise<Profile>;
  /**
   * Turns off the email alerts of the kind an emailed unsubscribe token names (edge function
   * email-unsubscribe), signed in or not, and resolves with that kind.
   */
  unsubscribeEmail(token: string): Promise<EmailAlertKind>;
}

/** The calls that are plain requests: each answers once, with a promise. */
export type SupabaseRequest = Exclude<
  keyof SupabaseService,
  'available' | 'onAuthChange' | 'subscribeNotifications' | 'avatarPublicUrl'
>;

/**
 * Every plain request, by name, for the stand-ins that answer them all alike (the deferred and the
 * unavailable service). A name that is no request does not compile, nor does a request left out.
 */
export const SUPABASE_REQUESTS = [
  'getSession',
  'signUp',
  'signIn',
  'signInWithWallet',
  'signOut',
  'updateUserMetadata',
  'requestPasswordReset',
  'updatePassword',
  'fetchProfile',
  'upsertProfile',
  'clearWallet',
  'setEmailAlert',
  'listNotifications',
  'markNotificationsRead',
  'clearNotifications',
  'listTransactions',
  'uploadAvatar',
  'removeAvatar',
  'recordTransaction',
  'requestWalletNonce',
  'linkWallet',
  'unsubscribeEmail',
] as const satisfies readonly SupabaseRequest[];

/** Fails to compile while a request is missing from SUPABASE_REQUESTS, and names the missing one. */
type NoneUnlisted<Unlisted extends never> = Unlisted;
export type EveryRequestListed = NoneUnlisted<Exclude<SupabaseRequest, (typeof SUPABASE_REQUESTS)[number]>>;
