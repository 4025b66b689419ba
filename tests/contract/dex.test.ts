import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  encodePacked,
  erc20Abi,
  getAddress,
  getContractAddress,
  http,
  keccak256,
  maxUint256,
  parseEther,
  parseUnits,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  getBalance,
  getBlock,
  getCode,
  getTransactionCount,
  readContract,
  sendRawTransaction,
  sendTransaction,
} from 'viem/actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDexService,
  DexServiceError,
  type DexCall,
  type DexService,
  type MarketHistory,
} from '../../src/services/dex/index.ts';
import { factoryAbi, pairAbi, routerAbi } from '../../src/services/dex/abi.ts';
import { startChain, type Chain, type ChainAccount } from '../../stack/chain/index.ts';
import { SEED_DDEX, SEED_ETH, uniswapArtifact } from '../../stack/chain/uniswap.ts';

// The DEX service against the Uniswap V2 market the stack deploys. This file starts a chain of its
// own (as chain.test.ts does), because it restarts it: the market must survive that with its
// history. On it, the deployer (#0) holds the seed liquidity and sends nothing here; each role
// below has its own account, so no test's balance or nonce depends on another's sends.
const ROLES = { trader: 1, seller: 2, mover: 3 } as const;
/** The init code hash compiled into UniswapV2Router02 (UniswapV2Library.pairFor). */
const INIT_CODE_HASH = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f';

let dataDir: string;
let chain: Chain;
let dex: DexService;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ddex-dex-'));
  chain = await startChain({ port: 0, dataDir });
  dex = serviceFor(chain);
});

afterAll(async () => {
  await chain.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const serviceFor = (
  on: Chain,
  overrides: { chainId?: number; tokenAddress?: Address; routerAddress?: Address } = {},
) =>
  createDexService({
    rpcUrl: on.rpcUrl,
    chainId: overrides.chainId ?? on.chainId,
    routerAddress: overrides.routerAddress ?? on.uniswap.router,
    tokenAddress: overrides.tokenAddress ?? on.tokenAddress,
  });
const node = () => createPublicClient({ transport: http(chain.rpcUrl) });
const account = (role: keyof typeof ROLES): ChainAccount => {
  const found = chain.accounts[ROLES[role]];
  if (!found) throw new Error(`the chain has no account for ${role}`);
  return found;
};
const ddexOf = (holder: Address) =>
  readContract(node(), {
    address: chain.tokenAddress,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });
const reserves = () =>
  readContract(node(), { address: chain.uniswap.pair, abi: pairAbi, functionName: 'getReserves' });
const deadline = async () => (await getBlock(node())).timestamp + 1200n;

/** What the browser wallet does with a DexCall: signs it with the account's key and sends it. */
async function send(role: keyof typeof ROLES, call: DexCall): Promise<Hex> {
  const { privateKey } = account(role);
  const wallet = createWalletClient({
    account: privateKeyToAccount(privateKey),
    transport: http(chain.rpcUrl),
  });
  return sendTransaction(wallet, { to: call.to, data: call.data, value: call.value, chain: null });
}

/**
 * A call sent with its gas fixed, so that one bound to revert is mined rather than refused by an
 * estimate, as a wallet sends it when the price moves after it estimated. Hardhat answers a mined
 * revert with an error; the hash is the signed bytes' own.
 */
async function sendUnestimated(role: keyof typeof ROLES, call: DexCall): Promise<Hex> {
  const signer = privateKeyToAccount(account(role).privateKey);
  const serialized = await signer.signTransaction({
    chainId: chain.chainId,
    nonce: await getTransactionCount(node(), { address: signer.address }),
    to: call.to,
    data: call.data,
    value: call.value,
    gas: 300_000n,
    maxFeePerGas: parseUnits('10', 9),
    maxPriorityFeePerGas: parseUnits('1', 9),
  });
  await sendRawTransaction(node(), { serializedTransaction: serialized }).catch(() => undefined);
  return keccak256(serialized);
}

async function problemOf(promise: Promise<unknown>) {
  const outcome = await promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof DexServiceError)) throw outcome;
  return outcome.problem;
}

const made: Hex[] = [];

