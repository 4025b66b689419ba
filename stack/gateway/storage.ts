import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { withClaims } from './as-role.ts';
import { bearerOf, ClaimsError, type ClaimsResolver } from './claims.ts';
import { json } from './http.ts';

// The Storage API subset supabase-js uses for avatars: upload (multipart or
// raw body, optional upsert) and public download. Object rows live in
// storage.objects under RLS, as on hosted Supabase; bytes live in files named
// by object id and version, so a failed upload never damages the old bytes.

type Bucket = {
  id: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
};

type ObjectRow = { id: string; version: string; metadata: ObjectMetadata };

type ObjectMetadata = {
  mimetype: string;
  size: number;
  cacheControl: string;
  eTag: string;
  lastModified: string;
};

type Upload = { bytes: Uint8Array; contentType: string; cacheControl: string };

const MAX_NAME_LENGTH = 1024;
const MULTIPART_SLACK = 64 * 1024;

// Leading bytes of the image types the portal accepts; a file that claims one
// of these types must really be one.
const SIGNATURES: Record<string, readonly number[][]> = {
  'image/png': [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/gif': [
    [0x47, 0x49, 0x46, 0x38, 0x37, 0x61],
    [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  ],
};

function storageError(status: number, error: string, message: string): Response {
  return json(status, { statusCode: String(status), code: error, error, message });
}

export function createStorageHandler(deps: {
  pg: PGlite;
  dir: string;
  resolveClaims: ClaimsResolver;
}): (request: Request) => Promise<Response> {
  const { pg, dir, resolveClaims } = deps;
  mkdirSync(dir, { recursive: true });
  const blobPath = (id: string, version: string) => join(dir, `${id}-${version}`);

  async function loadBucket(id: string): Promise<Bucket | null> {
    const result = await pg.query<Bucket>(
      'select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1',
      [id],
    );
    return result.rows[0] ?? null;
  }

  async function upload(request: Request, bucketId: string, name: string, upsert: boolean) {
    let claims;
    try {
      claims = await resolveClaims(
        request.headers.get('apikey') ?? new URL(request.url).searchParams.get('apikey'),
        bearerOf(request.headers.get('authorization')),
      );
    } catch (error) {
      if (error instanceof ClaimsError) return storageError(401, 'Unauthorized', error.message);
      throw error;
    }
    const bucket = await loadBucket(bucketId);
    if (!bucket) return storageError(404, 'Bucket not found', `Bucket "${bucketId}" not found`);

    const limit = bucket.file_size_limit === null ? null : Number(bucket.file_size_limit);
    const declaredLength = Number(request.headers.get('content-length') ?? NaN);
    if (limit !== null && declaredLength > limit + MULTIPART_SLACK) {
      return tooLarge(limit);
    }
    const parsed = await readUpload(request);
    if (typeof parsed === 'string') return storageError(400, 'InvalidRequest', parsed);
    if (limit !== null && parsed.bytes.byteLength > limit) return tooLarge(limit);
    if (bucket.allowed_mime_types && !bucket.allowed_mime_types.includes(parsed.contentType)) {
      return storageError(
        415,
        'invalid_mime_type',
        `mime type ${parsed.contentType || '(none)'} is not supported; allowed: ${bucket.allowed_mime_types.join(', ')}`,
      );
    }
    const signatures = SIGNATURES[parsed.contentType];
    if (signatures && !signatures.some((sig) => sig.every((byte, i) => parsed.bytes[i] === byte))) {
      return storageError(400, 'invalid_content', `The file content is not a valid ${parsed.contentType}`);
    }

    const version = randomUUID();
    const metadata: ObjectMetadata = {
      mimetype: parsed.contentType,
      size: parsed.bytes.byteLength,
      cacheControl: parsed.cacheControl,
      eTag: `"${version}"`,
      lastModified: new Date().toISOString(),
    };
    const conflict = upsert
      ? `on conflict (bucket_id, name) do update set metadata = excluded.metadata,
           version = excluded.version, owner = excluded.owner, owner_id = excluded.owner_id, updated_at = now()`
      : '';
    let written: string | null = null;
    try {
      const { id, replaced } = await withClaims(pg, claims, async (tx) => {
        const previous = await tx.query<{ id: string; version: string }>(
          'select id, version from storage.objects where bucket_id = $1 and name = $2',
          [bucketId, name],
        );
        const inserted = await tx.query<{ id: string }>(
          `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version)
           values ($1, $2, $3::uuid, $3::text, $4, $5) ${conflict} returning id`,
          [bucketId, name, claims.sub, JSON.stringify(metadata), version],
        );
        const objectId = inserted.rows[0]?.id;
        if (!objectId) throw new Error('storage insert returned no row');
        written = blobPath(objectId, version);
        writeFileSync(`${written}.tmp`, parsed.bytes);
        renameSync(`${written}.tmp`, written);
        return { id: objectId, replaced: previous.rows[0] ?? null };
      });
      // Only after the commit: the old bytes stay until the new row is durable.
      if (replaced) rmSync(blobPath(replaced.id, replaced.version), { force: true });
      return json(200, { Id: id, Key: `${bucketId}/${name}` });
    } catch (error) {
      if (written) rmSync(written, { force: true });
      const code = (error as { code?: string }).code;
      if (code === '42501') {
        return storageError(403, 'Unauthorized', 'new row violates row-level security policy');
      }
      if (code === '23505') return storageError(409, 'Duplicate', 'The resource already exists');
      throw error;
    }
  }

  async function download(bucketId: string, name: string, head: boolean): Promise<Response> {
    const bucket = await loadBucket(bucketId);
    if (!bucket?.public) return storageError(404, 'not_found', 'Object not found');
    const result = await pg.query<ObjectRow>(
      'select id, version, metadata from storage.objects where bucket_id = $1 and name = $2',
      [bucketId, name],
    );
    const object = result.rows[0];
    if (!object) return storageError(404, 'not_found', 'Object not found');
    let bytes: Buffer;
    try {
      bytes = await readFile(blobPath(object.id, object.version));
    } catch {
      return storageError(404, 'not_found', 'Object not found');
    }
    return new Response(head ? null : new Uint8Array(bytes), {
      status: 200,
      headers: {
        'content-type': object.metadata.mimetype,
        'content-length': String(bytes.byteLength),
        'cache-control': object.metadata.cacheControl,
        etag: object.metadata.eTag,
        'last-modified': new Date(object.metadata.lastModified).toUTCString(),
        'x-content-type-options': 'nosniff',
      },
    });
  }

  return async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/storage\/v1\//, '');
    const publicMatch = /^object\/public\/([^/]+)\/(.+)$/.exec(path);
    const objectMatch = /^object\/([^/]+)\/(.+)$/.exec(path);
    // Storage API routes under object/ whose first segment is not a bucket (list, sign, move…): not
    // served here, and never to be taken for an upload to a bucket of that name.
    const isBucketPath = objectMatch !== null && !STORAGE_VERBS.has(objectMatch[1] ?? '');
    if (publicMatch && (request.method === 'GET' || request.method === 'HEAD')) {
      const name = objectName(publicMatch[2] ?? '');
      if (!name) return storageError(400, 'InvalidKey', 'Invalid object name');
      return download(decodeURIComponent(publicMatch[1] ?? ''), name, request.method === 'HEAD');
    }
    if (objectMatch && isBucketPath && (request.method === 'POST' || request.method === 'PUT')) {
      const name = objectName(objectMatch[2] ?? '');
      if (!name) return storageError(400, 'InvalidKey', 'Invalid object name');
      const upsert = request.method === 'PUT' || request.headers.get('x-upsert') === 'true';
      return upload(request, decodeURIComponent(objectMatch[1] ?? ''), name, upsert);
    }
    return storageError(
      404,
      'not_found',
      `${request.method} /storage/v1/${path} is not served by the local storage endpoint`,
    );
  };
}

