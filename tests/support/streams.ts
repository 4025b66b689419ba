// Request bodies that declare no length, for the body-limit tests: fetch sends a ReadableStream
// chunked (with `duplex: 'half'`), so only reading it tells the server its size.

/** `text` as a stream of `chunkBytes` pieces, all there from the start. */
export function chunked(text: string, chunkBytes = 8192): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += chunkBytes)
        controller.enqueue(bytes.slice(at, at + chunkBytes));
      controller.close();
    },
  });
}

/**
 * A body of `totalBytes` made lazily, one chunk each time the reader asks for more (spaces after
 * `head`), that counts what was asked for: how soon a server stops reading is then observable.
 */
export function lazyBody(totalBytes: number, options: { chunkBytes?: number; head?: Uint8Array } = {}) {
  const chunkBytes = options.chunkBytes ?? 16 * 1024;
  let chunks = 0;
  let bytes = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (bytes >= totalBytes) return controller.close();
        const chunk = new Uint8Array(Math.min(chunkBytes, totalBytes - bytes)).fill(0x20);
        if (bytes === 0 && options.head) chunk.set(options.head);
        chunks += 1;
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    /** How many chunks the whole body has. */
    chunks: Math.ceil(totalBytes / chunkBytes),
    /** Chunks handed to the reader so far. */
    pulled: () => chunks,
    /** Bytes handed to the reader so far. */
    pulledBytes: () => bytes,
  };
}