describe('the Uniswap V2 market of the local chain', () => {
  it('is deployed from the npm artifacts: the router names the factory and WETH, the pair holds the seed', async () => {
    const client = node();
    const read = (functionName: 'factory' | 'WETH') =>
      readContract(client, { address: chain.uniswap.router, abi: routerAbi, functionName });
    expect(await read('factory')).toBe(chain.uniswap.factory);
    expect(await read('WETH')).toBe(chain.uniswap.weth);
    expect(
      await readContract(client, {
        address: chain.uniswap.factory,
        abi: factoryAbi,
        functionName: 'getPair',
        args: [chain.tokenAddress, chain.uniswap.weth],
      }),
    ).toBe(chain.uniswap.pair);

    expect(await dex.market()).toEqual({
      ...chain.uniswap,
      token: getAddress(chain.tokenAddress),
      feeBps: 30,
    });
    const pool = await dex.pool();
    expect({ eth: pool.reserveEth, token: pool.reserveToken }).toEqual({ eth: SEED_ETH, token: SEED_DDEX });
    const [reserve0, reserve1] = await reserves();
    expect([reserve0, reserve1].sort()).toEqual([SEED_ETH, SEED_DDEX].sort());
  });

  it('finds the pair where the router looks: CREATE2 with the init code hash of v2-core’s pair', async () => {
    expect(keccak256(uniswapArtifact('UniswapV2Pair').bytecode)).toBe(INIT_CODE_HASH);
    const [token0, token1] = [chain.tokenAddress, chain.uniswap.weth].sort((a, b) =>
      a.toLowerCase() < b.toLowerCase() ? -1 : 1,
    ) as [Address, Address];
    const computed = getContractAddress({
      opcode: 'CREATE2',
      from: chain.uniswap.factory,
      salt: keccak256(encodePacked(['address', 'address'], [token0, token1])),
      bytecodeHash: INIT_CODE_HASH,
    });
    expect(computed).toBe(chain.uniswap.pair);
    expect(await getCode(node(), { address: chain.uniswap.router })).toContain(INIT_CODE_HASH.slice(2));
    // getAmountsOut reads the reserves at the address pairFor computes: these only match if it is the pair.
    const amountIn = parseEther('1');
    const [, amountOut] = await readContract(node(), {
      address: chain.uniswap.router,
      abi: routerAbi,
      functionName: 'getAmountsOut',
      args: [amountIn, [chain.uniswap.weth, chain.tokenAddress]],
    });
    const withFee = amountIn * 997n;
    expect(amountOut).toBe((withFee * SEED_DDEX) / (SEED_ETH * 1000n + withFee));
  });
});

