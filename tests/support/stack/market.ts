import { erc20Abi, formatUnits, maxUint256, type Address, type Hex } from 'viem';
import { pairAbi } from '../../../src/services/dex/abi.ts';
import type { ChainAccount } from '../../../stack/chain/index.ts';
import { uniswapArtifact, type UniswapDeployment } from '../../../stack/chain/uniswap.ts';
import { mined, readerOf, walletOf, type ChainInfo } from './chain.ts';

// Trading DDEX against ETH on a Uniswap V2 market of the layer's chain, through its router, as a
// wallet or a script does: the stack's own DDEX/WETH market (`inject('chain').uniswap`,
// `e2e().chain.uniswap`) or one a test deployed (stack/chain/uniswap.ts's deployUniswap).

/** The market's contracts these helpers use: its router, WETH and the DDEX/WETH pair. */
export type Market = Pick<UniswapDeployment, 'router' | 'weth' | 'pair'>;

const ROUTER = uniswapArtifact('UniswapV2Router02');

/**
 * What a swap's deadline counts from: the latest block's timestamp, or this machine's clock; 20
 * minutes on either way.
 */
export type DeadlineFrom = 'block' | 'clock';

export async function swapDeadline(chain: { rpcUrl: string }, from: DeadlineFrom = 'block'): Promise<bigint> {
  if (from === 'clock') return BigInt(Math.floor(Date.now() / 1000) + 20 * 60);
  return (await readerOf(chain).getBlock()).timestamp + 1200n;
}

/** Lets `router` spend all of `who`'s DDEX, so that each sell is one transaction; the approval's hash. */
export async function approveRouter(chain: ChainInfo, who: ChainAccount, router: Address): Promise<Hex> {
  const hash = await walletOf(chain, who).writeContract({
    address: chain.tokenAddress,
    abi: erc20Abi,
    functionName: 'approve',
    args: [router, maxUint256],
    chain: null,
  });
  await mined(chain, hash);
  return hash;
}

export type SwapOptions = {
  /** Who gets what the swap pays out; `from` by default. */
  to?: Address;
  deadline?: DeadlineFrom;
};

/** Buys DDEX for `eth` wei from `from` (swapExactETHForTokens, any amount out); its hash once it succeeded. */
export async function buy(
  chain: ChainInfo,
  market: Market,
  from: ChainAccount,
  eth: bigint,
  { to = from.address, deadline = 'block' }: SwapOptions = {},
): Promise<Hex> {
  const wallet = walletOf(chain, from);
  const hash = await wallet.writeContract({
    address: market.router,
    abi: ROUTER.abi,
    functionName: 'swapExactETHForTokens',
    args: [0n, [market.weth, chain.tokenAddress], to, await swapDeadline(chain, deadline)],
    value: eth,
    chain: null,
  });
  await mined(chain, hash);
  return hash;
}

/**
 * Sells `ddex` (smallest unit) of `from`'s DDEX for ETH (swapExactTokensForETH, any amount out), with
 * the router approved already; its hash once it succeeded.
 */
export async function sell(
  chain: ChainInfo,
  market: Market,
  from: ChainAccount,
  ddex: bigint,
  { to = from.address, deadline = 'block' }: SwapOptions = {},
): Promise<Hex> {
  const wallet = walletOf(chain, from);
  const hash = await wallet.writeContract({
    address: market.router,
    abi: ROUTER.abi,
    functionName: 'swapExactTokensForETH',
    args: [ddex, 0n, [chain.tokenAddress, market.weth], to, await swapDeadline(chain, deadline)],
    chain: null,
  });
  await mined(chain, hash);
  return hash;
}

/** The pair's reserves, ETH and DDEX in their smallest units, at the end of a block (the latest by default). */
export async function reserves(
  chain: ChainInfo,
  market: Market,
  blockNumber?: bigint,
): Promise<{ eth: bigint; ddex: bigint }> {
  const [reserve0, reserve1] = await readerOf(chain).readContract({
    address: market.pair,
    abi: pairAbi,
    functionName: 'getReserves',
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
  const wethIs0 = market.weth.toLowerCase() < chain.tokenAddress.toLowerCase();
  return wethIs0 ? { eth: reserve0, ddex: reserve1 } : { eth: reserve1, ddex: reserve0 };
}

/** ETH per DDEX in the pair's reserves at the end of a block (the latest by default). */
export async function priceAt(chain: ChainInfo, market: Market, blockNumber?: bigint): Promise<number> {
  const { eth, ddex } = await reserves(chain, market, blockNumber);
  return Number(formatUnits(eth, 18)) / Number(formatUnits(ddex, 18));
}
