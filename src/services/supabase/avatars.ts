import { profileCopy } from '../../copy/index.ts';
import { BackendError, type AvatarFile } from './types.ts';

// Spec §5 avatars: png, jpeg or gif, stored as the user id, a timestamp and the
// extension. The bucket (migration 20261121000004) enforces the same type list,
// 2 MB, and that every object name starts with the uploader's id; checking here
// first spares the upload and gives the user a plain reason.

export const AVATAR_BUCKET = 'avatars';
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** Spec §9: avatar cache control, in seconds. */
export const AVATAR_CACHE_SECONDS = '3600';

const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
};

/** Why this file cannot be an avatar, or null when it can. */
export function avatarProblem(file: Pick<AvatarFile, 'type' | 'size'>): BackendError | null {
  if (!(profileCopy.avatarTypes as readonly string[]).includes(file.type)) {
    return new BackendError(profileCopy.avatarTypeRefused, 'invalid_type');
  }
  if (file.size > AVATAR_MAX_BYTES) return new BackendError(profileCopy.avatarTooLarge, 'too_large');
  return null;
}

/**
 * `<user id>-<milliseconds>.<ext>`: the file's own extension when it fits its
 * type (so 'photo.JPEG' stays .jpeg), else the type's usual one, so a stray
 * name like 'avatar' or 'x.exe' never reaches the object name.
 */
export function avatarObjectName(
  userId: string,
  file: Pick<AvatarFile, 'name' | 'type'>,
  now: number,
): string {
  const allowed = EXTENSIONS[file.type] ?? [];
  const dot = file.name.lastIndexOf('.');
  const own = dot >= 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  const extension = allowed.includes(own) ? own : (allowed[0] ?? 'bin');
  return `${userId}-${now}.${extension}`;
}

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
