import type { Address, Client, Hex } from 'viem';
import { getBlock, getCode, getLogs } from 'viem/actions';
import { pairAbi } from './abi.ts';
import type { MarketHistory, PricePoint, Trade } from './types.ts';

// The pair's Swap and Sync events turned into the trade list and the price chart. Logs are read
// over a bounded range, newest first, in chunks a public node accepts, and only as far back as
// the trades asked for need.

/** How far back the history looks at most (about a week of Sepolia's 12-second blocks). */
export const LOOKBACK_BLOCKS = 50_000n;
/** Blocks per eth_getLogs call: within what public RPC providers accept. */
const CHUNK_BLOCKS = 5_000n;

const pairEvents = [pairAbi[1], pairAbi[2]] as const;

/** Which side of the pair is WETH: Uniswap orders a pair's tokens by address. */
export type PairSides = { ethIs0: boolean };

export function pairSides(weth: Address, token: Address): PairSides {
  return { ethIs0: weth.toLowerCase() < token.toLowerCase() };
}

type PairLog = Awaited<ReturnType<typeof readPairLogs>>[number];

/** The pair's Swap and Sync logs of blocks `from`..`to`, oldest first. */
export async function readPairLogs(client: Client, pair: Address, fromBlock: bigint, toBlock: bigint) {
  const logs = await getLogs(client, { address: pair, events: pairEvents, fromBlock, toBlock, strict: true });
  return logs.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
}

/** ETH per DDEX; both have 18 decimals, so the ratio of raw amounts is the ratio of units. */
const ethPerToken = (eth: bigint, token: bigint): number => (token === 0n ? 0 : Number(eth) / Number(token));

/** What a trade is read from: a Swap log, from eth_getLogs or a receipt. */
export type SwapLog = {
  args: { amount0In: bigint; amount1In: bigint; amount0Out: bigint; amount1Out: bigint };
  transactionHash: Hex;
  logIndex: number;
  blockNumber: bigint;
};

/** A Swap log as a trade: ETH in makes a buy, DDEX in a sell. */
export function tradeOf(log: SwapLog, sides: PairSides, timestamp: number): Trade {
  const { amount0In, amount1In, amount0Out, amount1Out } = log.args;
  const [ethIn, tokenIn, ethOut, tokenOut] = sides.ethIs0
    ? [amount0In, amount1In, amount0Out, amount1Out]
    : [amount1In, amount0In, amount1Out, amount0Out];
  const buy = ethIn > 0n;
  return {
    id: `${log.transactionHash}:${log.logIndex}`,
    hash: log.transactionHash,
    blockNumber: log.blockNumber,
    timestamp,
    side: buy ? 'buy' : 'sell',
    amountIn: buy ? ethIn : tokenIn,
    amountOut: buy ? tokenOut : ethOut,
    price: buy ? ethPerToken(ethIn, tokenOut) : ethPerToken(ethOut, tokenIn),
  };
}

function pricePointOf(log: PairLog & { eventName: 'Sync' }, sides: PairSides, timestamp: number): PricePoint {
  const { reserve0, reserve1 } = log.args;
  const [eth, token] = sides.ethIs0 ? [reserve0, reserve1] : [reserve1, reserve0];
  return { timestamp, blockNumber: log.blockNumber, price: ethPerToken(eth, token) };
}

/**
 * Trades and price points of `logs` (oldest first), with their blocks' times. `known` holds times
 * already at hand (the block a watch was told of); the others are read, one block each.
 */
export async function historyOf(
  client: Client,
  logs: readonly PairLog[],
  sides: PairSides,
  known: ReadonlyMap<bigint, number> = new Map(),
): Promise<MarketHistory> {
  const times = new Map(known);
  for (const log of logs) {
    if (log.blockTimestamp !== undefined && log.blockTimestamp !== null) {
      times.set(log.blockNumber, Number(log.blockTimestamp));
    }
  }
  const missing = [...new Set(logs.map((log) => log.blockNumber))].filter((block) => !times.has(block));
  const blocks = await Promise.all(missing.map((blockNumber) => getBlock(client, { blockNumber })));
  for (const block of blocks) if (block.number !== null) times.set(block.number, Number(block.timestamp));
  const timeOf = (log: PairLog) => times.get(log.blockNumber) ?? 0;
  const trades: Trade[] = [];
  const prices: PricePoint[] = [];
  for (const log of logs) {
    if (log.eventName === 'Swap') trades.push(tradeOf(log, sides, timeOf(log)));
    else prices.push(pricePointOf(log, sides, timeOf(log)));
  }
  return { trades, prices };
}

/**
 * The last `limit` trades and the price points from the first of them on (all of the range when
 * there are fewer trades), walking back from `latest` to `since`.
 */
export async function recentHistory(
  client: Client,
  pair: Address,
  sides: PairSides,
  range: { since: bigint; latest: bigint; limit: number },
): Promise<MarketHistory> {
  const { since, latest, limit } = range;
  if (limit < 1) return { trades: [], prices: [] };
  const logs: PairLog[] = [];
  let swaps = 0;
  for (let to = latest; to >= since && swaps < limit; to -= CHUNK_BLOCKS) {
    const from = to - CHUNK_BLOCKS + 1n > since ? to - CHUNK_BLOCKS + 1n : since;
    const chunk = await readPairLogs(client, pair, from, to);
    logs.unshift(...chunk);
    swaps += chunk.filter((log) => log.eventName === 'Swap').length;
  }
  const kept = swaps >= limit ? logs.filter((log) => log.eventName === 'Swap').slice(-limit) : [];
  const first = kept[0];
  // From the first kept trade's transaction on, whose Sync comes before its Swap.
  const inRange = first
    ? logs.filter((log) =>
        log.blockNumber === first.blockNumber
          ? log.transactionIndex >= first.transactionIndex
          : log.blockNumber > first.blockNumber,
      )
    : logs;
  return historyOf(client, inRange, sides);
}

/**
 * The first block at which `address` has code, searched in `low`..`high` (it has code at
 * `high`); `low` itself when it already had code there. Found once per pair by bisection.
 */
export async function firstBlockWithCode(
  client: Client,
  address: Address,
  low: bigint,
  high: bigint,
): Promise<bigint> {
  const hasCode = async (blockNumber: bigint) => Boolean(await getCode(client, { address, blockNumber }));
  if (await hasCode(low)) return low;
  let [without, withCode] = [low, high];
  while (withCode - without > 1n) {
    const middle = (without + withCode) / 2n;
    if (await hasCode(middle)) withCode = middle;
    else without = middle;
  }
  return withCode;
}
