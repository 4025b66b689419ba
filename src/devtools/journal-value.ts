import type { AnyActorRef } from 'xstate';
import { actorName } from './actor-names.ts';
import type { JournalValue } from './journal-types.ts';

// How a value becomes part of the journal, and how a replay gets it back.
// The journal holds JSON only, so that a recording can be exported as a file
// and read back. What JSON cannot hold is written as a tagged object, which
// `fromJournalValue` turns back into the real thing:
//
//   bigint       → { $bigint: '123' }
//   Error        → { $error: { name, message, ...its own fields, cause? } }  (no stack)
//   Blob / File  → { $blob: { type, size } }   (revived as a zero-filled Blob of that type and size)
//   actor logic  → { $logic: 'trading' }   (a machine by its id; null for logic without one)
//   actor (ref)  → { $actor: 'trading' }   (by its journal name, actor-names.ts; not revived)
//
// Actor logic travels in events when a machine's code loads on demand: the portal's `loadTrading`
// and `loadBots` resolve with the tab's root machine. Its definition is code, not data, and would
// be most of the journal; a replay revives the tag into its own copy of that machine (replay.ts).
// An actor kept in a context (the portal's `trading` and `bots`) would otherwise be written by its
// toJSON, whose id is a session id for a spawned actor: it changes from run to run, and a replay's
// snapshots would never equal the recording's.
//
// Everything else follows JSON.stringify: toJSON() is used (a Date becomes ISO
// text), undefined, functions and symbols are left out of objects and become
// null in arrays, and non-finite numbers become null. A value met again inside
// itself becomes '[circular]'; the same object met twice side by side is
// written twice, as a replay needs it. Reading values back is journal-revive.ts, which only a
// replay needs, so it stays out of the entry bundle.

/**
 * Asked for every value on the way down, with the key it sits under (for an array item, the
 * array's key): a JournalValue replaces the value and its contents, undefined lets the walk go on.
 */
export type Replacer = (key: string | null, value: unknown) => JournalValue | undefined;

const MAX_DEPTH = 64;

const isBlob = (value: object): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;

/** A running actor by its shape: only an actor has a session id. */
const isActorRef = (value: object): value is AnyActorRef => {
  const ref = value as { sessionId?: unknown; send?: unknown; getSnapshot?: unknown };
  return (
    typeof ref.sessionId === 'string' &&
    typeof ref.send === 'function' &&
    typeof ref.getSnapshot === 'function'
  );
};

/** Actor logic by its shape, so that no machine needs importing here; an actor (a ref) has neither. */
const isActorLogic = (value: object): value is { id?: unknown } => {
  const logic = value as { transition?: unknown; getInitialSnapshot?: unknown };
  return typeof logic.transition === 'function' && typeof logic.getInitialSnapshot === 'function';
};

export function isRecord(value: unknown): value is Record<string, JournalValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The journal's copy of `value`: JSON-safe, with `replace` applied to every value on the way down. */
export function toJournalValue(value: unknown, replace: Replacer = () => undefined): JournalValue {
  const ancestors = new Set<object>();

  function walk(item: unknown, key: string | null, depth: number): JournalValue | undefined {
    const replaced = replace(key, item);
    if (replaced !== undefined) return replaced;
    switch (typeof item) {
      case 'string':
      case 'boolean':
        return item;
      case 'number':
        return Number.isFinite(item) ? item : null;
      case 'bigint':
        return { $bigint: item.toString() };
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    if (item === null || typeof item !== 'object') return null;
    if (ancestors.has(item)) return '[circular]';
    if (depth >= MAX_DEPTH) return '[too deep]';
    ancestors.add(item);
    try {
      return walkObject(item, key, depth + 1);
    } finally {
      ancestors.delete(item);
    }
  }

  function walkObject(item: object, key: string | null, depth: number): JournalValue | undefined {
    if (item instanceof Error) return { $error: errorFields(item, depth) };
    if (isBlob(item)) return { $blob: { type: item.type, size: item.size } };
    if (isActorLogic(item)) return { $logic: typeof item.id === 'string' ? item.id : null };
    if (isActorRef(item)) return { $actor: actorName(item) };
    const withJson = item as { toJSON?: unknown };
    if (typeof withJson.toJSON === 'function') return walk((withJson.toJSON as () => unknown)(), key, depth);
    // An array's items sit under the array's key: a list of hashes is still a list of hashes.
    if (Array.isArray(item)) return item.map((element: unknown) => walk(element, key, depth) ?? null);
    return fields(Object.entries(item), depth);
  }

  function fields(pairs: [string, unknown][], depth: number): { [key: string]: JournalValue } {
    const out: { [key: string]: JournalValue } = {};
    for (const [name, item] of pairs) {
      const written = walk(item, name, depth);
      if (written !== undefined) out[name] = written;
    }
    return out;
  }

  function errorFields(error: Error, depth: number): { [key: string]: JournalValue } {
    const own = Object.entries(error).filter(
      ([name]) => !['name', 'message', 'stack', 'cause'].includes(name),
    );
    // `cause` is not enumerable when set through the Error constructor.
    const cause: [string, unknown][] = error.cause === undefined ? [] : [['cause', error.cause]];
    return fields(
      [['name', String(error.name)], ['message', String(error.message)], ...own, ...cause],
      depth,
    );
  }

  return walk(value, null, 0) ?? null;
}
