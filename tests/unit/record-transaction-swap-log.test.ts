import { encodeAbiParameters, encodeEventTopics, erc20Abi, parseAbi, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  decodeSwap,
  findWalletSwaps,
  SWAP_TOPIC,
  swappingPools,
  tradesWithPool,
} from '../../supabase/functions/_shared/swap-log.ts';
import type { RawLog, Receipt } from '../../supabase/functions/_shared/transfer-log.ts';

// The hand-written Swap decoder and the matching of swaps to the wallet's DDEX, checked against logs
// viem encodes independently, laid out as Uniswap V2's router and pair emit them.

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const WETH = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const PAIR = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const OTHER_POOL = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
const ROUTER = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const STRANGER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const pairAbi = parseAbi([
  'event Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)',
]);

let nextIndex = 0;

function transferLog(token: string, from: string, to: string, value: bigint): RawLog {
  return {
    address: token,
    topics: encodeEventTopics({
      abi: erc20Abi,
      eventName: 'Transfer',
      args: { from: from as Hex, to: to as Hex },
    }) as string[],
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
    removed: false,
    logIndex: nextIndex++,
  };
}

/** amounts: [amount0In, amount1In, amount0Out, amount1Out]. */
function swapLog(pool: string, to: string, amounts: [bigint, bigint, bigint, bigint]): RawLog {
  return {
    address: pool,
    topics: encodeEventTopics({
      abi: pairAbi,
      eventName: 'Swap',
      args: { sender: ROUTER as Hex, to: to as Hex },
    }) as string[],
    data: encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }],
      amounts,
    ),
    removed: false,
    logIndex: nextIndex++,
  };
}

const receiptOf = (logs: RawLog[]): Receipt => ({ status: 'success', logs });

/** swapExactETHForTokens: WETH into the pair, DDEX out to the wallet, then the pair's Swap. */
function buy(pool: string, ddexOut: bigint, to = WALLET): RawLog[] {
  return [
    transferLog(WETH, ROUTER, pool, 10n ** 16n),
    transferLog(TOKEN, pool, to, ddexOut),
    swapLog(pool, to, [0n, 10n ** 16n, ddexOut, 0n]),
  ];
}

/** swapExactTokensForETH: DDEX from the wallet into the pair, WETH out to the router, the Swap. */
function sell(pool: string, ddexIn: bigint, from = WALLET): RawLog[] {
  return [
    transferLog(TOKEN, from, pool, ddexIn),
    transferLog(WETH, pool, ROUTER, 10n ** 15n),
    swapLog(pool, ROUTER, [ddexIn, 0n, 0n, 10n ** 15n]),
  ];
}

describe('decodeSwap', () => {
  it('reads a Uniswap V2 Swap as viem encodes it, addresses in lower case', () => {
    const log = swapLog(PAIR, WALLET, [1n, 2n, 3n, 2n ** 256n - 1n]);
    expect(log.topics[0]).toBe(SWAP_TOPIC);
    expect(decodeSwap(log)).toEqual({
      pair: PAIR.toLowerCase(),
      sender: ROUTER.toLowerCase(),
      to: WALLET.toLowerCase(),
      amount0In: 1n,
      amount1In: 2n,
      amount0Out: 3n,
      amount1Out: 2n ** 256n - 1n,
    });
  });

  it('is not fooled by a Transfer, a removed log, short data or an address topic with padding', () => {
    const good = swapLog(PAIR, WALLET, [1n, 0n, 0n, 1n]);
    expect(decodeSwap(transferLog(TOKEN, WALLET, PAIR, 1n))).toBeNull();
    expect(decodeSwap({ ...good, removed: true })).toBeNull();
    expect(decodeSwap({ ...good, data: good.data.slice(0, -64) })).toBeNull();
    expect(decodeSwap({ ...good, topics: good.topics.slice(0, 2) })).toBeNull();
    const padded = `0x${'1'.padStart(24, '0')}${WALLET.slice(2)}`;
    expect(decodeSwap({ ...good, topics: [SWAP_TOPIC, padded, good.topics[2] ?? ''] })).toBeNull();
    expect(decodeSwap({ ...good, address: 'not-an-address' })).toBeNull();
  });

  it('accepts the topic and data in upper case', () => {
    const log = swapLog(PAIR, WALLET, [0n, 5n, 7n, 0n]);
    const shouted = {
      ...log,
      topics: log.topics.map((topic) => `0x${topic.slice(2).toUpperCase()}`),
      data: `0x${log.data.slice(2).toUpperCase()}`,
    };
    expect(decodeSwap(shouted)).toMatchObject({ amount1In: 5n, amount0Out: 7n });
  });
});

describe('findWalletSwaps', () => {
  it('reads a buy as the DDEX the pair sent the wallet, keyed by the Swap log', () => {
    const logs = buy(PAIR, 1234n);
    expect(findWalletSwaps(receiptOf(logs), PAIR, TOKEN, WALLET)).toEqual([
      { logIndex: logs[2]?.logIndex, amount: 1234n },
    ]);
  });

  it('reads a sell as the DDEX the wallet sent the pair, negative', () => {
    const logs = sell(PAIR, 99n);
    expect(findWalletSwaps(receiptOf(logs), PAIR.toLowerCase(), TOKEN, WALLET.toLowerCase())).toEqual([
      { logIndex: logs[2]?.logIndex, amount: -99n },
    ]);
  });

  it('makes one entry per swap of the pair in one transaction', () => {
    const first = buy(PAIR, 10n);
    const second = sell(PAIR, 4n);
    expect(findWalletSwaps(receiptOf([...first, ...second]), PAIR, TOKEN, WALLET)).toEqual([
      { logIndex: first[2]?.logIndex, amount: 10n },
      { logIndex: second[2]?.logIndex, amount: -4n },
    ]);
  });

  it('ignores swaps of other pools, swaps whose DDEX went to someone else, and other tokens', () => {
    const logs = [
      ...buy(OTHER_POOL, 10n),
      ...buy(PAIR, 20n, STRANGER),
      transferLog(WETH, PAIR, WALLET, 5n),
      swapLog(PAIR, WALLET, [0n, 1n, 0n, 5n]),
    ];
    expect(findWalletSwaps(receiptOf(logs), PAIR, TOKEN, WALLET)).toEqual([]);
  });

  it('leaves out a transfer to the pair that no Swap follows', () => {
    expect(findWalletSwaps(receiptOf([transferLog(TOKEN, WALLET, PAIR, 3n)]), PAIR, TOKEN, WALLET)).toEqual(
      [],
    );
  });
});

describe('swappingPools and tradesWithPool', () => {
  it('names every pool that swapped, and whether the wallet’s DDEX went to or came from one', () => {
    const sold = receiptOf(sell(OTHER_POOL, 8n));
    const pools = swappingPools(sold);
    expect(pools).toEqual(new Set([OTHER_POOL.toLowerCase()]));
    expect(tradesWithPool(sold, TOKEN, WALLET, pools)).toBe(true);

    const bought = receiptOf(buy(PAIR, 8n));
    expect(tradesWithPool(bought, TOKEN, WALLET, swappingPools(bought))).toBe(true);
    expect(tradesWithPool(bought, TOKEN, STRANGER, swappingPools(bought))).toBe(false);

    const send = receiptOf([transferLog(TOKEN, WALLET, STRANGER, 8n)]);
    expect(swappingPools(send)).toEqual(new Set());
    expect(tradesWithPool(send, TOKEN, WALLET, swappingPools(send))).toBe(false);
  });
});
