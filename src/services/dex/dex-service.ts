import {
  createClient,
  encodeFunctionData,
  getAddress,
  http,
  isAddress,
  maxUint256,
  parseEventLogs,
  type Address,
  type Chain,
} from 'viem';
import { getBalance, getBlockNumber, getChainId, readContract } from 'viem/actions';
import { erc20Abi, pairAbi, routerAbi } from './abi.ts';
import { toDexError } from './dex-errors.ts';
import { firstBlockWithCode, LOOKBACK_BLOCKS, recentHistory, tradeOf } from './dex-history.ts';
import { once, poolAt, priceImpactBps, readMarket, type KnownMarket } from './dex-market.ts';
import { settle } from './dex-receipts.ts';
import { watchMarket } from './dex-watch.ts';
import {
  DexServiceError,
  type DexCall,
  type DexService,
  type DexServiceConfig,
  type SwapSide,
} from './types.ts';

// The DDEX/WETH market on Uniswap V2, read from the node over HTTP. Swaps and approvals are built
// here as calls for the wallet to send, and their receipts awaited here.

const REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_CONFIRMATION_TIMEOUT_MS = 120_000;
const POLLING_INTERVAL_MS = 1_000;

export function createDexService(config: DexServiceConfig): DexService {
  if (!isAddress(config.routerAddress, { strict: false })) {
    throw new TypeError('createDexService: routerAddress is not an address');
  }
  if (!isAddress(config.tokenAddress, { strict: false })) {
    throw new TypeError('createDexService: tokenAddress is not an address');
  }
  const router = getAddress(config.routerAddress);
  const token = getAddress(config.tokenAddress);
  const confirmationTimeoutMs = config.confirmationTimeoutMs ?? DEFAULT_CONFIRMATION_TIMEOUT_MS;
  const chain: Chain = {
    id: config.chainId,
    // Only viem's own messages use it, and those never reach the user.
    name: `chain ${config.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  };
  // A bare client with actions imported one by one keeps the bundle to what is used; calls made
  // together (a quote's reserves and amounts, a history's block times) go in one HTTP batch.
  const reads = createClient({
    chain,
    transport: http(config.rpcUrl, { timeout: REQUEST_TIMEOUT_MS, retryCount: 2, batch: true }),
    pollingInterval: POLLING_INTERVAL_MS,
  });

  // The chain id and the market cannot change under a fixed RPC URL and router: read once (and
  // again after a failure).
  let chainChecked: Promise<void> | undefined;
  const checkChainOnce = () => (chainChecked ??= once(assertChain, () => (chainChecked = undefined)));
  async function assertChain(): Promise<void> {
    const actual = await getChainId(reads);
    if (actual !== config.chainId) {
      throw new DexServiceError({ code: 'wrong-chain', expected: config.chainId, actual });
    }
  }

  let marketRead: Promise<KnownMarket> | undefined;
  const market = () =>
    (marketRead ??= once(
      async () => {
        await checkChainOnce();
        return readMarket(reads, router, token);
      },
      () => (marketRead = undefined),
    ));
  const poolOf = (known: KnownMarket, blockNumber: bigint) => poolAt(reads, known, blockNumber);
  const timing = { timeoutMs: confirmationTimeoutMs, pollingIntervalMs: POLLING_INTERVAL_MS };

  const latestBlock = () => getBlockNumber(reads, { cacheTime: 0 });
  const pathOf = (known: KnownMarket, side: SwapSide) =>
    side === 'buy' ? [known.weth, known.token] : [known.token, known.weth];
  const refuse = (why: string) => new DexServiceError({ code: 'unknown' }, { cause: new Error(why) });

  /** Runs `work`, every failure as a DexServiceError. */
  const guarded =
    <A extends unknown[], R>(work: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await work(...args);
      } catch (error) {
        throw toDexError(error);
      }
    };

  const allowanceOf = (known: KnownMarket, owner: Address, blockNumber?: bigint) =>
    readContract(reads, {
      address: known.token,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [owner, known.router],
      ...(blockNumber === undefined ? {} : { blockNumber }),
    });
  const tokenBalance = (known: KnownMarket, owner: Address) =>
    readContract(reads, { address: known.token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

  // Found once: the history reads no logs from before the pair existed.
  let pairBorn: Promise<bigint> | undefined;
  const pairSince = (known: KnownMarket, latest: bigint) => {
    const windowStart = latest > LOOKBACK_BLOCKS ? latest - LOOKBACK_BLOCKS : 0n;
    // A node that keeps no old state cannot tell; the window's start then bounds the search.
    pairBorn ??= firstBlockWithCode(reads, known.pair, windowStart, latest).catch(() => windowStart);
    return pairBorn.then((born) => (born > windowStart ? born : windowStart));
  };

  return {
    market: guarded(async () => {
      const { ethIs0: _, ...known } = await market();
      return known;
    }),

    pool: guarded(async () => poolOf(await market(), await latestBlock())),

    quote: guarded(async ({ side, amountIn }) => {
      if (amountIn <= 0n) throw refuse('a quote needs an amount greater than zero');
      const known = await market();
      const blockNumber = await latestBlock();
      const [pool, amounts] = await Promise.all([
        poolOf(known, blockNumber),
        readContract(reads, {
          address: known.router,
          abi: routerAbi,
          functionName: 'getAmountsOut',
          args: [amountIn, pathOf(known, side)],
          blockNumber,
        }),
      ]);
      const [reserveIn, reserveOut] =
        side === 'buy' ? [pool.reserveEth, pool.reserveToken] : [pool.reserveToken, pool.reserveEth];
      const amountOut = amounts[1] ?? 0n;
      // Too little in for anything out: the pair would refuse the swap.
      if (reserveIn === 0n || reserveOut === 0n || amountOut === 0n) {
        throw new DexServiceError({ code: 'insufficient-liquidity' });
      }
      return {
        side,
        amountIn,
        amountOut,
        priceImpactBps: priceImpactBps(amountIn, amountOut, reserveIn, reserveOut),
        pool,
      };
    }),

    holdings: guarded(async (account) => {
      const known = await market();
      const [eth, held, allowance] = await Promise.all([
        getBalance(reads, { address: account }),
        tokenBalance(known, account),
        allowanceOf(known, account),
      ]);
      return { eth, token: held, allowance };
    }),

    approvalCall: guarded(async ({ owner, amount, unlimited }): Promise<DexCall> => {
      const known = await market();
      const data = encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [known.router, unlimited ? maxUint256 : amount],
      });
      return { from: getAddress(owner), to: known.token, data, value: 0n };
    }),

    confirmApproval: guarded(async (hash, owner) => {
      const known = await market();
      const receipt = await settle(reads, hash, timing);
      return allowanceOf(known, owner, receipt.blockNumber);
    }),

    swapCall: guarded(async ({ side, account, amountIn, minAmountOut, deadline }): Promise<DexCall> => {
      if (amountIn <= 0n) throw refuse('a swap needs an amount greater than zero');
      const known = await market();
      const from = getAddress(account);
      // The wallet adds the gas on top of a buy's value, and says so itself when that is short.
      const held =
        side === 'buy' ? await getBalance(reads, { address: from }) : await tokenBalance(known, from);
      if (held < amountIn) {
        throw new DexServiceError({ code: 'insufficient-balance', asset: side === 'buy' ? 'ETH' : 'DDEX' });
      }
      const path = pathOf(known, side);
      const data =
        side === 'buy'
          ? encodeFunctionData({
              abi: routerAbi,
              functionName: 'swapExactETHForTokens',
              args: [minAmountOut, path, from, deadline],
            })
          : encodeFunctionData({
              abi: routerAbi,
              functionName: 'swapExactTokensForETH',
              args: [amountIn, minAmountOut, path, from, deadline],
            });
      return { from, to: known.router, data, value: side === 'buy' ? amountIn : 0n };
    }),

    confirmSwap: guarded(async (hash, side) => {
      const known = await market();
      const receipt = await settle(reads, hash, timing);
      const swaps = parseEventLogs({ abi: pairAbi, eventName: 'Swap', logs: receipt.logs }).filter(
        (log) => getAddress(log.address) === known.pair,
      );
      const swap = swaps[0];
      if (!swap) throw refuse(`${hash} made no swap in the DDEX/WETH pair`);
      const trade = tradeOf(swap, known, 0);
      if (trade.side !== side) throw refuse(`${hash} was a ${trade.side}, not a ${side}`);
      return {
        hash,
        side,
        amountIn: trade.amountIn,
        amountOut: trade.amountOut,
        blockNumber: receipt.blockNumber,
      };
    }),

    history: guarded(async (limit) => {
      const known = await market();
      const latest = await latestBlock();
      const since = await pairSince(known, latest);
      return recentHistory(reads, known.pair, known, { since, latest, limit });
    }),

    watch: (handlers) =>
      watchMarket(
        { client: reads, pollingIntervalMs: POLLING_INTERVAL_MS, market, poolAt: poolOf },
        handlers,
      ),
  };
}
