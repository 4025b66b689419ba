// Reading Uniswap V2 swaps out of a receipt, by hand like transfer-log.ts (a few words of hex are
// not worth viem's weight in every function that imports this): which
// pools swapped, how much DDEX each swap of the market's pair moved into or out of the wallet, and
// the pair's reserves (Sync) that price each swap.
import { ADDRESS, ADDRESS_WORD } from './address.ts';
import { decodeTransfer, type RawLog, type Receipt } from './transfer-log.ts';

/** keccak256('Swap(address,uint256,uint256,uint256,uint256,address)'), the Uniswap V2 pair's event. */
export const SWAP_TOPIC = '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822';

/** keccak256('Sync(uint112,uint112)'): the pair's reserves, emitted right before each Swap, Mint and Burn. */
export const SYNC_TOPIC = '0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1';

export type SwapEvent = {
  pair: string;
  sender: string;
  to: string;
  amount0In: bigint;
  amount1In: bigint;
  amount0Out: bigint;
  amount1Out: bigint;
};

/** One swap of the pair that moved the wallet's DDEX, keyed by the Swap log. */
export type WalletSwap = {
  /** The Swap log's index in its block (absent only where a node leaves it out). */
  logIndex?: number;
  /** DDEX in its smallest unit: positive when bought (pair → wallet), negative when sold. */
  amount: bigint;
};

const FOUR_WORDS = /^0x[0-9a-f]{256}$/;

/** The log as a Uniswap V2 Swap, or null when it is not one. */
export function decodeSwap(log: RawLog): SwapEvent | null {
  if (log.removed || log.topics.length !== 3) return null;
  const [topic0, senderTopic, toTopic] = log.topics.map((topic) => topic.toLowerCase());
  const pair = log.address.toLowerCase();
  const data = log.data.toLowerCase();
  if (topic0 !== SWAP_TOPIC || !ADDRESS.test(pair) || !FOUR_WORDS.test(data)) return null;
  const sender = senderTopic?.match(ADDRESS_WORD)?.[1];
  const to = toTopic?.match(ADDRESS_WORD)?.[1];
  if (sender === undefined || to === undefined) return null;
  const word = (n: number) => BigInt(`0x${data.slice(2 + 64 * n, 2 + 64 * (n + 1))}`);
  return {
    pair,
    sender: `0x${sender}`,
    to: `0x${to}`,
    amount0In: word(0),
    amount1In: word(1),
    amount0Out: word(2),
    amount1Out: word(3),
  };
}

/** The pair's reserves after the call that emitted it (token0's, token1's, in their smallest units). */
export type SyncEvent = { pair: string; reserve0: bigint; reserve1: bigint };

const TWO_WORDS = /^0x[0-9a-f]{128}$/;

/** The log as a Uniswap V2 Sync, or null when it is not one. */
export function decodeSync(log: RawLog): SyncEvent | null {
  if (log.removed || log.topics.length !== 1) return null;
  const pair = log.address.toLowerCase();
  const data = log.data.toLowerCase();
  if (log.topics[0]?.toLowerCase() !== SYNC_TOPIC || !ADDRESS.test(pair) || !TWO_WORDS.test(data)) {
    return null;
  }
  return {
    pair,
    reserve0: BigInt(`0x${data.slice(2, 66)}`),
    reserve1: BigInt(`0x${data.slice(66, 130)}`),
  };
}

/** Every address that emitted a Swap in the receipt (lower case): the pools this transaction traded in. */
export function swappingPools(receipt: Receipt): Set<string> {
  const pools = new Set<string>();
  for (const log of receipt.logs) {
    const swap = decodeSwap(log);
    if (swap) pools.add(swap.pair);
  }
  return pools;
}

/**
 * Whether `token` moved between the wallet and one of the pools, either way: the mark of a swap
 * the wallet took part in, whichever pool it was.
 */
export function tradesWithPool(receipt: Receipt, token: string, wallet: string, pools: Set<string>): boolean {
  const wantedToken = token.toLowerCase();
  const own = wallet.toLowerCase();
  return receipt.logs.some((log) => {
    const transfer = decodeTransfer(log);
    if (!transfer || transfer.token !== wantedToken) return false;
    return (
      (transfer.from === own && pools.has(transfer.to)) || (transfer.to === own && pools.has(transfer.from))
    );
  });
}

/**
 * The swaps of `pair` that moved `token` between the pair and the wallet. A pair emits Swap after
 * its own transfers out, and a router moves the input into the pair before calling swap, so each
 * swap's DDEX transfers come between the pair's previous Swap and this one. A Swap with none of the
 * wallet's DDEX (its output went elsewhere, or it is a hop that moved only WETH) is not the wallet's.
 */
export function findWalletSwaps(receipt: Receipt, pair: string, token: string, wallet: string): WalletSwap[] {
  const wantedPair = pair.toLowerCase();
  const wantedToken = token.toLowerCase();
  const own = wallet.toLowerCase();
  const swaps: WalletSwap[] = [];
  let moved = 0n;
  let touched = false;
  for (const log of receipt.logs) {
    const transfer = decodeTransfer(log);
    if (transfer && transfer.token === wantedToken) {
      if (transfer.from === wantedPair && transfer.to === own) {
        moved += transfer.value;
        touched = true;
      } else if (transfer.from === own && transfer.to === wantedPair) {
        moved -= transfer.value;
        touched = true;
      }
      continue;
    }
    const swap = decodeSwap(log);
    if (swap?.pair !== wantedPair) continue;
    if (touched)
      swaps.push(log.logIndex === undefined ? { amount: moved } : { logIndex: log.logIndex, amount: moved });
    moved = 0n;
    touched = false;
  }
  return swaps;
}
