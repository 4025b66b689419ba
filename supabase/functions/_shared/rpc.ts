// A minimal Ethereum JSON-RPC client over fetch, for the functions that read the chain
// (process-payments, record-transaction): they need a handful of calls, and fetch is the one HTTP
// client Deno and Node share.

/** The node could not be asked, or did not answer: unreachable, timed out, not JSON-RPC, or an error reply. */
export class RpcError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RpcError';
  }
}

export type RpcCall = (method: string, params: unknown[]) => Promise<unknown>;

export type RpcOptions = {
  fetch?: typeof fetch;
  /** A node that accepts the connection but never answers must not hold the caller's request open. */
  timeoutMs?: number;
};

export function createRpcClient(url: string, options: RpcOptions = {}): RpcCall {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let nextId = 1;
  return async (method, params) => {
    const id = nextId++;
    let response: Response;
    try {
      response = await send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new RpcError(`${method}: the node could not be reached`, { cause: error });
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new RpcError(`${method}: the node answered HTTP ${response.status}`);
    }
    let reply: unknown;
    try {
      reply = await response.json();
    } catch (error) {
      throw new RpcError(`${method}: the node's answer is not JSON`, { cause: error });
    }
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
      throw new RpcError(`${method}: the node's answer is not a JSON-RPC response`);
    }
    const { error, result } = reply as { error?: unknown; result?: unknown };
    if (error !== undefined && error !== null) {
      const message =
        typeof error === 'object' && 'message' in error && typeof error.message === 'string'
          ? error.message
          : JSON.stringify(error);
      throw new RpcError(`${method}: the node replied with an error: ${message}`);
    }
    // A reply without result is malformed; a result of null is meaningful (e.g. no such receipt).
    if (!('result' in reply)) throw new RpcError(`${method}: the node's answer has no result`);
    return result;
  };
}
