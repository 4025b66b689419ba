// An avatar's public URL is a pure function of the API origin, which the deferred service needs
// before supabase-js (and the rest of ./avatars.ts) has loaded: it lives apart so the page's first
// script carries only this.

export const AVATAR_BUCKET = 'avatars';

/**
 * The public URL of an avatar object, as storage-js's getPublicUrl builds it
 * (`<api>/storage/v1/object/public/<bucket>/<path>`, URI-encoded), or null for
 * no object. Pure, so it works before supabase-js has loaded.
 */
export function avatarPublicUrl(apiUrl: string, path: string): string | null {
  if (path === '') return null;
  const base = apiUrl.replace(/\/+$/, '');
  return encodeURI(`${base}/storage/v1/object/public/${AVATAR_BUCKET}/${path.replace(/^\/+/, '')}`);
}
