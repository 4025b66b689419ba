import { isSecret, REDACTED } from '../redact.ts';

// How the panel writes machine states and values: a state value as dotted
// paths (one per active leaf, parallel regions included), and any value as
// short, JSON-like text that survives what contexts hold (bigints, actor
// refs, files) and never shows a secret: the journal's own rule (redact.ts)
// decides what is one, so the panel hides exactly what the journal hides.

/** `{ connected: { network: 'right', clipboard: 'idle' } }` → `['connected.network.right', 'connected.clipboard.idle']`. */
export function statePaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix ? `${prefix}.${value}` : value];
  if (value === null || typeof value !== 'object') return prefix ? [prefix] : [];
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return prefix ? [prefix] : [];
  return entries.flatMap(([key, child]) => statePaths(child, prefix ? `${prefix}.${key}` : key));
}

const MAX_STRING = 120;

function isActorRef(value: object): value is { id: string; sessionId: string } {
  return 'sessionId' in value && 'send' in value && typeof (value as { send: unknown }).send === 'function';
}

/** A JSON-safe copy for display: secrets redacted, long strings cut, bigints as `123n`. */
export function displayable(value: unknown): unknown {
  const ancestors = new Set<object>();
  const walk = (item: unknown, key: string | null, depth: number): unknown => {
    if (isSecret(key, item)) return REDACTED;
    if (typeof item === 'bigint') return `${item}n`;
    if (typeof item === 'string') return item.length > MAX_STRING ? `${item.slice(0, MAX_STRING)}…` : item;
    if (typeof item === 'function' || typeof item === 'symbol') return undefined;
    if (item === null || typeof item !== 'object') return item;
    if (ancestors.has(item)) return '[circular]';
    if (depth > 8) return '[…]';
    if (isActorRef(item)) return `[actor ${item.id}]`;
    if (typeof File !== 'undefined' && item instanceof File) return `[file ${item.name}, ${item.size} bytes]`;
    if (typeof Blob !== 'undefined' && item instanceof Blob) return `[blob, ${item.size} bytes]`;
    const withJson = item as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === 'function') return walk(withJson.toJSON(), key, depth + 1);
    ancestors.add(item);
    try {
      if (Array.isArray(item)) return item.map((inner) => walk(inner, key, depth + 1) ?? null);
      const out: Record<string, unknown> = {};
      for (const [name, inner] of Object.entries(item)) out[name] = walk(inner, name, depth + 1);
      return out;
    } finally {
      ancestors.delete(item);
    }
  };
  return walk(value, null, 0);
}

/** Pretty JSON of `displayable(value)`. */
export function toDisplayJson(value: unknown): string {
  return JSON.stringify(displayable(value), null, 2) ?? 'undefined';
}

/** One line, for summaries and comparisons. */
export function toInlineJson(value: unknown): string {
  return JSON.stringify(displayable(value)) ?? 'undefined';
}

/** Milliseconds since the journal started, as `12.345 s`. */
export function formatAt(ms: number): string {
  return `${(ms / 1000).toFixed(3)} s`;
}
