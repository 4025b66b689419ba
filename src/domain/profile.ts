import type { Database } from './database.types.ts';

// The profile row and the rules an avatar must meet. The avatars bucket
// (migration 20261121000004) enforces the same type list and size; checking
// first spares the upload and gives the user a plain reason.

export type Profile = Database['public']['Tables']['profiles']['Row'];
export type ProfileUpsert = Database['public']['Tables']['profiles']['Insert'];

/** An avatar as the browser's file input gives it. */
export type AvatarFile = { name: string; type: string; size: number; data: Blob };

/** png, jpeg or gif (docs/product.md#validation). */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif'] as const;

/** 2 MB, the avatars bucket's own limit. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export type AvatarProblem = 'invalid-type' | 'too-large';

/** Why this file cannot be an avatar, or null when it can. */
export function avatarProblem(file: Pick<AvatarFile, 'type' | 'size'>): AvatarProblem | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'invalid-type';
  if (file.size > AVATAR_MAX_BYTES) return 'too-large';
  return null;
}

/**
 * The website field takes web addresses only (docs/product.md#validation): the database's own
 * rule (profiles_website_is_http) is http:// or https:// and no spaces. URL parsing alone would
 * let 'https:example.com' through, which the database then refuses in its own words.
 */
export function isWebsiteAllowed(website: string): boolean {
  const value = website.trim();
  if (value === '') return true;
  if (!/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
