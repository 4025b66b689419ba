// Tatum signs each webhook delivery with x-payload-hash: the base64 HMAC-SHA512
// of the exact body bytes, keyed with the subscription's secret. Web Crypto
// only, so this module runs unchanged in Deno (Edge Functions) and Node (the
// local gateway, tests and the Tatum emulator).

const ALGORITHM = { name: 'HMAC', hash: 'SHA-512' } as const;
const encoder = new TextEncoder();

export type SignedBody = string | Uint8Array;

function bytes(value: SignedBody): Uint8Array<ArrayBuffer> {
  // A copy gives Web Crypto an ArrayBuffer-backed view whatever the caller passed (Buffer, a slice...).
  return typeof value === 'string' ? encoder.encode(value) : Uint8Array.from(value);
}

function importKey(secret: string, usage: 'sign' | 'verify'): ReturnType<typeof crypto.subtle.importKey> {
  if (secret === '') throw new Error('The webhook secret is empty; refusing to sign or verify with it');
  return crypto.subtle.importKey('raw', encoder.encode(secret), ALGORITHM, false, [usage]);
}

function toBase64(data: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(data)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text.trim()), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The x-payload-hash value Tatum would send for this body. */
export async function signPayload(secret: string, body: SignedBody): Promise<string> {
  const key = await importKey(secret, 'sign');
  return toBase64(await crypto.subtle.sign(ALGORITHM, key, bytes(body)));
}

/**
 * Whether header is the signature of body under secret. subtle.verify compares
 * the MACs in constant time, so a forger learns nothing from how long a wrong
 * guess takes; a missing or non-base64 header is simply false.
 */
export async function verifySignature(
  secret: string,
  body: SignedBody,
  header: string | null | undefined,
): Promise<boolean> {
  if (!header) return false;
  const signature = fromBase64(header);
  if (!signature) return false;
  const key = await importKey(secret, 'verify');
  return crypto.subtle.verify(ALGORITHM, key, signature, bytes(body));
}
