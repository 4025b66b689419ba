import type { JournalValue } from './journal-types.ts';
import { toJournalValue } from './journal-value.ts';

// What the journal must never hold, removed before anything is stored. The
// rules are structural first — where a value sits and what it is — and a
// defensive rule by shape comes after:
//
// 1. By key. A value under a key that names a secret is replaced, however deep
//    (events, actor inputs in `xstate.init` events, outputs, errors). A key is
//    compared lower-cased without `_` / `-`, so `privateKey`, `private_key` and
//    `PRIVATE-KEY` are one key. It names a secret when it is `authorization`,
//    `cookie` or `jwt`, or ends with one of SECRET_KEY_ENDINGS (`password`,
//    `newPassword`, `access_token`, `refresh_token`, `apiKey`, `api_key`,
//    `webhookSecret`, `privateKey`, `signature`, …). A wallet's signature of a
//    proof is one: whoever holds it could present the proof while its nonce
//    is unspent.
// 2. By kind. The send machine's SealedKey (any object with a `reveal()`
//    method) is replaced wherever it sits, whatever its key.
// 3. By shape. A string that is exactly a 32-byte hex number (64 hex digits,
//    with or without 0x) is what a private key looks like; it is replaced unless
//    its key ends with `hash` (txHash, hash, tx_hash, transaction_hash,
//    lastHash, …), where that shape is a transaction or block hash. A longer hex
//    string (a signed transaction, `serialized`) is no key and is kept.
//
// What is kept on purpose: an empty or blank string, null and undefined (they
// reveal nothing, and the machines' "field missing" guards must decide the
// same way in a replay), and booleans and numbers under secret-looking keys (a
// flag such as `hasPassword` is no secret, and a replay needs its type).
// Redacted values become '[redacted]'; a replay works with that text, since
// every service answer comes from the recording.

export const REDACTED = '[redacted]';

/** A key names a secret when, lower-cased without `_` and `-`, it ends with one of these. */
export const SECRET_KEY_ENDINGS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'privatekey',
  'apikey',
  'mnemonic',
  'seedphrase',
  'signature',
] as const;

/** Keys that name a secret as a whole (they end with no word above). */
export const SECRET_KEYS = ['authorization', 'cookie', 'jwt'] as const;

/** A 64-hex value under a key with this ending is a hash, not a key. */
export const HASH_KEY_ENDING = 'hash';

const PRIVATE_KEY_SHAPE = /^(0x)?[0-9a-f]{64}$/i;

const normalised = (key: string) => key.toLowerCase().replace(/[_-]/g, '');

export function isSecretKey(key: string): boolean {
  const name = normalised(key);
  return (
    (SECRET_KEYS as readonly string[]).includes(name) || SECRET_KEY_ENDINGS.some((end) => name.endsWith(end))
  );
}

export function isHashKey(key: string | null): boolean {
  return key !== null && normalised(key).endsWith(HASH_KEY_ENDING);
}

/** True for text that has the shape of a private key (32 bytes of hex, 0x optional). */
export function looksLikePrivateKey(text: string): boolean {
  return PRIVATE_KEY_SHAPE.test(text.trim());
}

/** The send machine's SealedKey, or anything else that hides a secret behind `reveal()`. */
export function isSealed(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { reveal?: unknown }).reveal === 'function'
  );
}

/** Whether a value, sitting under `key`, is replaced by '[redacted]' (rules 1–3 above). */
export function isSecret(key: string | null, value: unknown): boolean {
  if (isSealed(value)) return true;
  const revealing =
    (typeof value === 'string' && value.trim() !== '') || (typeof value === 'object' && value !== null);
  if (!revealing) return false;
  if (key !== null && isSecretKey(key)) return true;
  return typeof value === 'string' && looksLikePrivateKey(value) && !isHashKey(key);
}

/** The journal's copy of `value`: secrets replaced (see above), JSON-safe (see journal-value.ts). */
export function redact(value: unknown): JournalValue {
  return toJournalValue(value, (key, item) => (isSecret(key, item) ? REDACTED : undefined));
}
