import {
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  http,
  keccak256,
  parseEther,
  parseEventLogs,
  parseUnits,
  type Hex,
} from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployUniswap, uniswapArtifact } from '../../stack/chain/uniswap.ts';
import { startDenoFunction, type DenoFunction } from '../../stack/functions/deno.ts';
import { createRecordTransactionHandler } from '../../supabase/functions/record-transaction/handler.ts';
import { SWAP_TOPIC } from '../../supabase/functions/_shared/swap-log.ts';
import { testAccount } from '../support/stack/accounts.ts';
import { readerOf, sendDdex, walletOf } from '../support/stack/chain.ts';
import { approveRouter, buy, sell, swapDeadline, type Market } from '../support/stack/market.ts';
import { fileUsers, serviceClient, type TestUser } from '../support/stack/users.ts';
import { userWithWallet } from '../support/stack/wallets.ts';

// record-transaction and swaps on the DDEX/WETH Uniswap V2 market: a signed-in user's buy or sell
// becomes one `swap` row with the DDEX it moved, read from the chain. The canonical Uniswap V2
// contracts (their published npm artifacts) are deployed here, on the contract layer's chain, and
// the function runs from its real Deno entry point with UNISWAP_V2_ROUTER set, as deployed.

const stack = inject('gateway');
const chain = inject('chain');
const service = serviceClient(stack);

/** Deploys the market and provides its liquidity; also buys for someone else. */
const provider = testAccount('recordSwapProvider');
/** The signed-in user's wallet: buys and sells. */
const trader = testAccount('recordSwapTrader');

const publicClient = readerOf(chain);

const ROUTER = uniswapArtifact('UniswapV2Router02');

let market: Market;
let recordSwaps: DenoFunction;

/** This file's swaps count their deadline from this machine's clock. */
const byClock = { deadline: 'clock' } as const;

beforeAll(async () => {
  market = await deployUniswap(http(chain.rpcUrl), provider.address, chain.tokenAddress, {
    eth: parseEther('10'),
    ddex: parseUnits('100000', 18),
  });
  const { router } = market;
  // The trader lets the router spend its DDEX once, so a sell is one transaction.
  await approveRouter(chain, trader, router);
  recordSwaps = await startDenoFunction('record-transaction', {
    SUPABASE_URL: stack.url,
    SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
    RPC_URL: chain.rpcUrl,
    DDEX_TOKEN_ADDRESS: chain.tokenAddress,
    UNISWAP_V2_ROUTER: router,
  });
});

afterAll(async () => {
  await recordSwaps?.stop();
});

const users = fileUsers(stack, service);
afterEach(() => users.closeChannels());

const request = (who: TestUser, txHash: string) =>
  new Request(recordSwaps.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${who.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ txHash }),
  });

/** The Deno function set up with the market, called as the portal calls it (the user's JWT). */
const record = (who: TestUser, txHash: string) => fetch(request(who, txHash));

/** The same function without UNISWAP_V2_ROUTER, in this process. */
const withoutMarket = createRecordTransactionHandler({
  supabase: service,
  rpcUrl: chain.rpcUrl,
  tokenAddress: chain.tokenAddress,
});

/** What the receipt says: the DDEX transfers of the pair and the pair's Swap log. */
async function onChain(hash: Hex) {
  const receipt = await publicClient.getTransactionReceipt({ hash });
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).filter(
    (log) => log.address.toLowerCase() === chain.tokenAddress.toLowerCase(),
  );
  const swap = receipt.logs.find(
    (log) => log.topics[0] === SWAP_TOPIC && log.address.toLowerCase() === market.pair.toLowerCase(),
  );
  if (!swap) throw new Error('no Swap log of the pair');
  // The swap's other leg: WETH the pair took in (a buy) or paid out (a sell), as ETH.
  const weth = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).filter(
    (log) => log.address.toLowerCase() === market.weth.toLowerCase(),
  );
  const wethIn = weth.find((log) => log.args.to.toLowerCase() === market.pair.toLowerCase())?.args.value;
  const wethOut = weth.find((log) => log.args.from.toLowerCase() === market.pair.toLowerCase())?.args.value;
  const ethLeg = wethIn !== undefined ? `-${formatUnits(wethIn, 18)}` : formatUnits(wethOut ?? 0n, 18);
  return { transfers, swapLogIndex: swap.logIndex, ethLeg, blockNumber: Number(receipt.blockNumber) };
}

