// What a function's log may keep of a failure. A hosted RPC URL carries the node provider's key
// (in its path, its query or its credentials), and fetch errors quote the URL they failed on:
// Deno in the message of the TypeError's cause, Node in the message itself for a URL with
// credentials, viem in the lines after its first. So a log line holds the error's name and the
// first line of its message, every URL in it cut to its scheme and host, and never its cause or
// its stack. Plain code: it runs under Deno and under Node alike.

const MAX_LINE = 300;
const URL_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]*/gi;
/** Punctuation a sentence puts after a URL, given back after the cut: "(https://host/key):". */
const TRAILING = /[)\]}>.,;:!?]+$/;

/** A thrown value as one short line: `Name: message`, with every URL reduced to its origin. */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : thrown(error);
  const line = text.split(/\r?\n/).find((part) => part.trim() !== '') ?? '';
  const safe = line.trim().replace(URL_TEXT, originOnly);
  return safe.length > MAX_LINE ? `${safe.slice(0, MAX_LINE - 1)}…` : safe;
}

/** Logs `[fn] what: Name: message` for a failure the function answers for. */
export function logError(fn: string, what: string, error: unknown): void {
  console.error(`[${fn}] ${what}: ${errorLine(error)}`);
}

// An object is not quoted: whatever it holds (a request, headers, a URL) could be a secret.
function thrown(value: unknown): string {
  if (typeof value === 'string') return `thrown string: ${value}`;
  if (value === null || typeof value === 'object' || typeof value === 'function') {
    return `thrown ${value === null ? 'null' : typeof value}`;
  }
  return value === undefined ? 'thrown undefined' : `thrown ${typeof value}: ${String(value)}`;
}

function originOnly(text: string): string {
  const trailing = TRAILING.exec(text)?.[0] ?? '';
  const url = text.slice(0, text.length - trailing.length);
  const scheme = url.slice(0, url.indexOf('://'));
  try {
    const { host } = new URL(url);
    // A host hides nothing; anything after it or before it may be the key.
    return `${scheme}://${host}${trailing}`;
  } catch {
    return `${scheme}://…${trailing}`;
  }
}
