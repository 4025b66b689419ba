import { encodeAbiParameters, encodeEventTopics, erc20Abi, parseAbi, parseUnits, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { amountText, significant } from '../../supabase/functions/market-bots/price-text.ts';
import {
  PRICE_DECIMALS,
  swapPrices,
  transactionMove,
  type Side,
} from '../../supabase/functions/market-bots/swap-prices.ts';
import { decodeSync, SYNC_TOPIC } from '../../supabase/functions/_shared/swap-log.ts';
import type { RawLog, Receipt } from '../../supabase/functions/_shared/transfer-log.ts';

// How market-bots prices each swap of the DDEX/WETH pair from its receipt alone: the pair's Sync
// (reserves after) right before its Swap (amounts in and out), checked against logs viem encodes
// independently, laid out as Uniswap V2's router and pair emit them.

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const WETH = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const PAIR = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const OTHER_POOL = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
const ROUTER = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ZERO = `0x${'0'.repeat(40)}`;

const pairAbi = parseAbi([
  'event Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Mint(address indexed sender, uint amount0, uint amount1)',
]);

const eth = (text: string) => parseUnits(text, 18);
const words = (values: bigint[]) =>
  encodeAbiParameters(
    values.map(() => ({ type: 'uint256' })),
    values,
  );

/** Logs numbered in order from `first`, as a block numbers them. */
function numbered(logs: Omit<RawLog, 'logIndex'>[], first = 0): RawLog[] {
  return logs.map((log, index) => ({ ...log, logIndex: first + index }));
}
const receiptOf = (logs: Omit<RawLog, 'logIndex'>[], first = 0): Receipt => ({
  status: 'success',
  logs: numbered(logs, first),
});

function transfer(token: string, from: string, to: string, value: bigint): Omit<RawLog, 'logIndex'> {
  return {
    address: token,
    topics: encodeEventTopics({
      abi: erc20Abi,
      eventName: 'Transfer',
      args: { from: from as Hex, to: to as Hex },
    }) as string[],
    data: words([value]),
    removed: false,
  };
}

function sync(pool: string, reserve0: bigint, reserve1: bigint): Omit<RawLog, 'logIndex'> {
  return {
    address: pool,
    topics: encodeEventTopics({ abi: pairAbi, eventName: 'Sync' }) as string[],
    data: words([reserve0, reserve1]),
    removed: false,
  };
}

/** amounts: [amount0In, amount1In, amount0Out, amount1Out]. */
function swap(pool: string, to: string, amounts: [bigint, bigint, bigint, bigint]): Omit<RawLog, 'logIndex'> {
  return {
    address: pool,
    topics: encodeEventTopics({
      abi: pairAbi,
      eventName: 'Swap',
      args: { sender: ROUTER as Hex, to: to as Hex },
    }) as string[],
    data: words(amounts),
    removed: false,
  };
}

function mint(pool: string, amount0: bigint, amount1: bigint): Omit<RawLog, 'logIndex'> {
  return {
    address: pool,
    topics: encodeEventTopics({
      abi: pairAbi,
      eventName: 'Mint',
      args: { sender: ROUTER as Hex },
    }) as string[],
    data: words([amount0, amount1]),
    removed: false,
  };
}

/** swapExactETHForTokens on a pair whose token0 is WETH: WETH in, DDEX out, Sync, Swap. */
function buyWethFirst(reservesAfter: [bigint, bigint], wethIn: bigint, ddexOut: bigint) {
  return [
    transfer(WETH, ROUTER, PAIR, wethIn),
    transfer(TOKEN, PAIR, WALLET, ddexOut),
    sync(PAIR, ...reservesAfter),
    swap(PAIR, WALLET, [wethIn, 0n, 0n, ddexOut]),
  ];
}

/** swapExactTokensForETH on a pair whose token0 is DDEX: DDEX in, WETH out, Sync, Swap. */
function sellDdexFirst(reservesAfter: [bigint, bigint], ddexIn: bigint, wethOut: bigint) {
  return [
    transfer(TOKEN, WALLET, PAIR, ddexIn),
    transfer(WETH, PAIR, ROUTER, wethOut),
    sync(PAIR, ...reservesAfter),
    swap(PAIR, ROUTER, [ddexIn, 0n, 0n, wethOut]),
  ];
}

describe('decodeSync', () => {
  it('reads the reserves of a Sync, and nothing else', () => {
    const [log] = numbered([sync(PAIR, eth('10'), eth('100000'))]);
    if (!log) throw new Error('no log');
    expect(log.topics[0]).toBe(SYNC_TOPIC);
    expect(decodeSync(log)).toEqual({
      pair: PAIR.toLowerCase(),
      reserve0: eth('10'),
      reserve1: eth('100000'),
    });
    expect(decodeSync({ ...log, removed: true })).toBeNull();
    const [other] = numbered([swap(PAIR, WALLET, [1n, 0n, 0n, 1n])]);
    if (!other) throw new Error('no log');
    expect(decodeSync(other)).toBeNull();
  });
});

describe('swapPrices: each Swap of the pair, priced from its own Sync', () => {
  it('prices a buy on a pair whose token0 is WETH: the DDEX out, and the price up', () => {
    // 10 ETH / 100,000 DDEX before; 0.1 ETH in, 1,000 DDEX out.
    const receipt = receiptOf(buyWethFirst([eth('10.1'), eth('99000')], eth('0.1'), eth('1000')), 7);
    expect(swapPrices(receipt, PAIR, true)).toEqual([
      {
        logIndex: 10,
        priceBefore: '0.0001',
        // 10.1 / 99,000, cut off after PRICE_DECIMALS places.
        priceAfter: `0.0001${'02'.repeat((PRICE_DECIMALS - 4) / 2)}`,
        ddexAmount: '1000',
        side: 'buy',
      },
    ]);
  });

  it('prices a sell on a pair whose token0 is DDEX: the DDEX in, and the price down', () => {
    // 100,000 DDEX / 10 ETH before; 25,000 DDEX in, 2 ETH out.
    const receipt = receiptOf(sellDdexFirst([eth('125000'), eth('8')], eth('25000'), eth('2')));
    expect(swapPrices(receipt, PAIR, false)).toEqual([
      { logIndex: 3, priceBefore: '0.0001', priceAfter: '0.000064', ddexAmount: '25000', side: 'sell' },
    ]);
  });

  it('reads the sides the other way round when told WETH is the other token', () => {
    // The buy's logs read with WETH as token1: 10.1 "DDEX" in, 99,000 "WETH" reserve.
    const receipt = receiptOf(buyWethFirst([eth('10.1'), eth('99000')], eth('0.1'), eth('1000')));
    const [read] = swapPrices(receipt, PAIR, false);
    expect(read).toMatchObject({ side: 'sell', ddexAmount: '0.1' });
    expect(read?.priceBefore).toBe('10000');
  });

  it('prices every Swap of the pair in one transaction under its own log, and no other pool’s', () => {
    const logs = [
      ...buyWethFirst([eth('10.1'), eth('99000')], eth('0.1'), eth('1000')),
      // A hop through another pool in the same transaction.
      sync(OTHER_POOL, eth('1'), eth('2')),
      swap(OTHER_POOL, WALLET, [eth('1'), 0n, 0n, eth('1')]),
      // The same pair again: 9,000 DDEX in and 2.1 ETH out, leaving 8 ETH / 108,000 DDEX.
      transfer(TOKEN, WALLET, PAIR, eth('9000')),
      transfer(WETH, PAIR, ROUTER, eth('2.1')),
      sync(PAIR, eth('8'), eth('108000')),
      swap(PAIR, ROUTER, [0n, eth('9000'), eth('2.1'), 0n]),
    ];
    const prices = swapPrices(receiptOf(logs, 20), PAIR, true);
    expect(prices.map(({ logIndex, side, ddexAmount }) => ({ logIndex, side, ddexAmount }))).toEqual([
      { logIndex: 23, side: 'buy', ddexAmount: '1000' },
      { logIndex: 29, side: 'sell', ddexAmount: '9000' },
    ]);
    // The second swap starts where the first ended.
    expect(prices[1]?.priceBefore).toBe(prices[0]?.priceAfter);
    expect(Number(prices[1]?.priceAfter)).toBeCloseTo(8 / 108000, 15);
  });

  it('finds no swap in liquidity added: a Sync, but no Swap', () => {
    const receipt = receiptOf([
      transfer(TOKEN, WALLET, PAIR, eth('1000')),
      transfer(WETH, ROUTER, PAIR, eth('0.1')),
      transfer(PAIR, ZERO, WALLET, eth('10')),
      sync(PAIR, eth('10.1'), eth('101000')),
      mint(PAIR, eth('0.1'), eth('1000')),
    ]);
    expect(swapPrices(receipt, PAIR, true)).toEqual([]);
  });

  it('prices no Swap without the pair’s Sync right before it, removed, or without a log index', () => {
    const buy = buyWethFirst([eth('10.1'), eth('99000')], eth('0.1'), eth('1000'));
    const [, , syncLog, swapLog] = buy;
    if (!syncLog || !swapLog) throw new Error('no logs');
    expect(swapPrices(receiptOf([swapLog]), PAIR, true)).toEqual([]);
    expect(swapPrices(receiptOf([syncLog, transfer(TOKEN, PAIR, WALLET, 1n), swapLog]), PAIR, true)).toEqual(
      [],
    );
    expect(swapPrices(receiptOf([sync(OTHER_POOL, 1n, 1n), swapLog]), PAIR, true)).toEqual([]);
    expect(swapPrices(receiptOf([syncLog, { ...swapLog, removed: true }]), PAIR, true)).toEqual([]);
    const unnumbered: Receipt = { status: 'success', logs: [syncLog, swapLog].map((log) => ({ ...log })) };
    expect(swapPrices(unnumbered, PAIR, true)).toEqual([]);
    expect(swapPrices(receiptOf([syncLog, swapLog]), OTHER_POOL, true)).toEqual([]);
  });

  it('matches the pair whatever the letter case', () => {
    const receipt = receiptOf(buyWethFirst([eth('10.1'), eth('99000')], eth('0.1'), eth('1000')));
    expect(swapPrices(receipt, PAIR.toUpperCase().replace('0X', '0x'), true)).toHaveLength(1);
  });
});

describe('transactionMove: a transaction’s swaps as the price rules see them', () => {
  const swapOf = (
    logIndex: number,
    priceBefore: string,
    priceAfter: string,
    ddexAmount: string,
    side: Side,
  ) => ({
    logIndex,
    priceBefore,
    priceAfter,
    ddexAmount,
    side,
  });

  it('prices it from before its first swap to after its last, under the last Swap, with the net DDEX', () => {
    const sell = swapOf(4, '0.0001', '0.000098', '1000.5', 'sell');
    const buyBack = swapOf(6, '0.000098', '0.000099', '400.25', 'buy');
    expect(transactionMove([sell, buyBack])).toEqual(swapOf(6, '0.0001', '0.000099', '600.25', 'sell'));
    expect(transactionMove([buyBack, swapOf(9, '0.000099', '0.0001', '700', 'buy')])).toEqual(
      swapOf(9, '0.000098', '0.0001', '1100.25', 'buy'),
    );
    // One swap is its own move.
    expect(transactionMove([sell])).toEqual(sell);
  });

  it('takes the side the price went when no DDEX moved in all, and refuses no swap', () => {
    const out = swapOf(1, '0.0001', '0.000098', '5', 'sell');
    expect(transactionMove([out, swapOf(3, '0.000098', '0.000100000001', '5', 'buy')]).side).toBe('buy');
    expect(transactionMove([out, swapOf(3, '0.000098', '0.0000999', '5', 'buy')])).toEqual(
      swapOf(3, '0.0001', '0.0000999', '0', 'sell'),
    );
    expect(() => transactionMove([])).toThrow(/needs a swap/);
  });
});

describe('price-text: what titles and messages show', () => {
  it.each([
    ['0.0001', '0.0001'],
    [`0.0001${'02'.repeat(18)}`, '0.00010202'],
    ['0.000201234567', '0.000201235'],
    ['0.0000999999449', '0.0000999999'],
    ['0.00009999995', '0.0001'],
    ['12345.678', '12345.7'],
    ['0', '0'],
  ])('gives %s six significant digits: %s', (value, shown) => {
    expect(significant(value)).toBe(shown);
  });

  it.each([
    ['1000', '1,000'],
    ['12345.678', '12,345.7'],
    ['1234567.89', '1,234,570'],
    ['0.5', '0.5'],
  ])('groups the thousands of the DDEX amount %s: %s', (value, shown) => {
    expect(amountText(value)).toBe(shown);
  });

  it('refuses what is no plain decimal', () => {
    expect(() => significant('1e-7')).toThrow(/plain decimal/);
  });
});
