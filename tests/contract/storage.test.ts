import { crc32, deflateSync } from 'node:zlib';
import { StorageApiError } from '@supabase/supabase-js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { AVATAR_MAX_BYTES } from '../../src/domain/profile.ts';
import { anonClient, IMAGES, signedInUser, type Client, type TestUser } from '../support/clients.ts';

// The avatars bucket as the portal uses it through the unmodified supabase-js:
// upload under the user's own id, public download, and clear refusals that
// leave nothing behind.

const stack = inject('gateway');
// The bucket enforces the portal's own avatar rules, which the profile machine checks first.
const LIMIT = AVATAR_MAX_BYTES;

const avatars = (client: Client) => client.storage.from('avatars');

/** A valid 1x1 RGB PNG of the given colour, so two uploads can differ in their bytes. */
function solidPng(red: number, green: number, blue: number): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Uint8Array): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.byteLength);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const pixels = deflateSync(Uint8Array.from([0, red, green, blue]));
  return Uint8Array.from(
    Buffer.concat([
      Buffer.from(IMAGES.png.subarray(0, 8)),
      chunk('IHDR', header),
      chunk('IDAT', pixels),
      chunk('IEND', new Uint8Array(0)),
    ]),
  );
}

function blob(bytes: Uint8Array<ArrayBuffer>, type: string): Blob {
  return new Blob([bytes], { type });
}

function publicUrl(name: string): string {
  return avatars(anonClient(stack)).getPublicUrl(name).data.publicUrl;
}

async function download(name: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const response = await fetch(publicUrl(name));
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

async function expectServed(name: string, bytes: Uint8Array, type: string): Promise<void> {
  const served = await download(name);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe(type);
  expect(served.bytes).toEqual(bytes);
}

async function expectNotStored(name: string): Promise<void> {
  const response = await fetch(publicUrl(name));
  expect(response.status).toBe(404);
  expect(await response.json()).toMatchObject({ message: 'Object not found' });
}

function expectStorageError(error: unknown, status: number, message: RegExp): void {
  expect(error).toBeInstanceOf(StorageApiError);
  const apiError = error as StorageApiError;
  expect(apiError.status).toBe(status);
  expect(apiError.message).toMatch(message);
}

/** Uploads through the raw Storage API the way non-supabase-js clients do. */
function rawUpload(
  encodedName: string,
  body: Uint8Array<ArrayBuffer>,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(`${stack.url}/storage/v1/object/avatars/${encodedName}`, { method: 'POST', body, headers });
}

async function expectJsonError(response: Response, status: number, message: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body: unknown = await response.json();
  expect(body).toMatchObject({ statusCode: String(status), message: expect.stringMatching(message) });
}

let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  owner = await signedInUser(stack, 'avatar-owner');
  other = await signedInUser(stack, 'avatar-other');
});

describe('avatar uploads with supabase-js', () => {
  it('uploads a PNG with upsert and serves it publicly with its type and cache control', async () => {
    const name = `${owner.id}-${Date.now()}.png`;
    const { data, error } = await avatars(owner.client).upload(name, blob(IMAGES.png, 'image/png'), {
      cacheControl: '3600',
      upsert: true,
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ path: name, fullPath: `avatars/${name}` });

    const url = avatars(owner.client).getPublicUrl(name).data.publicUrl;
    expect(url).toBe(`${stack.url}/storage/v1/object/public/avatars/${name}`);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('max-age=3600');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(IMAGES.png);
  });

  it('upserting the same name with different PNG bytes serves the new bytes', async () => {
    const name = `${owner.id}-${Date.now()}-replaced.png`;
    const first = solidPng(255, 0, 0);
    const second = solidPng(0, 0, 255);
    expect(second).not.toEqual(first);

    const initial = await avatars(owner.client).upload(name, blob(first, 'image/png'), {
      cacheControl: '3600',
      upsert: true,
    });
    expect(initial.error).toBeNull();
    await expectServed(name, first, 'image/png');

    const replaced = await avatars(owner.client).upload(name, blob(second, 'image/png'), {
      cacheControl: '3600',
      upsert: true,
    });
    expect(replaced.error).toBeNull();
    expect(replaced.data?.path).toBe(name);
    await expectServed(name, second, 'image/png');
  });

  it('accepts a raw-body GIF upload and serves it as image/gif', async () => {
    const name = `${owner.id}-${Date.now()}.gif`;
    const response = await rawUpload(name, IMAGES.gif, {
      apikey: stack.anonKey,
      authorization: `Bearer ${owner.accessToken}`,
      'content-type': 'image/gif',
      'x-upsert': 'true',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ Key: `avatars/${name}` });
    await expectServed(name, IMAGES.gif, 'image/gif');
  });
});

