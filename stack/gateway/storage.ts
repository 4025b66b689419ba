import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { readBoundedBody } from './body-bounds.ts';
import { withClaims } from './as-role.ts';
import { bearerOf, ClaimsError, type Claims, type ClaimsResolver } from './claims.ts';
import { json } from './http.ts';

// The Storage API subset supabase-js uses for avatars: upload (multipart or
// raw body, optional upsert), public download, remove and list. Object rows live
// in storage.objects under RLS, as on hosted Supabase, and every call but the
// public download runs as the caller; bytes live in files named by object id
// and version, so a failed upload never damages the old bytes.

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
/** Hosted Storage's global upload limit (50 MB by default): a bucket without its own limit has this one. */
const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024;
/** Hosted Storage removes at most 1000 objects per call. */
const MAX_PREFIXES = 1000;
/** Room for MAX_PREFIXES names of MAX_NAME_LENGTH, or a list request's few fields. */
const MAX_JSON_REQUEST = MAX_PREFIXES * (MAX_NAME_LENGTH + 8);
/** The columns a list may be sorted by, as hosted Storage allows. */
const SORT_COLUMNS: ReadonlySet<string> = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);

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

  /** The caller, or the 401 that says why the request speaks for no one. */
  async function callerOf(request: Request): Promise<Claims | Response> {
    try {
      return await resolveClaims(
        request.headers.get('apikey') ?? new URL(request.url).searchParams.get('apikey'),
        bearerOf(request.headers.get('authorization')),
      );
    } catch (error) {
      if (error instanceof ClaimsError) return storageError(401, 'Unauthorized', error.message);
      throw error;
    }
  }

  async function upload(request: Request, bucketId: string, name: string, upsert: boolean) {
    const claims = await callerOf(request);
    if (claims instanceof Response) return claims;
    const bucket = await loadBucket(bucketId);
    if (!bucket) return bucketNotFound(bucketId);

    const limit = Math.min(Number(bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT), GLOBAL_FILE_SIZE_LIMIT);
    // Counted as it arrives, declared length or not: a chunked body is cut off once past the
    // limit (and the multipart envelope's room) instead of being held whole first.
    const body = await readBoundedBody(request, limit + MULTIPART_SLACK);
    if ('tooLarge' in body) return tooLarge(limit);
    const parsed = await readUpload(request.headers, body.bytes);
    if (typeof parsed === 'string') return storageError(400, 'InvalidRequest', parsed);
    if (parsed.bytes.byteLength > limit) return tooLarge(limit);
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

  async function remove(request: Request, bucketId: string): Promise<Response> {
    const claims = await callerOf(request);
    if (claims instanceof Response) return claims;
    const bucket = await loadBucket(bucketId);
    if (!bucket) return bucketNotFound(bucketId);
    const body = await jsonBody(request);
    const prefixes = isRecord(body) ? body['prefixes'] : undefined;
    if (
      !Array.isArray(prefixes) ||
      prefixes.length === 0 ||
      prefixes.length > MAX_PREFIXES ||
      !prefixes.every((prefix) => typeof prefix === 'string')
    ) {
      return storageError(400, 'InvalidRequest', `prefixes must list 1 to ${MAX_PREFIXES} object names`);
    }
    // As the caller: what the delete policies do not let them remove is left alone and not
    // answered, as on hosted Storage. Hosted's guard against deletes outside its API is lifted
    // for the transaction, as the Storage API does for the calls it serves.
    const removed = await withClaims(pg, claims, async (tx) => {
      await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
      const result = await tx.query<ObjectRow & Record<string, unknown>>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
         returning id, version, bucket_id, name, owner, metadata, created_at, updated_at, last_accessed_at`,
        [bucketId, prefixes],
      );
      return result.rows;
    });
    // Only after the commit: a failed delete keeps its object whole.
    for (const object of removed) rmSync(blobPath(object.id, object.version), { force: true });
    return json(
      200,
      removed.map(({ version: _version, ...object }) => object),
    );
  }

  async function list(request: Request, bucketId: string): Promise<Response> {
    const claims = await callerOf(request);
    if (claims instanceof Response) return claims;
    const bucket = await loadBucket(bucketId);
    if (!bucket) return bucketNotFound(bucketId);
    const body = await jsonBody(request);
    const options = isRecord(body) ? body : {};
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const count = (value: unknown, fallback: number) =>
      typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
    const sortBy = isRecord(options['sortBy']) ? options['sortBy'] : {};
    const column = SORT_COLUMNS.has(text(sortBy['column'])) ? text(sortBy['column']) : 'name';
    const order = text(sortBy['order']).toLowerCase() === 'desc' ? 'desc' : 'asc';
    const prefix = text(options['prefix']).replace(/^\/+|\/+$/g, '');
    // One level under the prefix, as hosted Storage lists it: objects deeper down show as their
    // folder, which has no id and no metadata.
    const rows = await withClaims(pg, claims, async (tx) => {
      const result = await tx.query(
        `select name, id, updated_at, created_at, last_accessed_at, metadata from (
           select distinct on (entry, folder) entry as name, folder,
             case when folder then null else id end as id,
             case when folder then null else updated_at end as updated_at,
             case when folder then null else created_at end as created_at,
             case when folder then null else last_accessed_at end as last_accessed_at,
             case when folder then null else metadata end as metadata
           from (
             select split_part(rest, '/', 1) as entry, strpos(rest, '/') > 0 as folder, o.*
             from (select substr(name, length($2) + 1) as rest, * from storage.objects
                   where bucket_id = $1 and starts_with(name, $2)) o
           ) levelled
           where starts_with(lower(entry), lower($3))
           order by entry, folder
         ) listed
         order by folder desc, ${column} ${order} nulls last, name
         limit $4 offset $5`,
        [
          bucketId,
          prefix === '' ? '' : `${prefix}/`,
          text(options['search']),
          count(options['limit'], 100),
          count(options['offset'], 0),
        ],
      );
      return result.rows;
    });
    return json(200, rows);
  }

  return async (request) => {
    const path = new URL(request.url).pathname.replace(/^\/storage\/v1\//, '');
    const route = routeOf(request.method, path);
    if (!route) {
      return storageError(
        404,
        'not_found',
        `${request.method} /storage/v1/${path} is not served by the local storage endpoint`,
      );
    }
    const bucketId = decoded(route.bucket);
    if (bucketId === null) return storageError(400, 'InvalidBucketName', 'Invalid bucket name');
    if (route.call === 'list') return list(request, bucketId);
    if (route.call === 'remove') return remove(request, bucketId);
    const name = objectName(route.name);
    if (!name) return storageError(400, 'InvalidKey', 'Invalid object name');
    if (route.call === 'download') return download(bucketId, name, request.method === 'HEAD');
    const upsert = request.method === 'PUT' || request.headers.get('x-upsert') === 'true';
    return upload(request, bucketId, name, upsert);
  };
}

type Call = 'download' | 'list' | 'remove' | 'upload';

const ROUTES: readonly { call: Call; methods: readonly string[]; pattern: RegExp }[] = [
  { call: 'download', methods: ['GET', 'HEAD'], pattern: /^object\/public\/([^/]+)\/(.+)$/ },
  { call: 'list', methods: ['POST'], pattern: /^object\/list\/([^/]+)\/?$/ },
  { call: 'remove', methods: ['DELETE'], pattern: /^object\/([^/]+)\/?$/ },
  { call: 'upload', methods: ['POST', 'PUT'], pattern: /^object\/([^/]+)\/(.+)$/ },
];

// Storage API routes under object/ whose first segment is not a bucket (sign, move…): not
// served here, and never to be taken for a remove or an upload in a bucket of that name.
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

/** The call a request makes, with its bucket and object name as they came (percent-encoded). */
function routeOf(method: string, path: string): { call: Call; bucket: string; name: string } | null {
  for (const { call, methods, pattern } of ROUTES) {
    const [, bucket = '', name = ''] = pattern.exec(path) ?? [];
    if (!methods.includes(method) || bucket === '') continue;
    if ((call === 'remove' || call === 'upload') && STORAGE_VERBS.has(bucket)) continue;
    return { call, bucket, name };
  }
  return null;
}

function bucketNotFound(bucketId: string): Response {
  return storageError(404, 'Bucket not found', `Bucket "${bucketId}" not found`);
}

/**
 * Hosted Storage's refusal past a bucket's limit. The rest of a body refused early is not read
 * here: the HTTP server discards what the client still sends for a moment (bounded in time and
 * bytes) before it closes the connection, so the client gets this answer rather than a reset.
 */
function tooLarge(limit: number): Response {
  return storageError(
    413,
    'Payload too large',
    `The object exceeded the maximum allowed size of ${limit} bytes`,
  );
}

/** A percent-encoded path segment, or null when it does not decode. */
function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** A small JSON body (remove and list), or undefined when it is none or too large. */
async function jsonBody(request: Request): Promise<unknown> {
  const body = await readBoundedBody(request, MAX_JSON_REQUEST);
  if ('tooLarge' in body) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(body.bytes)) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectName(encoded: string): string | null {
  const name = decoded(encoded);
  if (name === null) return null;
  const bad =
    name.length === 0 ||
    name.length > MAX_NAME_LENGTH ||
    name.startsWith('/') ||
    name.includes('\\') ||
    name.split('/').some((part) => part === '' || part === '.' || part === '..') ||
    /\p{Cc}/u.test(name);
  return bad ? null : name;
}

async function readUpload(headers: Headers, body: Uint8Array): Promise<Upload | string> {
  const type = headers.get('content-type') ?? '';
  if (type.toLowerCase().startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      // readBoundedBody's bytes are a fresh ArrayBuffer of their own, never a shared one.
      const bytes = body as Uint8Array<ArrayBuffer>;
      form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
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
    bytes: body,
    contentType: mimeOf(type),
    cacheControl: cacheControlOf(headers.get('cache-control')),
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
