import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { createPublicClient, http, TransactionReceiptNotFoundError, type Hex } from 'viem';
import { getBlockNumber, getTransactionReceipt } from 'viem/actions';
import { DEFAULT_TATUM_CHAIN } from '../../../supabase/functions/process-payments/handler.ts';
import { isOneOfKeys, json } from '../http.ts';
import { startDispatcher } from './dispatcher.ts';
import { originGuard } from './origin.ts';
import { createTatumRoutes } from './routes.ts';
import { createTatumStore, type Subscription } from './store.ts';
import { startBlockWatcher } from './watcher.ts';

// The local stand-in for Tatum: its v4 subscription API at /tatum/v4/, a
// block watcher that owes address-event webhooks for watched addresses, and a
// dispatcher that delivers them signed and retries until they arrive.

export type TatumEmulator = {
  handle(request: Request): Promise<Response>;
  /** Subscribes as the REST API would, unless already subscribed (store.ts ensureSubscription). */
  ensureSubscription(input: Omit<Subscription, 'id'>): Promise<Subscription>;
  close(): Promise<void>;
};

export type TatumEmulatorOptions = {
  pg: PGlite;
  rpcUrl: string;
  webhookSecret: string;
  /** The account's API key: a request without it as x-api-key is refused, as hosted Tatum does. */
  apiKey: string;
  /** The app's URL: its origin alone may call from a browser (origin.ts). */
  siteUrl: string;
  /**
   * Tatum's name of the network the account is on, which deliveries name as their `chain`:
   * Sepolia by default, as process-payments expects unless TATUM_CHAIN says otherwise.
   */
  chain?: string;
  retryBaseMs?: number;
  /** How often the watcher asks the chain for new blocks (watcher.ts; tests slow it down). */
  pollMs?: number;
};

const SCHEMA_SQL = new URL('../../sql/tatum.sql', import.meta.url);

export async function startTatumEmulator(options: TatumEmulatorOptions): Promise<TatumEmulator> {
  await options.pg.exec(readFileSync(SCHEMA_SQL, 'utf8'));
  const store = createTatumStore(options.pg);
  const dispatcher = startDispatcher({
    store,
    webhookSecret: options.webhookSecret,
    retryBaseMs: options.retryBaseMs,
  });
  const watcher = await startBlockWatcher({
    rpcUrl: options.rpcUrl,
    store,
    onOwed: dispatcher.wake,
    chain: options.chain ?? DEFAULT_TATUM_CHAIN,
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  });
  const client = createPublicClient({ transport: http(options.rpcUrl, { retryCount: 0, timeout: 10_000 }) });
  // The block the chain has the transaction in now; null when the re-organised chain dropped it.
  const blockOf = async (txId: string): Promise<number | null> => {
    try {
      return Number((await getTransactionReceipt(client, { hash: txId as Hex })).blockNumber);
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    }
  };
  // What a subscription made now is told of: the blocks after the chain's head, however far the
  // watcher has read.
  const head = () => getBlockNumber(client, { cacheTime: 0 });
  const routes = createTatumRoutes(store, head, async (txId) => {
    const replayed = await store.replayAsReorg(txId, await blockOf(txId));
    if (replayed > 0) dispatcher.wake();
    return replayed;
  });
  const guard = originGuard(options.siteUrl);
  // The key manages the whole account (every subscription, the HMAC secret), so only the Edge
  // Functions hold it; a browser or anyone else without it gets 401 and learns nothing.
  const keyed = (request: Request): Promise<Response> =>
    isOneOfKeys(request.headers.get('x-api-key'), [options.apiKey])
      ? routes(request)
      : Promise.resolve(
          json(401, {
            statusCode: 401,
            errorCode: 'unauthorized',
            message: 'Missing or invalid x-api-key header.',
          }),
        );
  return {
    handle: (request) => guard(request, keyed),
    ensureSubscription: async (input) => store.ensureSubscription(input, await head()),
    close: async () => {
      await watcher.stop();
      await dispatcher.stop();
    },
  };
}
