import type { Hex } from './token.ts';

// The DDEX/WETH market on Uniswap V2 as plain data (docs/product.md#dex-trading): what the DEX
// service (src/services/dex/types.ts) answers and the trading machines carry. Amounts are in each
// token's smallest unit (wei for ETH, 18 decimals for DDEX). Machines may import only src/domain,
// so the shapes the service and the machines share live here.

export type Address = Hex;

/** 'buy': ETH in, DDEX out. 'sell': DDEX in, ETH out. */
export type SwapSide = 'buy' | 'sell';

/** The market's contracts, read once from the router and the factory. */
export type Market = {
  router: Address;
  factory: Address;
  weth: Address;
  /** The DDEX/WETH pair. */
  pair: Address;
  token: Address;
  /** Uniswap V2's fee on the input, in basis points (30 = 0.3 %). */
  feeBps: number;
};

/** The pool at one block. */
export type PoolState = {
  /** WETH in the pool, in wei. */
  reserveEth: bigint;
  /** DDEX in the pool, in its smallest unit. */
  reserveToken: bigint;
  blockNumber: bigint;
};

/** An exact-input quote from the router (getAmountsOut) with the pool it was read against. */
export type Quote = {
  side: SwapSide;
  amountIn: bigint;
  amountOut: bigint;
  /** The loss against the pool's mid price, fee included, in basis points (e.g. 42 = 0.42 %). */
  priceImpactBps: number;
  pool: PoolState;
};

/** What the account holds and has allowed the router to spend, at the latest block. */
export type Holdings = {
  eth: bigint;
  token: bigint;
  /** DDEX the router may spend for this account (ERC-20 allowance). */
  allowance: bigint;
};

/** A swap mined: the amounts the pair's events say actually moved. */
export type SwapResult = {
  hash: Hex;
  side: SwapSide;
  amountIn: bigint;
  amountOut: bigint;
  blockNumber: bigint;
};

/** One trade in the pair, from its `Swap` event. */
export type Trade = {
  /** `<hash>:<logIndex>`, unique per trade. */
  id: string;
  hash: Hex;
  blockNumber: bigint;
  /** Unix seconds of the block. */
  timestamp: number;
  side: SwapSide;
  /** ETH in for a buy, DDEX in for a sell. */
  amountIn: bigint;
  amountOut: bigint;
  /** ETH per DDEX of this trade, as a number for the chart. */
  price: number;
};

/** One point of the price chart: the pool's mid price after a `Sync` event. */
export type PricePoint = {
  /** Unix seconds of the block. */
  timestamp: number;
  blockNumber: bigint;
  /** ETH per DDEX. */
  price: number;
};

/** The market's recent history, oldest first. */
export type MarketHistory = { trades: Trade[]; prices: PricePoint[] };

/** Why the DEX service refused or failed a request; the machines choose the words. */
export type DexProblem =
  /** No pair for DDEX/WETH at the factory the router names. */
  | { code: 'no-pair' }
  /** The router address holds no contract, or not a router. */
  | { code: 'no-router' }
  | { code: 'wrong-chain'; expected: number; actual: number }
  | { code: 'insufficient-liquidity' }
  | { code: 'insufficient-balance'; asset: 'ETH' | 'DDEX' }
  /** Mined and failed; `reason` is the router's revert string when the node gave one. */
  | { code: 'reverted'; hash: Hex | null; reason: string | null }
  /** Sent, but no receipt came in time: it may still be mined. */
  | { code: 'not-confirmed'; hash: Hex }
  | { code: 'rpc-unavailable' }
  | { code: 'unknown' };

/** A call for the connected wallet to send (EIP-1193 eth_sendTransaction); `value` in wei. */
export type DexCall = { from: Address; to: Address; data: Hex; value: bigint };

/** How many trades the market shows, newest first. */
export const TRADES_SHOWN = 20;

/** How many price points the chart keeps, oldest dropped first. */
export const PRICE_POINTS_KEPT = 500;

const DEX_PROBLEM_CODES: ReadonlySet<string> = new Set<DexProblem['code']>([
  'no-pair',
  'no-router',
  'wrong-chain',
  'insufficient-liquidity',
  'insufficient-balance',
  'reverted',
  'not-confirmed',
  'rpc-unavailable',
  'unknown',
]);

/**
 * The problem a DEX service failure carries (a `DexServiceError`), or null for any other failure.
 * Recognised by its shape, not its class, so a failure revived from the event journal reads the same.
 */
export function dexProblemOf(error: unknown): DexProblem | null {
  if (typeof error !== 'object' || error === null) return null;
  const { name, problem } = error as { name?: unknown; problem?: unknown };
  if (name !== 'DexServiceError' || typeof problem !== 'object' || problem === null) return null;
  const { code } = problem as { code?: unknown };
  return typeof code === 'string' && DEX_PROBLEM_CODES.has(code) ? (problem as DexProblem) : null;
}
