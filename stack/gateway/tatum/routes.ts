import { MAX_JSON_BODY, readTextLimited } from '../../../supabase/functions/_shared/body.ts';
import { isAddress } from '../../address.ts';
import { json } from '../http.ts';
import { DuplicateSubscriptionError, type TatumStore } from './store.ts';

// Tatum's v4 subscription API as @tatumio/tatum 4.2.58 calls it:
//   POST   subscription          {type:'ADDRESS_EVENT', attr:{chain, address, url}} → {id}
//   GET    subscription?pageSize=10[&offset][&address] → [{id, type, attr}]
//   DELETE subscription/{id}     → 204, or 404 subscription.not.found
// Errors use Tatum's body shape {statusCode, errorCode, message[, data]}, which
// the SDK turns into its {status:'ERROR', error:{message, code}} values. The
// SDK's query extras (type=testnet, testnetType=…) are accepted and ignored.
// One route is the emulator's own, for tests and for trying the re-org path locally:
//   POST   emulator/reorg        {txId} → {replayed} (every delivery of the transaction again,
//                                  with `reorg: true`, as Tatum's re-org follower sends them)

const SUPPORTED_TYPES = new Set(['ADDRESS_EVENT']);
// The SDK maps every Ethereum network to the notification chain 'ETH'; v4 names are accepted too.
const SUPPORTED_CHAINS = new Set(['ETH', 'ethereum', 'ethereum-mainnet', 'ethereum-sepolia']);

function tatumError(statusCode: number, errorCode: string, message: string, data?: string[]): Response {
  return json(statusCode, { statusCode, errorCode, message, ...(data ? { data } : {}) });
}

/** Replays a transaction's deliveries flagged `reorg: true`; returns how many. */
export type ReorgReplay = (txId: string) => Promise<number>;

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export function createTatumRoutes(store: TatumStore, head: () => Promise<bigint>, replayReorg: ReorgReplay) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/tatum\/v4\//, '').replace(/\/+$/, '');
    const [resource, id, extra] = path.split('/');
    if (resource === 'subscription' && id === undefined) {
      if (request.method === 'POST') return subscribe(request);
      if (request.method === 'GET') return list(url.searchParams);
    }
    if (resource === 'emulator' && id === 'reorg' && extra === undefined && request.method === 'POST') {
      return reorg(request);
    }
    if (
      resource === 'subscription' &&
      id !== undefined &&
      extra === undefined &&
      request.method === 'DELETE'
    ) {
      return unsubscribe(decodeURIComponent(id));
    }
    return tatumError(
      404,
      'path.not.found',
      `${request.method} /v4/${path} is not served by the local Tatum emulator (subscriptions only; balances come from the RPC node)`,
    );
  };

  async function subscribe(request: Request): Promise<Response> {
    // A subscription is a few hundred bytes: a body past the limit is cut off, not buffered whole.
    const text = await readTextLimited(request, MAX_JSON_BODY);
    if (text === null) {
      return tatumError(413, 'payload.too.large', `Request body is larger than ${MAX_JSON_BODY / 1024} KB.`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return tatumError(400, 'validation.failed', 'Request body is not valid JSON.');
    }
    const problems: string[] = [];
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const attr = (typeof b['attr'] === 'object' && b['attr'] !== null ? b['attr'] : {}) as Record<
      string,
      unknown
    >;
    const type = b['type'];
    if (typeof type !== 'string' || !SUPPORTED_TYPES.has(type)) {
      problems.push('type must be ADDRESS_EVENT (the only subscription type the emulator serves)');
    }
    const chain = attr['chain'];
    if (typeof chain !== 'string' || !SUPPORTED_CHAINS.has(chain)) problems.push('attr.chain must be ETH');
    const address = attr['address'];
    if (!isAddress(address)) {
      problems.push('attr.address must be a valid ETH address');
    }
    const target = attr['url'];
    if (typeof target !== 'string' || !isHttpUrl(target)) problems.push('attr.url must be an http(s) URL');
    if (problems.length > 0) {
      return tatumError(
        400,
        'validation.failed',
        'Request validation failed. Please see data for additional info.',
        problems,
      );
    }
    try {
      const subscription = await store.addSubscription(
        { type: type as string, chain: chain as string, address: address as string, url: target as string },
        await head(),
      );
      return json(200, { id: subscription.id });
    } catch (error) {
      if (!(error instanceof DuplicateSubscriptionError)) throw error;
      return tatumError(
        400,
        'subscription.exists',
        `A subscription of type ${type as string} for ${address as string} with this URL already exists.`,
      );
    }
  }

  async function reorg(request: Request): Promise<Response> {
    const text = await readTextLimited(request, MAX_JSON_BODY);
    let txId: unknown;
    try {
      txId = text === null ? null : (JSON.parse(text) as { txId?: unknown }).txId;
    } catch {
      txId = null;
    }
    if (typeof txId !== 'string' || !TX_HASH.test(txId)) {
      return tatumError(
        400,
        'validation.failed',
        'Send {"txId": "0x…"}: the transaction to replay as re-organised.',
      );
    }
    return json(200, { replayed: await replayReorg(txId) });
  }

  async function list(params: URLSearchParams): Promise<Response> {
    const pageSize = Number(params.get('pageSize'));
    const offset = Number(params.get('offset') ?? '0');
    const address = params.get('address');
    const problems: string[] = [];
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 50) {
      problems.push('pageSize must be an integer from 1 to 50');
    }
    if (!Number.isInteger(offset) || offset < 0) problems.push('offset must be a non-negative integer');
    if (address !== null && !isAddress(address)) problems.push('address must be a valid ETH address');
    if (problems.length > 0) {
      return tatumError(
        400,
        'validation.failed',
        'Request validation failed. Please see data for additional info.',
        problems,
      );
    }
    const rows = await store.listSubscriptions({ pageSize, offset, address });
    return json(
      200,
      rows.map((row) => ({
        id: row.id,
        type: row.type,
        attr: { chain: row.chain, address: row.address, url: row.url },
      })),
    );
  }

  async function unsubscribe(id: string): Promise<Response> {
    const owed = await store.removeSubscription(id);
    if (owed === null) return tatumError(404, 'subscription.not.found', 'Subscription not found');
    if (owed > 0) {
      // Hosted Tatum stops delivering with the subscription; say what that cost.
      console.warn(
        `[tatum] subscription ${id} deleted with ${owed} undelivered webhook(s); they are cancelled`,
      );
    }
    return new Response(null, { status: 204 });
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const parsed = new URL(value);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}
