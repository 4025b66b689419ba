import { getAddress, zeroAddress, type Address, type Client } from 'viem';
import { getCode, readContract } from 'viem/actions';
import { factoryAbi, pairAbi, routerAbi, UNISWAP_V2_FEE_BPS } from './abi.ts';
import { toDexError } from './dex-errors.ts';
import { pairSides, type PairSides } from './dex-history.ts';
import { DexServiceError, type Market, type PoolState } from './types.ts';

// The market's contracts, read from the router and its factory, and the pool's reserves.

export type KnownMarket = Market & PairSides;

/** The router's factory and WETH and their DDEX pair; 'no-router' or 'no-pair' when they are not there. */
export async function readMarket(client: Client, router: Address, token: Address): Promise<KnownMarket> {
  if (!(await getCode(client, { address: router }))) throw new DexServiceError({ code: 'no-router' });
  // Code that does not answer factory() and WETH(), or names no factory, is not a router.
  const notRouter = (error: unknown): never => {
    const failure = toDexError(error);
    if (failure.problem.code === 'rpc-unavailable') throw failure;
    throw new DexServiceError({ code: 'no-router' }, { cause: failure.cause as Error | undefined });
  };
  const [factory, weth] = await Promise.all([
    readContract(client, { address: router, abi: routerAbi, functionName: 'factory' }),
    readContract(client, { address: router, abi: routerAbi, functionName: 'WETH' }),
  ]).catch(notRouter);
  const pair = await readContract(client, {
    address: factory,
    abi: factoryAbi,
    functionName: 'getPair',
    args: [token, weth],
  }).catch(notRouter);
  if (pair === zeroAddress) throw new DexServiceError({ code: 'no-pair' });
  const known = {
    router,
    factory: getAddress(factory),
    weth: getAddress(weth),
    pair: getAddress(pair),
    token,
  };
  return { ...known, feeBps: UNISWAP_V2_FEE_BPS, ...pairSides(known.weth, token) };
}

export async function poolAt(client: Client, known: KnownMarket, blockNumber: bigint): Promise<PoolState> {
  const [reserve0, reserve1] = await readContract(client, {
    address: known.pair,
    abi: pairAbi,
    functionName: 'getReserves',
    blockNumber,
  });
  return known.ethIs0
    ? { reserveEth: reserve0, reserveToken: reserve1, blockNumber }
    : { reserveEth: reserve1, reserveToken: reserve0, blockNumber };
}

/** The loss of `amountOut` against `amountIn` at the mid price reserveOut / reserveIn, fee included. */
export function priceImpactBps(
  amountIn: bigint,
  amountOut: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
): number {
  const ideal = amountIn * reserveOut;
  if (ideal === 0n) return 0;
  const loss = ideal - amountOut * reserveIn;
  if (loss <= 0n) return 0;
  // Rounded to the nearest basis point.
  return Number((loss * 20_000n + ideal) / (2n * ideal));
}

/** Starts `work`, calling `forget` if it fails so that the next caller tries again. */
export function once<T>(work: () => Promise<T>, forget: () => void): Promise<T> {
  const running = work();
  running.catch(forget);
  return running;
}
