// The token of an email alert's unsubscribe link: it names a user and a kind of email, and only the
// project can make one, so a link turns that kind off for that user without a sign-in, and a
// changed or made-up token turns off nothing.
//
//   base64url(JSON {"u": user id, "k": kind, "v": 1}) "." base64url(HMAC-SHA256(secret, first part))
//
// The secret is EMAIL_UNSUBSCRIBE_SECRET, which email-alerts (making links) and email-unsubscribe
// (checking them) hold and nothing else does. The token never expires: an old mail's link still
// works, and all it can do is turn email off. Web Crypto only, so it runs under Deno and Node.

/** What a user may get by email, in the portal's words (profiles.notification_preferences.email). */
export const ALERT_KINDS = ['transfers', 'bots'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const isAlertKind = (value: unknown): value is AlertKind =>
  typeof value === 'string' && (ALERT_KINDS as readonly string[]).includes(value);

const VERSION = 1;
const ALGORITHM = { name: 'HMAC', hash: 'SHA-256' } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Far longer than any token made here; a longer one is refused before any work. */
const MAX_TOKEN_LENGTH = 512;
const encoder = new TextEncoder();

function importKey(secret: string): ReturnType<typeof crypto.subtle.importKey> {
  if (secret === '') throw new Error('The unsubscribe secret is empty; refusing to sign or check with it');
  return crypto.subtle.importKey('raw', encoder.encode(secret), ALGORITHM, false, ['sign']);
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const padded = text
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(text.length / 4) * 4, '=');
    return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

async function mac(secret: string, text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign(ALGORITHM, await importKey(secret), encoder.encode(text)));
}

/** Equal in time that says nothing about where they differ (both are 32-byte MACs here). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

/** The token of `userId`'s link that turns `kind` off. */
export async function makeUnsubscribeToken(secret: string, userId: string, kind: AlertKind): Promise<string> {
  const payload = toBase64Url(encoder.encode(JSON.stringify({ u: userId, k: kind, v: VERSION })));
  return `${payload}.${toBase64Url(await mac(secret, payload))}`;
}

/** Whose link it is and what it turns off, or null for anything the project did not make. */
export async function readUnsubscribeToken(
  secret: string,
  token: unknown,
): Promise<{ userId: string; kind: AlertKind } | null> {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const [payload, signature, ...rest] = token.split('.');
  if (payload === undefined || signature === undefined || rest.length > 0) return null;
  const presented = fromBase64Url(signature);
  // The MAC is checked before the payload is read, so nothing of a forged token is parsed.
  if (presented === null || !sameBytes(presented, await mac(secret, payload))) return null;
  const json = fromBase64Url(payload);
  if (json === null) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(json));
  } catch {
    return null;
  }
  const { u, k, v } = (claims ?? {}) as { u?: unknown; k?: unknown; v?: unknown };
  if (v !== VERSION || typeof u !== 'string' || !UUID.test(u) || !isAlertKind(k)) return null;
  return { userId: u.toLowerCase(), kind: k };
}
