import type { Address, Hex } from 'viem';
import type {
  DexCall,
  DexProblem,
  Holdings,
  Market,
  MarketHistory,
  PoolState,
  PricePoint,
  Quote,
  SwapResult,
  SwapSide,
  Trade,
} from '../../domain/dex.ts';

export type {
  DexCall,
  DexProblem,
  Holdings,
  Market,
  MarketHistory,
  PoolState,
  PricePoint,
  Quote,
  SwapResult,
  SwapSide,
  Trade,
};

// The DDEX/WETH market on Uniswap V2 (docs/product.md#dex-trading): the contract the swap and market
// machines' actors are built from. Types only, so machines and views may import it with
// `import type`. Amounts are in each token's smallest unit (wei for ETH, 18 decimals for DDEX).

export type DexServiceConfig = {
  /** JSON-RPC endpoint of the node; reads and receipts both go through it. */
  rpcUrl: string;
  /** The chain the portal is built for; a node on any other chain is refused ('wrong-chain'). */
  chainId: number;
  /** `VITE_UNISWAP_V2_ROUTER`: the factory, WETH and the pair are read from it on chain. */
  routerAddress: Address;
  tokenAddress: Address;
  /** How long a swap or approval waits for its receipt before giving up (default 2 minutes). */
  confirmationTimeoutMs?: number;
};

export type QuoteRequest = {
  side: SwapSide;
  /** The amount in, in the input's smallest unit (already parsed from the form); greater than zero. */
  amountIn: bigint;
};

export type ApproveRequest = {
  owner: Address;
  /** The allowance to set; `unlimited` sets 2^256 - 1 instead. */
  amount: bigint;
  unlimited: boolean;
};

export type SwapRequest = {
  side: SwapSide;
  /** The sender and the recipient of the output. */
  account: Address;
  amountIn: bigint;
  /** The least output accepted (the quote less the slippage tolerance); below it the router reverts. */
  minAmountOut: bigint;
  /** Unix seconds after which the router refuses the swap. */
  deadline: bigint;
};

export type MarketEventHandlers = {
  /** A new block: quotes are refreshed on it. */
  block(blockNumber: bigint): void;
  /** Trades and price points from the new block's logs (possibly empty lists). */
  activity(history: MarketHistory, pool: PoolState): void;
  /** The node stopped answering; the watch keeps trying and calls `block` again when it does. */
  lost(): void;
};

export class DexServiceError extends Error {
  override readonly name = 'DexServiceError';
  readonly problem: DexProblem;

  constructor(problem: DexProblem, options: { cause?: Error | undefined } = {}) {
    const { code, ...values } = problem;
    super(
      Object.keys(values).length === 0 ? code : `${code} ${JSON.stringify(values, bigintText)}`,
      options.cause ? { cause: options.cause } : undefined,
    );
    this.problem = problem;
  }
}

const bigintText = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? value.toString() : value;

export function isDexServiceError(error: unknown): error is DexServiceError {
  return error instanceof DexServiceError;
}

/**
 * The DDEX/WETH market. Reads go to the node. Approvals and swaps are built here as calls that the
 * wallet service sends (the wallet signs, never a pasted key), and their receipts are awaited here.
 * Every call rejects with a DexServiceError.
 */
export interface DexService {
  /** The router's factory and WETH, and the pair; cached after the first answer. */
  market(): Promise<Market>;
  /** The pool's reserves at the latest block. */
  pool(): Promise<PoolState>;
  /** The router's exact-input quote; 'insufficient-liquidity' when the pool cannot fill it. */
  quote(request: QuoteRequest): Promise<Quote>;
  holdings(account: Address): Promise<Holdings>;
  /** The ERC-20 approve call that lets the router spend `amount` (2^256 - 1 when unlimited). */
  approvalCall(request: ApproveRequest): Promise<DexCall>;
  /** Waits for an approval's receipt; resolves with the router's allowance after it. */
  confirmApproval(hash: Hex, owner: Address): Promise<bigint>;
  /**
   * The router call for a swap (swapExactETHForTokens for a buy, swapExactTokensForETH for a sell),
   * checked first against the account's balance ('insufficient-balance').
   */
  swapCall(request: SwapRequest): Promise<DexCall>;
  /**
   * Waits for a swap's receipt. Resolves with the amounts from the pair's Swap event; a revert
   * rejects with 'reverted' and the router's reason (e.g. 'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT').
   */
  confirmSwap(hash: Hex, side: SwapSide): Promise<SwapResult>;
  /** The last `limit` trades and the price points of the same blocks, read from the pair's logs. */
  history(limit: number): Promise<MarketHistory>;
  /** Follows new blocks and the pair's events; the returned function stops. */
  watch(handlers: MarketEventHandlers): () => void;
}