describe('swapping through the DEX service', () => {
  it('buys DDEX for exactly the quote, and the amounts come from the pair’s Swap event', async () => {
    const trader = account('trader');
    const quote = await dex.quote({ side: 'buy', amountIn: parseEther('1') });
    // 1 ETH against 100: 0.3 % fee and about 1 % price impact.
    expect(quote.priceImpactBps).toBeGreaterThan(100);
    expect(quote.priceImpactBps).toBeLessThan(150);
    const before = await ddexOf(trader.address);
    const call = await dex.swapCall({
      side: 'buy',
      account: trader.address,
      amountIn: quote.amountIn,
      minAmountOut: quote.amountOut,
      deadline: await deadline(),
    });
    expect({ to: call.to, value: call.value }).toEqual({ to: chain.uniswap.router, value: parseEther('1') });
    const hash = await send('trader', call);
    made.push(hash);
    const result = await dex.confirmSwap(hash, 'buy');
    expect(result).toMatchObject({
      hash,
      side: 'buy',
      amountIn: parseEther('1'),
      amountOut: quote.amountOut,
    });
    expect(await ddexOf(trader.address)).toBe(before + quote.amountOut);
  });

  it('sells after an approval of the exact amount, and needs none while the allowance suffices', async () => {
    const seller = account('seller');
    const amountIn = parseUnits('2500', 18);
    expect((await dex.holdings(seller.address)).allowance).toBe(0n);
    const approval = await dex.approvalCall({ owner: seller.address, amount: amountIn, unlimited: false });
    expect({ to: approval.to.toLowerCase(), value: approval.value }).toEqual({
      to: chain.tokenAddress.toLowerCase(),
      value: 0n,
    });
    expect(await dex.confirmApproval(await send('seller', approval), seller.address)).toBe(amountIn);
    const holdings = await dex.holdings(seller.address);
    expect(holdings.allowance).toBeGreaterThanOrEqual(amountIn);

    const quote = await dex.quote({ side: 'sell', amountIn });
    const ethBefore = await getBalance(node(), { address: seller.address });
    const hash = await send(
      'seller',
      await dex.swapCall({
        side: 'sell',
        account: seller.address,
        amountIn,
        minAmountOut: quote.amountOut,
        deadline: await deadline(),
      }),
    );
    made.push(hash);
    const result = await dex.confirmSwap(hash, 'sell');
    expect(result).toMatchObject({ side: 'sell', amountIn, amountOut: quote.amountOut });
    const after = await dex.holdings(seller.address);
    expect(after.token).toBe(holdings.token - amountIn);
    // The ETH received, less the gas the swap paid.
    expect(after.eth).toBeGreaterThan(ethBefore);
    expect(after.eth).toBeLessThan(ethBefore + quote.amountOut);
    expect(after.allowance).toBe(0n);

    // Unlimited: the allowance stays at its maximum through a sale.
    const unlimited = await dex.approvalCall({ owner: seller.address, amount: amountIn, unlimited: true });
    expect(await dex.confirmApproval(await send('seller', unlimited), seller.address)).toBe(maxUint256);
    const second = await dex.quote({ side: 'sell', amountIn });
    const hash2 = await send(
      'seller',
      await dex.swapCall({
        side: 'sell',
        account: seller.address,
        amountIn,
        minAmountOut: 0n,
        deadline: await deadline(),
      }),
    );
    made.push(hash2);
    expect((await dex.confirmSwap(hash2, 'sell')).amountOut).toBe(second.amountOut);
    expect((await dex.holdings(seller.address)).allowance).toBe(maxUint256);
  });

  it('refuses a swap of more than the account holds, before the wallet is asked', async () => {
    const trader = account('trader');
    const { eth, token } = await dex.holdings(trader.address);
    const request = { account: trader.address, minAmountOut: 0n, deadline: await deadline() };
    expect(await problemOf(dex.swapCall({ ...request, side: 'buy', amountIn: eth + 1n }))).toEqual({
      code: 'insufficient-balance',
      asset: 'ETH',
    });
    expect(await problemOf(dex.swapCall({ ...request, side: 'sell', amountIn: token + 1n }))).toEqual({
      code: 'insufficient-balance',
      asset: 'DDEX',
    });
  });

  it('quotes nothing the pool cannot fill', async () => {
    expect(await problemOf(dex.quote({ side: 'sell', amountIn: 1n }))).toEqual({
      code: 'insufficient-liquidity',
    });
  });

  it('reports the router’s reason when the price moved between the quote and the swap', async () => {
    const trader = account('trader');
    const quote = await dex.quote({ side: 'buy', amountIn: parseEther('1') });
    const call = await dex.swapCall({
      side: 'buy',
      account: trader.address,
      amountIn: quote.amountIn,
      minAmountOut: quote.amountOut,
      deadline: await deadline(),
    });
    // Another trader buys first: the same ETH now buys less DDEX than the quote promised.
    const moved = await send(
      'mover',
      await dex.swapCall({
        side: 'buy',
        account: account('mover').address,
        amountIn: parseEther('5'),
        minAmountOut: 0n,
        deadline: await deadline(),
      }),
    );
    made.push(moved);
    await dex.confirmSwap(moved, 'buy');
    const before = await ddexOf(trader.address);
    const hash = await sendUnestimated('trader', call);
    const problem = await problemOf(dex.confirmSwap(hash, 'buy'));
    expect(problem).toEqual({
      code: 'reverted',
      hash,
      reason: expect.stringContaining('INSUFFICIENT_OUTPUT_AMOUNT'),
    });
    expect(await ddexOf(trader.address)).toBe(before);
  });

  it('gives up waiting for a receipt that does not come, naming the transaction', async () => {
    const quick = createDexService({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      routerAddress: chain.uniswap.router,
      tokenAddress: chain.tokenAddress,
      confirmationTimeoutMs: 1_500,
    });
    const hash = keccak256('0x01');
    expect(await problemOf(quick.confirmSwap(hash, 'buy'))).toEqual({ code: 'not-confirmed', hash });
  });
});