/**
 * The rows record-transaction writes (a swap or a send) for a transaction. The server also watches
 * every proven wallet and writes what the chain shows for it through the stack's own market, not
 * this file's: the fee, and a buy here as DDEX received from another pool.
 */
async function rowsWithHash(txHash: string) {
  const { data, error } = await service.from('transactions').select('*').ilike('tx_hash', txHash);
  expect(error).toBeNull();
  return (data ?? []).filter((row) => row.type === 'swap' || row.type === 'token_sent');
}

/** The swaps and sends `who` sees in their history for a transaction. */
async function historyOf(who: TestUser, txHash: string) {
  const { data, error } = await who.client.from('transactions').select('*');
  expect(error).toBeNull();
  return (data ?? []).filter(
    (row) => row.tx_hash === txHash.toLowerCase() && (row.type === 'swap' || row.type === 'token_sent'),
  );
}

async function expectRefusal(response: Response, status: number, message: RegExp) {
  expect(response.status).toBe(status);
  expect(await response.json()).toEqual({
    error: expect.any(String),
    message: expect.stringMatching(message),
  });
}

describe('record-transaction records the caller’s swaps on the DDEX/WETH market', () => {
  it('records a buy as one swap row with the DDEX received, once however often it is called', async () => {
    const alice = await userWithWallet(users, 'swap-buy', trader.address);
    const hash = await buy(chain, market, trader, parseEther('0.05'), byClock);
    const { transfers, swapLogIndex, ethLeg, blockNumber } = await onChain(hash);
    const received = transfers.find((log) => log.args.to.toLowerCase() === trader.address.toLowerCase());
    expect(received?.args.from.toLowerCase()).toBe(market.pair.toLowerCase());
    expect(ethLeg).toBe('-0.05');

    // One row holds both legs: the DDEX bought and the ETH paid for it.
    const row = {
      tx_hash: hash.toLowerCase(),
      log_index: swapLogIndex,
      type: 'swap',
      amount: formatUnits(received?.args.value ?? 0n, 18),
      token_symbol: 'DDEX',
      status: 'confirmed',
      block_number: blockNumber,
      counterparty: null,
      counter_amount: '-0.05',
      counter_symbol: 'ETH',
    };
    const first = await record(alice, hash);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ recorded: true, transactions: [row] });
    const history = await historyOf(alice, hash);
    expect(history).toEqual([expect.objectContaining({ ...row, user_id: alice.id })]);
    // The profile's 'Last DEX activity' (the Trading tab's context card) is that swap's time.
    const profile = await alice.client
      .from('profiles')
      .select('last_dex_activity')
      .eq('id', alice.id)
      .single();
    expect(profile.error).toBeNull();
    expect(Date.parse(profile.data?.last_dex_activity ?? '')).toBe(
      Date.parse((history[0] as { created_at: string }).created_at),
    );

    const again = await record(alice, hash);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ recorded: false, transactions: [row] });
    expect(await rowsWithHash(hash)).toHaveLength(1);
  });

  it('records a sell as one swap row with the DDEX paid, negative, and no token_sent row for it', async () => {
    const bob = await userWithWallet(users, 'swap-sell', trader.address);
    const hash = await sell(chain, market, trader, parseUnits('12.5', 18), byClock);
    const { transfers, swapLogIndex, ethLeg, blockNumber } = await onChain(hash);
    // The DDEX did go from the wallet to the pair: that transfer is the swap's, not a send.
    expect(transfers.map((log) => [log.args.from, log.args.to])).toEqual([[trader.address, market.pair]]);
    expect(Number(ethLeg)).toBeGreaterThan(0);

    const row = {
      tx_hash: hash.toLowerCase(),
      log_index: swapLogIndex,
      type: 'swap',
      amount: '-12.5',
      token_symbol: 'DDEX',
      status: 'confirmed',
      block_number: blockNumber,
      counterparty: null,
      counter_amount: ethLeg,
      counter_symbol: 'ETH',
    };
    const response = await record(bob, hash);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ recorded: true, transactions: [row] });
    expect(await historyOf(bob, hash)).toEqual([expect.objectContaining(row)]);

    expect(await (await record(bob, hash)).json()).toEqual({ recorded: false, transactions: [row] });
    expect((await rowsWithHash(hash)).map((saved) => saved.type)).toEqual(['swap']);
  });

  it('still records a plain DDEX send from the wallet as token_sent', async () => {
    const carol = await userWithWallet(users, 'swap-send', trader.address);
    const hash = await sendDdex(chain, trader, provider, parseUnits('2', 18));
    const response = await record(carol, hash);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      recorded: true,
      transactions: [{ type: 'token_sent', amount: '-2' }],
    });
  });
});

