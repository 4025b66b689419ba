import { appCopy, shortAddress } from '../../copy/index.ts';
import type { AuthUser } from '../../domain/auth.ts';
import type { Profile } from '../../domain/profile.ts';

// The two naming rules of the spec, kept pure so the profile machine (which
// writes the default username) and the views (which show the display name)
// cannot disagree.

/** The part of an address before the at-sign; '' when there is none or it is empty. */
function emailLocalPart(email: string | null | undefined): string {
  return (email ?? '').split('@')[0]?.trim() ?? '';
}

/**
 * The default username of a new profile (docs/product.md#tables): the email's part before the
 * at-sign, else 'user_' and the first 8 characters of the id. A wallet-only user (signed in with
 * Ethereum, no email) gets none: the display name then shows their address, as it does for the
 * row the sign-in itself creates.
 */
export function defaultUsername(user: Pick<AuthUser, 'id' | 'email' | 'web3Address'>): string | null {
  const local = emailLocalPart(user.email);
  if (local) return local;
  return user.web3Address && !user.email ? null : `user_${user.id.slice(0, 8)}`;
}

/**
 * The display name (docs/product.md#display-name): the profile username, else the email's part
 * before the at-sign, else the address the user signed in with (shortened as the wallet panel
 * shortens it), else 'User'.
 */
export function displayName(
  profile: Pick<Profile, 'username'> | null | undefined,
  user: Pick<AuthUser, 'email' | 'web3Address'> | null | undefined,
): string {
  return (
    profile?.username?.trim() ||
    emailLocalPart(user?.email) ||
    (user?.web3Address ? shortAddress(user.web3Address) : '') ||
    appCopy.displayNameFallback
  );
}
