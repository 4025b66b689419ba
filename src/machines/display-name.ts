import { appCopy } from '../copy/index.ts';
import type { AuthUser } from '../domain/auth.ts';
import type { Profile } from '../domain/profile.ts';

// The two naming rules of the spec, kept pure so the profile machine (which
// writes the default username) and the views (which show the display name)
// cannot disagree.

/** The part of an address before the at-sign; '' when there is none or it is empty. */
function emailLocalPart(email: string | null | undefined): string {
  return (email ?? '').split('@')[0]?.trim() ?? '';
}

/**
 * The default username of a new profile (docs/product.md#tables): the email's part before the
 * at-sign, else 'user_' and the first 8 characters of the id.
 */
export function defaultUsername(user: Pick<AuthUser, 'id' | 'email'>): string {
  return emailLocalPart(user.email) || `user_${user.id.slice(0, 8)}`;
}

/**
 * The display name (docs/product.md#display-name): the profile username, else the email's part
 * before the at-sign, else 'User'.
 */
export function displayName(
  profile: Pick<Profile, 'username'> | null | undefined,
  user: Pick<AuthUser, 'email'> | null | undefined,
): string {
  return profile?.username?.trim() || emailLocalPart(user?.email) || appCopy.displayNameFallback;
}
