import type { Block, Client } from 'viem';
import { watchBlocks } from 'viem/actions';
import { historyOf, readPairLogs, type PairSides } from './dex-history.ts';
import type { Market, MarketEventHandlers, PoolState } from './types.ts';

// Follows the chain block by block (viem's watchBlocks, polling): each new block is told as
// block(n), then the pair's events since the last block told as activity. A failure tells lost()
// once; the watch then starts again a poll later, and tells the head again as soon as the node
// answers, even when no block was mined meanwhile.

/** At most this many blocks are read for activity after a gap (a laptop that slept). */
const CATCH_UP_BLOCKS = 1_000n;

export type WatchDeps = {
  client: Client;
  pollingIntervalMs: number;
  /** The market, the chain checked; rejects when the node is not the portal's chain. */
  market(): Promise<Market & PairSides>;
  poolAt(market: Market & PairSides, blockNumber: bigint): Promise<PoolState>;
};

export function watchMarket(deps: WatchDeps, handlers: MarketEventHandlers): () => void {
  let stopped = false;
  let lost = false;
  let last: bigint | null = null;
  let queue = Promise.resolve();
  let retry: ReturnType<typeof setTimeout> | undefined;
  let unwatch = () => {};

  const lose = () => {
    if (stopped) return;
    unwatch();
    if (!lost) {
      lost = true;
      handlers.lost();
    }
    clearTimeout(retry);
    retry = setTimeout(start, deps.pollingIntervalMs);
  };

  async function tell(block: Block): Promise<void> {
    const n = block.number;
    // After a loss the head is told again even if it is the one told before.
    if (stopped || n === null || (last !== null && n <= last && !lost)) return;
    const market = await deps.market();
    const from =
      last === null || last >= n ? n : last + 1n > n - CATCH_UP_BLOCKS ? last + 1n : n - CATCH_UP_BLOCKS;
    const [logs, pool] = await Promise.all([
      readPairLogs(deps.client, market.pair, from, n),
      deps.poolAt(market, n),
    ]);
    const history = await historyOf(deps.client, logs, market, new Map([[n, Number(block.timestamp)]]));
    if (stopped) return;
    last = n;
    lost = false;
    handlers.block(n);
    handlers.activity(history, pool);
  }

  function start() {
    if (stopped) return;
    unwatch = watchBlocks(deps.client, {
      poll: true,
      pollingInterval: deps.pollingIntervalMs,
      // The head at once: quotes refresh without waiting a poll, and a recovery is told at once.
      emitOnBegin: true,
      emitMissed: false,
      onBlock: (block) => {
        queue = queue.then(() => tell(block)).catch(lose);
      },
      onError: lose,
    });
  }

  start();
  return () => {
    stopped = true;
    clearTimeout(retry);
    unwatch();
  };
}