describe('refused avatar uploads store nothing', () => {
  it('refuses a file over the 2 MB bucket limit with 413', async () => {
    const name = `${owner.id}-${Date.now()}-huge.png`;
    const bytes = new Uint8Array(LIMIT + 1);
    bytes.set(IMAGES.png);
    const { data, error } = await avatars(owner.client).upload(name, blob(bytes, 'image/png'), {
      cacheControl: '3600',
      upsert: true,
    });
    expect(data).toBeNull();
    expectStorageError(error, 413, new RegExp(`maximum allowed size of ${LIMIT} bytes`));
    await expectNotStored(name);
  });

  it('refuses a file far over the limit with 413 too', async () => {
    const name = `${owner.id}-${Date.now()}-huger.png`;
    const bytes = new Uint8Array(3 * LIMIT);
    bytes.set(IMAGES.png);
    const { data, error } = await avatars(owner.client).upload(name, blob(bytes, 'image/png'), {
      cacheControl: '3600',
      upsert: true,
    });
    expect(data).toBeNull();
    expectStorageError(error, 413, new RegExp(`maximum allowed size of ${LIMIT} bytes`));
    await expectNotStored(name);
  });

  it.each(['text/plain', 'image/svg+xml'])('refuses a %s file with 415', async (type) => {
    const name = `${owner.id}-${Date.now()}-wrong-type.png`;
    const body =
      type === 'text/plain'
        ? new TextEncoder().encode('not an image')
        : new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const { data, error } = await avatars(owner.client).upload(name, blob(body, type), { upsert: true });
    expect(data).toBeNull();
    expectStorageError(error, 415, new RegExp(`mime type ${type.replace('+', '\\+')} is not supported`));
    await expectNotStored(name);
  });

  it('refuses bytes that are not a PNG but are declared image/png with 400', async () => {
    const name = `${owner.id}-${Date.now()}-fake.png`;
    const { data, error } = await avatars(owner.client).upload(name, blob(IMAGES.gif, 'image/png'), {
      upsert: true,
    });
    expect(data).toBeNull();
    expectStorageError(error, 400, /not a valid image\/png/);
    await expectNotStored(name);
  });

  it('refuses a name that does not start with the uploader id with 403', async () => {
    const name = `${other.id}-${Date.now()}-planted.png`;
    const { data, error } = await avatars(owner.client).upload(name, blob(IMAGES.png, 'image/png'), {
      upsert: true,
    });
    expect(data).toBeNull();
    expectStorageError(error, 403, /row-level security/);
    await expectNotStored(name);
  });

  it('refuses an upload without a session with 403', async () => {
    const name = `${owner.id}-${Date.now()}-anon.png`;
    const { data, error } = await avatars(anonClient(stack)).upload(name, blob(IMAGES.png, 'image/png'), {
      upsert: true,
    });
    expect(data).toBeNull();
    expectStorageError(error, 403, /row-level security/);
    await expectNotStored(name);
  });

  it('refuses an object name with a .. segment with 400', async () => {
    // fetch and the server both resolve a literal "/../" in a URL before the
    // storage endpoint sees it, so the segment arrives with encoded slashes.
    const target = `${owner.id}-${Date.now()}-escaped.png`;
    const response = await rawUpload(encodeURIComponent(`${owner.id}/../${target}`), IMAGES.png, {
      apikey: stack.anonKey,
      authorization: `Bearer ${owner.accessToken}`,
      'content-type': 'image/png',
      'x-upsert': 'true',
    });
    await expectJsonError(response, 400, /Invalid object name/);
    await expectNotStored(target);
    await expectNotStored(`${owner.id}/${target}`);
  });

  it('refuses a second upload to an existing name without upsert with 409 and keeps the original', async () => {
    const name = `${owner.id}-${Date.now()}-taken.png`;
    const original = solidPng(0, 128, 0);
    const first = await avatars(owner.client).upload(name, blob(original, 'image/png'));
    expect(first.error).toBeNull();

    const { data, error } = await avatars(owner.client).upload(name, blob(solidPng(1, 2, 3), 'image/png'));
    expect(data).toBeNull();
    expectStorageError(error, 409, /already exists/);
    await expectServed(name, original, 'image/png');
  });

  it('refuses an invalid apikey with 401', async () => {
    const name = `${owner.id}-${Date.now()}-badkey.png`;
    const badKeyClient = anonClient({ ...stack, anonKey: 'not-a-project-key' });
    const { data, error } = await avatars(badKeyClient).upload(name, blob(IMAGES.png, 'image/png'), {
      upsert: true,
    });
    expect(data).toBeNull();
    expectStorageError(error, 401, /Invalid API key/);

    const withSession = await rawUpload(name, IMAGES.png, {
      apikey: 'not-a-project-key',
      authorization: `Bearer ${owner.accessToken}`,
      'content-type': 'image/png',
      'x-upsert': 'true',
    });
    await expectJsonError(withSession, 401, /Invalid API key/);
    await expectNotStored(name);
  });

  it("does not let another user overwrite someone's avatar, even with upsert", async () => {
    const name = `${owner.id}-${Date.now()}-mine.png`;
    const original = solidPng(10, 20, 30);
    const first = await avatars(owner.client).upload(name, blob(original, 'image/png'), { upsert: true });
    expect(first.error).toBeNull();

    const { data, error } = await avatars(other.client).upload(name, blob(solidPng(200, 0, 0), 'image/png'), {
      cacheControl: '3600',
      upsert: true,
    });
    expect(data).toBeNull();
    expectStorageError(error, 403, /row-level security/);
    await expectServed(name, original, 'image/png');
  });
});
