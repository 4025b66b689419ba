import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { StorageApiError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { AVATAR_MAX_BYTES } from '../../src/domain/profile.ts';
import { createSupabaseClient, createSupabaseService } from '../../src/services/supabase/index.ts';
import { startGateway, type Gateway } from '../../stack/gateway/index.ts';
import { IMAGES } from '../support/stack/avatar-images.ts';
import {
  anonClient,
  PASSWORD,
  serviceClient,
  signedInUser,
  type Client,
  type StackInfo,
  type TestUser,
  uniqueEmail,
} from '../support/stack/users.ts';
import { lazyBody } from '../support/streams.ts';

// The avatars bucket as the portal uses it through the unmodified supabase-js:
// upload under the user's own id, public download, removal and listing under the
// bucket's policies, and clear refusals that leave nothing behind, in the
// database or on disk.

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

/** A raw upload whose body declares no length: fetch sends a ReadableStream chunked. */
function chunkedUpload(
  target: StackInfo,
  encodedName: string,
  body: ReadableStream<Uint8Array>,
  accessToken: string,
): Promise<Response> {
  return fetch(`${target.url}/storage/v1/object/avatars/${encodedName}`, {
    method: 'POST',
    body,
    duplex: 'half',
    headers: {
      apikey: target.anonKey,
      authorization: `Bearer ${accessToken}`,
      'content-type': 'image/png',
      'x-upsert': 'true',
    },
  } as RequestInit);
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

describe('upload size is counted while the body arrives', () => {
  // What hosted Storage answers past a bucket's limit, and what storage-js turns into its error.
  const payloadTooLarge = {
    statusCode: '413',
    error: 'Payload too large',
    message: expect.stringMatching(/^The object exceeded the maximum allowed size/),
  };

  it('refuses a body whose Content-Length is over the limit with 413, in Storage error shape', async () => {
    const name = `${owner.id}-${Date.now()}-declared.png`;
    const bytes = new Uint8Array(LIMIT + 1024 * 1024);
    bytes.set(IMAGES.png);
    const response = await rawUpload(name, bytes, {
      apikey: stack.anonKey,
      authorization: `Bearer ${owner.accessToken}`,
      'content-type': 'image/png',
      'content-length': String(bytes.byteLength),
      'x-upsert': 'true',
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject(payloadTooLarge);
    await expectNotStored(name);
  });

  it('answers a chunked body 413 soon after the limit, stops reading it, and keeps serving', async () => {
    const total = 50 * 1024 * 1024;
    // What the gateway may have pulled by its answer: the limit, the multipart envelope's room
    // and what the two sockets buffer meanwhile; a gateway that read the body whole pulls it all.
    const soon = total / 4;
    const name = `${owner.id}-${Date.now()}-chunked.png`;
    const body = lazyBody(total, { chunkBytes: 64 * 1024, head: IMAGES.png });
    const response = await chunkedUpload(stack, name, body.stream, owner.accessToken);
    expect(body.pulledBytes()).toBeLessThan(soon);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject(payloadTooLarge);
    await expectNotStored(name);

    // The next upload is served, and by then nothing more of the refused body has been read.
    const next = `${owner.id}-${Date.now()}-after-chunked.png`;
    const { error } = await avatars(owner.client).upload(next, blob(IMAGES.png, 'image/png'), {
      upsert: true,
    });
    expect(error).toBeNull();
    await expectServed(next, IMAGES.png, 'image/png');
    expect(body.pulledBytes()).toBeLessThan(soon);
  });

  it('accepts a chunked body of exactly the limit', async () => {
    const name = `${owner.id}-${Date.now()}-chunked-limit.png`;
    const body = lazyBody(LIMIT, { chunkBytes: 64 * 1024, head: IMAGES.png });
    const response = await chunkedUpload(stack, name, body.stream, owner.accessToken);
    expect(response.status).toBe(200);
    const served = await download(name);
    expect(served.status).toBe(200);
    expect(served.bytes.byteLength).toBe(LIMIT);
    expect(served.bytes.subarray(0, IMAGES.png.byteLength)).toEqual(IMAGES.png);
  });

  it('accepts a supabase-js upload of exactly the limit, its multipart envelope included', async () => {
    const name = `${owner.id}-${Date.now()}-limit.png`;
    const bytes = new Uint8Array(LIMIT);
    bytes.set(IMAGES.png);
    const { error } = await avatars(owner.client).upload(name, blob(bytes, 'image/png'), {
      cacheControl: '3600',
      upsert: true,
    });
    expect(error).toBeNull();
    const served = await download(name);
    expect(served.status).toBe(200);
    // Compared as buffers: a deep equality of two million elements takes longer than the test may.
    expect(Buffer.from(served.bytes).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('malformed percent-escapes', () => {
  const headers = () => ({
    apikey: stack.anonKey,
    authorization: `Bearer ${owner.accessToken}`,
    'content-type': 'image/png',
  });

  it('refuses a bucket segment that does not decode with 400', async () => {
    const upload = await fetch(`${stack.url}/storage/v1/object/av%ZZatars/${owner.id}-1.png`, {
      method: 'POST',
      body: IMAGES.png,
      headers: headers(),
    });
    await expectJsonError(upload, 400, /Invalid bucket name/);
    const read = await fetch(`${stack.url}/storage/v1/object/public/av%ZZatars/${owner.id}-1.png`);
    await expectJsonError(read, 400, /Invalid bucket name/);
    const remove = await fetch(`${stack.url}/storage/v1/object/av%E0%A4%A`, {
      method: 'DELETE',
      body: JSON.stringify({ prefixes: [`${owner.id}-1.png`] }),
      headers: { ...headers(), 'content-type': 'application/json' },
    });
    await expectJsonError(remove, 400, /Invalid bucket name/);
  });

  it('refuses an object name that does not decode with 400', async () => {
    const name = `${owner.id}-${Date.now()}-%ZZ.png`;
    await expectJsonError(await rawUpload(name, IMAGES.png, headers()), 400, /Invalid object name/);
    const read = await fetch(`${stack.url}/storage/v1/object/public/avatars/${name}`);
    await expectJsonError(read, 400, /Invalid object name/);
  });
});

describe('removing avatars with supabase-js', () => {
  async function uploaded(label: string): Promise<string> {
    const name = `${owner.id}-${Date.now()}-${label}.png`;
    const { error } = await avatars(owner.client).upload(name, blob(IMAGES.png, 'image/png'), {
      upsert: true,
    });
    expect(error).toBeNull();
    return name;
  }

  it('the owner removes their own avatar: answered as removed, and no longer served', async () => {
    const name = await uploaded('removed');
    const { data, error } = await avatars(owner.client).remove([name]);
    expect(error).toBeNull();
    expect(data?.map((object) => object.name)).toEqual([name]);
    await expectNotStored(name);
  });

  it.each([
    ['another user', () => other.client],
    ['a visitor without a session', () => anonClient(stack)],
  ])('%s cannot remove it: nothing is removed and it is still served', async (_who, client) => {
    const name = await uploaded('kept');
    const { data, error } = await avatars(client()).remove([name]);
    expect(error).toBeNull();
    expect(data).toEqual([]);
    await expectServed(name, IMAGES.png, 'image/png');
  });

  it('removes only the names it is given, and answers nothing for a name that is not there', async () => {
    const [kept, removed] = [await uploaded('one-kept'), await uploaded('one-removed')];
    const { data, error } = await avatars(owner.client).remove([removed, `${owner.id}-missing.png`]);
    expect(error).toBeNull();
    expect(data?.map((object) => object.name)).toEqual([removed]);
    await expectNotStored(removed);
    await expectServed(kept, IMAGES.png, 'image/png');
  });

  it('refuses a body without a list of names with 400', async () => {
    for (const body of ['{}', '{"prefixes": []}', '{"prefixes": [1]}', 'not json']) {
      const response = await fetch(`${stack.url}/storage/v1/object/avatars`, {
        method: 'DELETE',
        body,
        headers: {
          apikey: stack.anonKey,
          authorization: `Bearer ${owner.accessToken}`,
          'content-type': 'application/json',
        },
      });
      await expectJsonError(response, 400, /prefixes/);
    }
  });

  it('lists the bucket: the service role sees every object, a user only their own', async () => {
    const name = await uploaded('listed');
    const search = { search: name };
    const asService = await avatars(serviceClient(stack)).list('', search);
    expect(asService.error).toBeNull();
    expect(asService.data?.map((object) => object.name)).toEqual([name]);
    const asOwner = await avatars(owner.client).list('', search);
    expect(asOwner.data?.map((object) => object.name)).toEqual([name]);
    const asOther = await avatars(other.client).list('', search);
    expect(asOther.error).toBeNull();
    expect(asOther.data).toEqual([]);
  });
});

describe("the portal's removeAvatar", () => {
  it("removes the user's own upload, and asks nothing for another user's avatar or another address", async () => {
    const client = createSupabaseClient({
      url: stack.url,
      anonKey: stack.anonKey,
      realtimeTransport: WebSocket,
    });
    const service = createSupabaseService(client, { siteUrl: 'http://127.0.0.1:5173' });
    const { user } = await service.signUp({ email: uniqueEmail('remove-avatar'), password: PASSWORD });
    if (!user) throw new Error('sign-up returned no user');
    const image = {
      name: 'me.png',
      type: 'image/png',
      size: IMAGES.png.byteLength,
      data: blob(IMAGES.png, 'image/png'),
    };
    const own = await service.uploadAvatar(user.id, image);
    const ownUrl = service.avatarPublicUrl(own) ?? '';
    const theirs = `${other.id}-${Date.now()}.png`;
    expect((await avatars(other.client).upload(theirs, blob(IMAGES.png, 'image/png'))).error).toBeNull();

    // The same object at another address, and someone else's: left alone, still served.
    expect(await service.removeAvatar(user.id, ownUrl.replace(stack.url, 'https://cdn.example.com'))).toBe(
      false,
    );
    expect(await service.removeAvatar(user.id, service.avatarPublicUrl(theirs) ?? '')).toBe(false);
    await expectServed(own, IMAGES.png, 'image/png');
    await expectServed(theirs, IMAGES.png, 'image/png');

    expect(await service.removeAvatar(user.id, ownUrl)).toBe(true);
    await expectNotStored(own);
  });
});

// A gateway of its own, so the files under its data folder can be counted.
describe('bytes on disk', () => {
  let dataDir: string;
  let gateway: Gateway;
  let user: TestUser;
  const files = () => readdirSync(join(dataDir, 'storage'));

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ddex-storage-'));
    gateway = await startGateway({ port: 0, dataDir, quietEmail: true, functions: 'node' });
    user = await signedInUser(gateway, 'disk-owner');
  });

  afterAll(async () => {
    await gateway?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps one file per object: replaced bytes and a removed object leave none behind', async () => {
    const bucket = user.client.storage.from('avatars');
    const name = `${user.id}-${Date.now()}.png`;
    expect(
      (await bucket.upload(name, blob(solidPng(1, 1, 1), 'image/png'), { upsert: true })).error,
    ).toBeNull();
    expect(files()).toHaveLength(1);
    expect(
      (await bucket.upload(name, blob(solidPng(2, 2, 2), 'image/png'), { upsert: true })).error,
    ).toBeNull();
    expect(files()).toHaveLength(1);

    const { data } = await bucket.remove([name]);
    expect(data?.map((object) => object.name)).toEqual([name]);
    expect(files()).toEqual([]);
  });

  it('writes nothing for a chunked body refused past the limit', async () => {
    const body = lazyBody(4 * LIMIT, { chunkBytes: 64 * 1024, head: IMAGES.png });
    const response = await chunkedUpload(
      gateway,
      `${user.id}-${Date.now()}.png`,
      body.stream,
      user.accessToken,
    );
    expect(response.status).toBe(413);
    expect(files()).toEqual([]);
  });
});
