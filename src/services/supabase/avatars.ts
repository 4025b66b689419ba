import type { AvatarFile } from '../../domain/profile.ts';

// Avatars are stored as the user id, a timestamp and the extension. The bucket
// (migration 20261121000004) refuses any type but png, jpeg or gif, anything
// over 2 MB, and any object name that does not start with the uploader's id;
// the profile machine checks the first two before it uploads (src/domain/profile.ts).

/** Avatar cache control, in seconds (docs/product.md#constants). */
export const AVATAR_CACHE_SECONDS = '3600';

const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
};

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
