import {
  createPublicClient,
  createWalletClient,
  erc20Abi as viemErc20Abi,
  formatUnits,
  http,
  maxUint256,
  parseEther,
  parseEventLogs,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { erc20Abi, pairAbi, routerAbi } from '../../src/services/dex/abi.ts';
import { isAddress } from '../../stack/address.ts';
import { priceOf, PRICE_SCALE, type SwapFact } from './bots-oracle.ts';
import { legOf } from './market-tap.ts';
import type { StackDescription } from './stack.ts';

// The chain side of the bots load phase: the stack's DDEX/WETH market, traded by a few of the
// chain's funded test accounts through the Uniswap V2 router as a wallet would, and each swap
// read back from its receipt twice over: its prices (Sync and Swap, for the oracle) and the pair's
// token transfers as the Tatum emulator turns them into address events (for the bench's own
// repeated deliveries).

/** What bench/load/stack-process.ts tells about the market, besides the StackDescription. */
export type MarketDescription = {
  rpcUrl: string;
  router: Address;
  weth: Address;
  pair: Address;
  /** Funded accounts of the local chain (Hardhat's public test keys, never real funds). */
  traders: { address: Address; privateKey: Hex }[];
  /** The stack process's record of the emulator's deliveries to market-bots (market-tap.ts). */
  tapUrl: string;
};

/** The market part of a stack's description; throws when the stack did not describe one. */
export function marketOf(description: StackDescription): MarketDescription {
  const market = (description as StackDescription & { market?: Partial<MarketDescription> }).market;
  const ok =
    market !== undefined &&
    typeof market.rpcUrl === 'string' &&
    typeof market.tapUrl === 'string' &&
    [market.router, market.weth, market.pair].every(isAddress) &&
    Array.isArray(market.traders) &&
    market.traders.length > 0;
  if (!ok) throw new Error('the load stack described no market (bench/load/stack-process.ts)');
  return market as MarketDescription;
}

/**
 * The (up to two) address events a swap owes the pair's subscription, as the emulator builds them;
 * `leg` names each as the market tap does (legOf).
 */
export type Leg = { leg: string; body: string };

export type MinedSwap = {
  hash: Hex;
  receipt: TransactionReceipt;
  facts: SwapFact[];
  legs: Leg[];
  minedAt: number;
};

/** Tatum's name of the local chain's network, which the emulator's deliveries carry. */
const DELIVERED_CHAIN = 'ethereum-sepolia';
const DEADLINE_SECONDS = 1200n;

export function connectMarket(market: MarketDescription, tokenAddress: string) {
  const token = tokenAddress.toLowerCase() as Address;
  const pair = market.pair.toLowerCase();
  const wethIs0 = market.weth.toLowerCase() < token;
  const transport = http(market.rpcUrl, { retryCount: 0, timeout: 30_000 });
  const client = createPublicClient({ transport, pollingInterval: 20 });
  const wallets = market.traders.map((trader) =>
    createWalletClient({ account: privateKeyToAccount(trader.privateKey), transport }),
  );

  const mined = async (hash: Hex) => {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`${hash} reverted`);
    return receipt;
  };

  /** ETH per DDEX now, at PRICE_SCALE. */
  const price = async (): Promise<bigint> => {
    const [reserve0, reserve1] = await client.readContract({
      address: market.pair,
      abi: pairAbi,
      functionName: 'getReserves',
    });
    return wethIs0 ? priceOf(reserve0, reserve1) : priceOf(reserve1, reserve0);
  };

  /** Every Swap of the pair in the receipt, priced from the Sync before it. */
  const factsOf = async (receipt: TransactionReceipt): Promise<SwapFact[]> => {
    const logs = parseEventLogs({ abi: pairAbi, logs: receipt.logs }).filter(
      (log) => log.address.toLowerCase() === pair,
    );
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    const facts: SwapFact[] = [];
    logs.forEach((log, index) => {
      const sync = logs[index - 1];
      if (log.eventName !== 'Swap' || sync?.eventName !== 'Sync') return;
      const [wethAfter, ddexAfter] = wethIs0
        ? [sync.args.reserve0, sync.args.reserve1]
        : [sync.args.reserve1, sync.args.reserve0];
      const { amount0In, amount1In, amount0Out, amount1Out } = log.args;
      const [wethIn, wethOut, ddexIn, ddexOut] = wethIs0
        ? [amount0In, amount0Out, amount1In, amount1Out]
        : [amount1In, amount1Out, amount0In, amount0Out];
      const bought = ddexOut > ddexIn;
      facts.push({
        txHash: receipt.transactionHash.toLowerCase(),
        logIndex: log.logIndex,
        blockNumber: Number(receipt.blockNumber),
        blockTime: Number(block.timestamp),
        before: priceOf(wethAfter - wethIn + wethOut, ddexAfter - ddexIn + ddexOut),
        after: priceOf(wethAfter, ddexAfter),
        ddex: bought ? ddexOut - ddexIn : ddexIn - ddexOut,
        side: bought ? 'buy' : 'sell',
      });
    });
    return facts;
  };

  /** The pair's token transfers in the receipt, each as the address event the pair is owed. */
  const legsOf = (receipt: TransactionReceipt): Leg[] =>
    parseEventLogs({ abi: viemErc20Abi, eventName: 'Transfer', logs: receipt.logs })
      .filter((log) => log.args.from.toLowerCase() === pair || log.args.to.toLowerCase() === pair)
      .filter((log) => log.args.value > 0n)
      .map((log) => {
        const incoming = log.args.to.toLowerCase() === pair;
        const amount = formatUnits(log.args.value, 18);
        const body = JSON.stringify({
          address: pair,
          amount: incoming ? amount : `-${amount}`,
          asset: log.address.toLowerCase(),
          blockNumber: Number(receipt.blockNumber),
          counterAddress: (incoming ? log.args.from : log.args.to).toLowerCase(),
          txId: receipt.transactionHash,
          type: 'fungible',
          chain: DELIVERED_CHAIN,
          subscriptionType: 'ADDRESS_EVENT',
        });
        return { leg: legOf(body) ?? '', body };
      });

  const deadline = async () => (await client.getBlock()).timestamp + DEADLINE_SECONDS;

  return {
    traders: wallets.length,
    price,

    /** Lets the router take each trader's DDEX; no transfer touches the pair, so nothing is delivered. */
    async approveAll(): Promise<void> {
      await Promise.all(
        wallets.map(async (wallet) =>
          mined(
            await wallet.writeContract({
              address: token,
              abi: erc20Abi,
              functionName: 'approve',
              args: [market.router, maxUint256],
              chain: null,
            }),
          ),
        ),
      );
    },

    /** One swap by trader `who`: `eth` ETH of DDEX bought, or sold at `priceNow` (PRICE_SCALE). */
    async swap(who: number, side: 'buy' | 'sell', eth: number, priceNow: bigint): Promise<MinedSwap> {
      const wallet = wallets[who];
      if (!wallet) throw new Error(`no trader ${who}`);
      const wei = parseEther(String(eth));
      const hash =
        side === 'buy'
          ? await wallet.writeContract({
              address: market.router,
              abi: routerAbi,
              functionName: 'swapExactETHForTokens',
              args: [0n, [market.weth, token], wallet.account.address, await deadline()],
              value: wei,
              chain: null,
            })
          : await wallet.writeContract({
              address: market.router,
              abi: routerAbi,
              functionName: 'swapExactTokensForETH',
              args: [
                (wei * 10n ** BigInt(PRICE_SCALE)) / priceNow,
                0n,
                [token, market.weth],
                wallet.account.address,
                await deadline(),
              ],
              chain: null,
            });
      const receipt = await mined(hash);
      const minedAt = Date.now();
      return { hash, receipt, facts: await factsOf(receipt), legs: legsOf(receipt), minedAt };
    },
  };
}

export type Market = ReturnType<typeof connectMarket>;
