import type { Claims } from '../claims.ts';

// A channel lives no longer than its token, as on hosted Realtime, which
// re-confirms a channel's token at its exp (and at least every five minutes)
// and shuts the channel down with a system message once it has expired.

/** The longest wait between two looks at a channel's token. */
export const RECHECK_MS = 5 * 60_000;

/** When a channel's token expires (ms since the epoch); null for the project's keys, which do not. */
export function expiresAt(claims: Claims): number | null {
  const exp = claims.raw['exp'];
  return typeof exp === 'number' ? exp * 1000 : null;
}

export function isExpired(expiry: number | null, now = Date.now()): boolean {
  return expiry !== null && now >= expiry;
}

/** Hosted Realtime's words for it. */
export function expiredMessage(expiry: number, now = Date.now()): string {
  return `Token has expired ${Math.max(0, Math.floor((now - expiry) / 1000))} seconds ago`;
}

/** Hosted Realtime refuses user tokens without `exp`: they would never end. */
export const EXP_REQUIRED = 'Fields `role` and `exp` are required in JWT';