describe('the market’s history and watch', () => {
  let history: MarketHistory;

  it('lists the swaps made, oldest first, with the pool’s price after each', async () => {
    history = await dex.history(20);
    expect(history.trades.map((trade) => trade.hash)).toEqual(made);
    expect(history.trades.map((trade) => trade.side)).toEqual(['buy', 'sell', 'sell', 'buy']);
    for (const trade of history.trades) {
      const block = await getBlock(node(), { blockNumber: trade.blockNumber });
      expect(trade.timestamp).toBe(Number(block.timestamp));
      expect(trade.price).toBeGreaterThan(0.00015);
      expect(trade.price).toBeLessThan(0.00025);
    }
    // The seed's Sync and one per swap; the last is the pool as it is now.
    expect(history.prices).toHaveLength(made.length + 1);
    const pool = await dex.pool();
    expect(history.prices.at(-1)?.price).toBeCloseTo(Number(pool.reserveEth) / Number(pool.reserveToken), 12);
    // Only the last trades, and the prices from the first of them on.
    const last = await dex.history(2);
    expect(last.trades).toEqual(history.trades.slice(-2));
    expect(last.prices).toEqual(history.prices.slice(-2));
  });

  it('tells each new block, and the trade and pool in it', async () => {
    const blocks: bigint[] = [];
    const trades: string[] = [];
    const pools: bigint[] = [];
    const stop = dex.watch({
      block: (n) => blocks.push(n),
      activity: (activity, pool) => {
        trades.push(...activity.trades.map((trade) => trade.hash));
        pools.push(pool.reserveEth);
      },
      lost: () => blocks.push(-1n),
    });
    try {
      await expect.poll(() => blocks.length, { timeout: 10_000 }).toBeGreaterThan(0);
      const hash = await send(
        'mover',
        await dex.swapCall({
          side: 'buy',
          account: account('mover').address,
          amountIn: parseEther('0.5'),
          minAmountOut: 0n,
          deadline: await deadline(),
        }),
      );
      made.push(hash);
      await expect.poll(() => trades, { timeout: 10_000 }).toContain(hash);
      expect(pools.at(-1)).toBe((await dex.pool()).reserveEth);
      expect(blocks).not.toContain(-1n);
    } finally {
      stop();
    }
  });

  it('keeps the market, its trades and their times across a restart, and the watch tells the loss', async () => {
    const before = await dex.history(20);
    const told: string[] = [];
    const stop = dex.watch({
      block: (n) => told.push(`block ${n}`),
      activity: () => {},
      lost: () => told.push('lost'),
    });
    try {
      await expect.poll(() => told.length, { timeout: 10_000 }).toBeGreaterThan(0);
      const port = Number(new URL(chain.rpcUrl).port);
      const market = chain.uniswap;
      await chain.close();
      // viem tries a failed request twice more before the watch hears of it.
      await expect.poll(() => told, { timeout: 10_000 }).toContain('lost');
      chain = await startChain({ port, dataDir });
      expect(chain.uniswap).toEqual(market);
      expect(await dex.history(20)).toEqual(before);
      await expect.poll(() => told.at(-1), { timeout: 10_000 }).toMatch(/^block /);
    } finally {
      stop();
    }
  });

  it('adds the market to a chain whose deployment file names only the token', async () => {
    const file = join(dataDir, 'chain', 'deployment.json');
    const { tokenAddress } = JSON.parse(readFileSync(file, 'utf8')) as { tokenAddress: Address };
    writeFileSync(file, `${JSON.stringify({ tokenAddress })}\n`);
    const old = chain.uniswap;
    await chain.close();
    chain = await startChain({ port: 0, dataDir });
    expect(chain.tokenAddress).toBe(tokenAddress);
    expect(chain.uniswap.router).not.toBe(old.router);
    expect(await serviceFor(chain).pool()).toMatchObject({ reserveEth: SEED_ETH, reserveToken: SEED_DDEX });
  });
});

describe('a DEX service that is not pointed at the market', () => {
  it('refuses another chain, a router that is none, and a token without a pair', async () => {
    expect(await problemOf(serviceFor(chain, { chainId: 11155111 }).market())).toEqual({
      code: 'wrong-chain',
      expected: 11155111,
      actual: 31337,
    });
    expect(await problemOf(serviceFor(chain, { routerAddress: chain.tokenAddress }).market())).toEqual({
      code: 'no-router',
    });
    expect(
      await problemOf(
        serviceFor(chain, { routerAddress: account('trader').address }).quote({ side: 'buy', amountIn: 1n }),
      ),
    ).toEqual({
      code: 'no-router',
    });
    expect(await problemOf(serviceFor(chain, { tokenAddress: account('trader').address }).pool())).toEqual({
      code: 'no-pair',
    });
  });

  it('says the node is unavailable when nothing answers', async () => {
    const closed = { ...chain, rpcUrl: 'http://127.0.0.1:9' };
    expect(await problemOf(serviceFor(closed).market())).toEqual({ code: 'rpc-unavailable' });
  });
});
