import type { User } from '@supabase/supabase-js';
import type { AuthUser, UserMetadata } from './types.ts';

const METADATA_FIELDS = ['wallet_address', 'username', 'avatar_url', 'full_name'] as const;

/**
 * The fields of docs/product.md#auth-metadata only, and only string or null values: user_metadata
 * is whatever anyone wrote.
 */
function metadataOf(raw: unknown): UserMetadata {
  const metadata: UserMetadata = {};
  if (typeof raw !== 'object' || raw === null) return metadata;
  const source = raw as Record<string, unknown>;
  for (const field of METADATA_FIELDS) {
    const value = source[field];
    if (typeof value === 'string' || value === null) metadata[field] = value;
  }
  return metadata;
}

export function toAuthUser(user: User): AuthUser {
  return {
    id: user.id,
    email: user.email ?? null,
    emailConfirmedAt: user.email_confirmed_at ?? null,
    metadata: metadataOf(user.user_metadata),
  };
}
