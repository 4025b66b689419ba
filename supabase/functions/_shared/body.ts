// Reads a request body while counting its bytes, so a body past the limit is refused as soon as
// it crosses it: a declared Content-Length is checked before reading, and a chunked body (which
// declares none) is cut off mid-stream instead of being buffered whole first.

/** The limit for webhook and JSON function bodies. */
export const MAX_JSON_BODY = 64 * 1024;

export type LimitedBody = { bytes: Uint8Array } | { tooLarge: true };

export async function readBodyLimited(
  request: Request,
  maxBytes: number,
  options: { drainBytes?: number } = {},
): Promise<LimitedBody> {
  // What is read past the limit is dropped, up to `drainBytes` more (none by default): a server can
  // let a client that sent a little too much finish sending before it answers.
  const drain = options.drainBytes ?? 0;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes + drain) {
    await request.body?.cancel().catch(() => {});
    return { tooLarge: true };
  }
  if (!request.body) return { bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total <= maxBytes) chunks.push(value);
    else if (total > maxBytes + drain) {
      await reader.cancel().catch(() => {});
      return { tooLarge: true };
    }
  }
  if (total > maxBytes || declared > maxBytes) return { tooLarge: true };
  return { bytes: joinChunks(chunks, total) };
}

/** The chunks of a body, `total` bytes in all, as one fresh array. */
export function joinChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The body as UTF-8 text, or null when it is past the limit. */
export async function readTextLimited(request: Request, maxBytes: number): Promise<string | null> {
  const body = await readBodyLimited(request, maxBytes);
  return 'tooLarge' in body ? null : new TextDecoder().decode(body.bytes);
}
