import type { JournalValue } from './journal-types.ts';
import { isRecord } from './journal-value.ts';

// A journal value read back for a replay (journal-value.ts says what the tags mean), and the
// canonical text two values are compared by. Only the devtools panel's replay needs these.

/**
 * Revivers for tags that need more than the journal knows, by tag: `{ $logic: (id) => … }` turns
 * `{ $logic: 'trading' }` into a machine the caller holds. A tag without one is left as it was written.
 */
export type Revivers = Readonly<Record<`$${string}`, (content: JournalValue) => unknown>>;

/** A revived Blob is allocated, so an imported file cannot ask for an absurd one. */
const MAX_REVIVED_BLOB = 64 * 1024 * 1024;

function reviveError(fields: Record<string, JournalValue>, revivers: Revivers): Error {
  const { name, message, cause, ...own } = fields;
  const error = new Error(typeof message === 'string' ? message : '');
  if (typeof name === 'string') error.name = name;
  Object.assign(error, fromJournalValue(own, revivers));
  if (cause !== undefined) error.cause = fromJournalValue(cause, revivers);
  return error;
}

function reviveBlob(fields: Record<string, JournalValue>): Blob {
  const { type, size } = fields;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > MAX_REVIVED_BLOB)
    throw new Error(`the journal holds a blob of an impossible size: ${JSON.stringify(size)}`);
  return new Blob([new Uint8Array(size)], { type: typeof type === 'string' ? type : '' });
}

/**
 * The value a journal entry stands for: `toJournalValue`'s tags turned back into bigints, Errors and
 * Blobs, and any other tag by its reviver in `revivers`.
 */
export function fromJournalValue(value: JournalValue, revivers: Revivers = {}): unknown {
  if (Array.isArray(value)) return value.map((item) => fromJournalValue(item, revivers));
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  const [only] = keys;
  if (only !== undefined && keys.length === 1) {
    const { $bigint, $error, $blob } = value;
    if (typeof $bigint === 'string') return BigInt($bigint);
    if (isRecord($error)) return reviveError($error, revivers);
    if (isRecord($blob)) return reviveBlob($blob);
    const revive = Object.hasOwn(revivers, only) ? revivers[only as `$${string}`] : undefined;
    if (revive) return revive(value[only] ?? null);
  }
  return Object.fromEntries(keys.map((key) => [key, fromJournalValue(value[key] ?? null, revivers)]));
}

/** JSON text with every object's keys sorted, so two journal values compare by content alone. */
export function canonicalJson(value: JournalValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (!isRecord(value)) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] ?? null)}`).join(',')}}`;
}
