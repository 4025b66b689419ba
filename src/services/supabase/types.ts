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
  | 'INITIAL_SESSION'
  | 'SIGNED_IN'
  | 'SIGNED_OUT'
  | 'USER_UPDATED'
  | 'TOKEN_REFRESHED'
  | 'PASSWORD_RECOVERY';

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