const STORAGE_VERBS: ReadonlySet<string> = new Set([
  'list',
  'sign',
  'upload',
  'move',
  'copy',
  'info',
  'authenticated',
  'public',
]);

function tooLarge(limit: number): Response {
  return storageError(
    413,
    'Payload too large',
    `The object exceeded the maximum allowed size of ${limit} bytes`,
  );
}

function objectName(encoded: string): string | null {
  let name: string;
  try {
    name = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  const bad =
    name.length === 0 ||
    name.length > MAX_NAME_LENGTH ||
    name.startsWith('/') ||
    name.includes('\\') ||
    name.split('/').some((part) => part === '' || part === '.' || part === '..') ||
    /\p{Cc}/u.test(name);
  return bad ? null : name;
}

async function readUpload(request: Request): Promise<Upload | string> {
  const type = request.headers.get('content-type') ?? '';
  if (type.toLowerCase().startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return 'The multipart body could not be read';
    }
    // supabase-js sends the file under the empty field name; "file" is what
    // other clients use.
    const file = form.get('') ?? form.get('file');
    if (!(file instanceof Blob)) return 'The multipart body has no file';
    const cacheField = form.get('cacheControl');
    return {
      bytes: new Uint8Array(await file.arrayBuffer()),
      contentType: mimeOf(file.type),
      cacheControl: cacheControlOf(typeof cacheField === 'string' ? cacheField : null),
    };
  }
  return {
    bytes: new Uint8Array(await request.arrayBuffer()),
    contentType: mimeOf(type),
    cacheControl: cacheControlOf(request.headers.get('cache-control')),
  };
}

function mimeOf(type: string): string {
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

function cacheControlOf(value: string | null): string {
  if (!value) return 'max-age=3600';
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return `max-age=${trimmed}`;
  return /^max-age=\d+$/.test(trimmed) ? trimmed : 'max-age=3600';
}
