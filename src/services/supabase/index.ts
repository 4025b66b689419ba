export { createSupabaseClient, type SupabaseClientConfig } from './client.ts';
export { createSupabaseService, LIST_LIMIT, type SupabaseServiceOptions } from './supabase-service.ts';
export { CLIENT_UNAVAILABLE, NETWORK_ERROR } from './errors.ts';
export { CLIENT_PROFILE_FIELDS, type ClientProfileFields } from './profile-fields.ts';
export {
  BackendError,
  type AuthChange,
  type AuthChangeEvent,
  type AuthUser,
  type AvatarFile,
  type Credentials,
  type NotificationChange,
  type NotificationHandlers,
  type NotificationRow,
  type Profile,
  type ProfileUpsert,
  type SignUpResult,
  type SubscriptionStatus,
  type SupabaseService,
  type TransactionRow,
  type UserMetadata,
  type WalletNonce,
  type WalletProof,
  type WalletSignIn,
} from './types.ts';
export type { Database } from '../../domain/database.types.ts';