describe('record-transaction refuses swaps it must not record', () => {
  it('refuses a swap another wallet made, even one that paid the caller, with 422', async () => {
    const dave = await userWithWallet(users, 'swap-not-mine', trader.address);
    // The provider buys, and the pair sends the DDEX to the trader's wallet.
    const hash = await buy(chain, market, provider, parseEther('0.01'), { ...byClock, to: trader.address });
    await expectRefusal(await record(dave, hash), 422, /swap was not made from your wallet/);
    expect(await rowsWithHash(hash)).toEqual([]);
  });

  it('refuses a reverted swap with 422', async () => {
    const erin = await userWithWallet(users, 'swap-reverted', trader.address);
    const wallet = walletOf(chain, trader);
    // More DDEX out than the pool holds: mined, but reverted by the router. The gas is fixed so
    // nothing estimates (and refuses) it first, and the hash comes from the signed bytes, as
    // Hardhat reports the revert as an error of the send itself.
    const prepared = await wallet.prepareTransactionRequest({
      to: market.router,
      data: encodeFunctionData({
        abi: ROUTER.abi,
        functionName: 'swapExactETHForTokens',
        args: [
          parseUnits('1000000000', 18),
          [market.weth, chain.tokenAddress],
          trader.address,
          await swapDeadline(chain, 'clock'),
        ],
      }),
      value: parseEther('0.01'),
      gas: 300_000n,
      chain: null,
    });
    const signed = await wallet.signTransaction({ ...prepared, chain: null });
    const hash = keccak256(signed);
    await wallet.sendRawTransaction({ serializedTransaction: signed }).catch(() => undefined);
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('reverted');

    await expectRefusal(await record(erin, hash), 422, /failed on chain/);
    expect(await rowsWithHash(hash)).toEqual([]);
  });

  it('refuses a buy and a sell clearly when no market is configured, recording neither', async () => {
    const frank = await userWithWallet(users, 'swap-no-market', trader.address);
    for (const hash of [
      await buy(chain, market, trader, parseEther('0.01'), byClock),
      await sell(chain, market, trader, parseUnits('1', 18), byClock),
    ]) {
      const response = await withoutMarket(request(frank, hash));
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        error: 'Not a DDEX transfer',
        message: expect.stringMatching(/swap.*no Uniswap V2 market is configured/),
      });
      expect(await rowsWithHash(hash)).toEqual([]);
    }
  });

  it('refuses to start with a router that is not an address', () => {
    expect(() =>
      createRecordTransactionHandler({
        supabase: service,
        rpcUrl: chain.rpcUrl,
        tokenAddress: chain.tokenAddress,
        uniswapRouter: 'router',
      }),
    ).toThrow(/Uniswap V2 router must be an address/);
  });
});
