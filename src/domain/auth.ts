// Who is signed in, as the portal's machines and views see it. Adapters map
// their SDK's shapes into these; nothing here knows about any SDK.

/** The auth user's metadata the portal keeps in step with the profile (docs/product.md#data). */
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
  /**
   * The address of the user's Sign in with Ethereum identity, as it was signed; null for a user
   * who never signed in with a wallet. A wallet-only user has no email.
   */
  web3Address: string | null;
  metadata: UserMetadata;
};

/** Auth state changes, named as supabase-js names them. */
export type AuthChangeEvent =
  'INITIAL_SESSION' | 'SIGNED_IN' | 'SIGNED_OUT' | 'USER_UPDATED' | 'TOKEN_REFRESHED' | 'PASSWORD_RECOVERY';

export type AuthChange = { event: AuthChangeEvent; user: AuthUser | null };

/** Outcome of signUp: with confirmations on there is no session until the link is used. */
export type SignUpResult = { user: AuthUser | null; hasSession: boolean };

export type Credentials = { email: string; password: string };

/**
 * The session an emailed link (a password reset, a sign-up confirmation) opened the page with, and
 * which kind of link it was (GoTrue's `type`: recovery, signup, …). Only the boot and the backend
 * service hold it (src/app/email-link.ts).
 */
export type EmailLinkSession = { type: string | null; accessToken: string; refreshToken: string };

/**
 * GoTrue's refusal of a request it counts against a rate limit (HTTP 429; for a mail it sends,
 * `over_email_send_rate_limit`). A password reset is refused so only for an address that has an
 * account (an unknown one is answered as sent, and never mailed), so the portal answers it as sent.
 */
export function isRateLimited(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, status } = error as { code?: unknown; status?: unknown };
  return code === 'over_email_send_rate_limit' || status === 429;
}
