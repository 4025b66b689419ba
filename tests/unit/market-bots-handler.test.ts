import type { SupabaseClient } from '@supabase/supabase-js';
import { encodeAbiParameters, encodeEventTopics, parseAbi, parseUnits, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/domain/database.types.ts';
import type { EvaluatedBatch, SwapEvaluation } from '../../supabase/functions/market-bots/evaluate.ts';
import { createMarketBotsHandler } from '../../supabase/functions/market-bots/handler.ts';
import { amountText, priceText } from '../../supabase/functions/market-bots/price-text.ts';
import { ratio } from '../../supabase/functions/market-bots/swap-prices.ts';
import { signPayload } from '../../supabase/functions/_shared/signature.ts';
import { chunked } from '../support/streams.ts';

// market-bots as Tatum meets it, without a database or a chain: a node that answers the market's
// reads and one receipt, and an evaluation that records what it was asked. The refusals come
// before either is asked; a swap's delivery asks for exactly one evaluation per Swap of the pair.

const SECRET = 'a-long-random-hmac-secret';
const CHAIN = 'ethereum-sepolia';
// WETH sorts before the token, so the pair's token0 is WETH.
const WETH = '0x1111111111111111111111111111111111111111';
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const FACTORY = '0x2222222222222222222222222222222222222222';
const ROUTER = '0x3333333333333333333333333333333333333333';
const PAIR = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';
const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const TX = `0x${'ab'.repeat(32)}`;
const BLOCK = 42;
const BLOCK_SECONDS = 1_800_000_000;

const pairAbi = parseAbi([
  'event Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
]);
const eth = (text: string) => parseUnits(text, 18);
const word = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;
const words = (values: bigint[]) =>
  encodeAbiParameters(
    values.map(() => ({ type: 'uint256' })),
    values,
  );

/** A buy's Sync and Swap on the pair, as a node's receipt lists them (10 ETH / 100,000 DDEX before). */
const buyLogs = (first: number) => [
  {
    address: PAIR,
    topics: encodeEventTopics({ abi: pairAbi, eventName: 'Sync' }),
    data: words([eth('10.1'), eth('99000')]),
    logIndex: `0x${first.toString(16)}`,
    removed: false,
  },
  {
    address: PAIR,
    topics: encodeEventTopics({
      abi: pairAbi,
      eventName: 'Swap',
      args: { sender: ROUTER as Hex, to: WALLET as Hex },
    }),
    data: words([eth('0.1'), 0n, 0n, eth('1000')]),
    logIndex: `0x${(first + 1).toString(16)}`,
    removed: false,
  },
];

type NodeAnswers = { receipt?: unknown };

/** A node that answers the market's reads, one receipt and its block, recording each method asked. */
function fakeNode(answers: NodeAnswers = {}) {
  const asked: string[] = [];
  const fetch: typeof globalThis.fetch = async (_url, init) => {
    const { id, method, params } = JSON.parse(String(init?.body)) as {
      id: number;
      method: string;
      params: [{ to: string; data: string }];
    };
    asked.push(method);
    let result: unknown = null;
    if (method === 'eth_call') {
      const { to, data } = params[0];
      if (data === '0xc45a0155') result = word(FACTORY);
      else if (data === '0xad5c4648') result = word(WETH);
      else if (to === FACTORY && data.startsWith('0xe6a43905')) result = word(PAIR);
    } else if (method === 'eth_getTransactionReceipt') {
      result =
        'receipt' in answers
          ? answers.receipt
          : { status: '0x1', blockNumber: `0x${BLOCK.toString(16)}`, logs: buyLogs(3) };
    } else if (method === 'eth_getBlockByNumber') {
      result = { number: `0x${BLOCK.toString(16)}`, timestamp: `0x${BLOCK_SECONDS.toString(16)}` };
    }
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }));
  };
  return { fetch, asked };
}

// Every answer here comes before a database is needed, or from the evaluation stand-in.
const noDatabase = null as unknown as SupabaseClient<Database>;

/**
 * The handler on `node`, with an evaluation that records each batch it is asked for and answers
 * `batches` in turn (a number: that many fired, none left; an Error: that batch fails), then 1
 * fired, none left.
 */
function handlerWith(node = fakeNode(), batches: (EvaluatedBatch | Error | number)[] = []) {
  const evaluated: SwapEvaluation[] = [];
  const answers = [...batches];
  const handle = createMarketBotsHandler({
    webhookSecret: SECRET,
    supabase: noDatabase,
    rpcUrl: 'http://node.test',
    uniswapRouter: ROUTER,
    tokenAddress: TOKEN,
    chain: CHAIN,
    fetch: node.fetch,
    evaluate: async (swap) => {
      evaluated.push(swap);
      const answer = answers.shift() ?? 1;
      if (answer instanceof Error) throw answer;
      return typeof answer === 'number' ? { fired: answer, nextBot: null } : answer;
    },
  });
  return { handle, evaluated, node };
}

/** The WETH leg of a buy, as the emulator posts it for the pair's subscription. */
const wethLeg = {
  address: PAIR,
  amount: '0.1',
  asset: WETH,
  blockNumber: BLOCK,
  counterAddress: ROUTER,
  txId: TX,
  logIndex: 1,
  type: 'token',
  chain: CHAIN,
  subscriptionType: 'ADDRESS_EVENT',
  mempool: false,
};

async function delivery(body: string | object, init: { secret?: string | null } = {}): Promise<Request> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const secret = init.secret === undefined ? SECRET : init.secret;
  return new Request('http://127.0.0.1/functions/v1/market-bots', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(secret === null ? {} : { 'x-payload-hash': await signPayload(secret, text) }),
    },
    body: text,
  });
}

const nothing = { received: true, swaps: 0, fired: 0 };

describe('market-bots refuses what is not a signed address event', () => {
  it('answers anything but POST with 405', async () => {
    const { handle } = handlerWith();
    const response = await handle(new Request('http://127.0.0.1/', { method: 'GET' }));
    expect(response.status).toBe(405);
  });

  it('answers a body past 64 KB with 413, declared or chunked', async () => {
    const { handle, node } = handlerWith();
    const big = JSON.stringify({ ...wethLeg, padding: 'x'.repeat(70 * 1024) });
    const declared = await handle(await delivery(big));
    const streamed = await handle(
      new Request('http://127.0.0.1/', {
        method: 'POST',
        body: chunked(big),
        duplex: 'half',
      } as RequestInit),
    );
    expect([declared.status, streamed.status]).toEqual([413, 413]);
    expect(node.asked).toEqual([]);
  });

  it('answers an unsigned delivery, or one signed with another secret, with 401', async () => {
    const { handle, node } = handlerWith();
    for (const secret of [null, 'another-secret-of-some-length']) {
      const response = await handle(await delivery(wethLeg, { secret }));
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'Invalid signature' });
    }
    expect(node.asked).toEqual([]);
  });

  it('answers a signed body that is not UTF-8 JSON, or no address event, with 400', async () => {
    const { handle, node } = handlerWith();
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
    const notUtf8 = await handle(
      new Request('http://127.0.0.1/', {
        method: 'POST',
        headers: { 'x-payload-hash': await signPayload(SECRET, bytes) },
        body: bytes,
      }),
    );
    expect(notUtf8.status).toBe(400);
    expect((await handle(await delivery('{"address":'))).status).toBe(400);
    const malformed = await handle(await delivery({ ...wethLeg, txId: '0x12' }));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ problems: [expect.stringMatching(/^txId/)] });
    expect(node.asked).toEqual([]);
  });

  it('answers another chain’s, a mempool, and a non-token event 200 without evaluating', async () => {
    const { handle, evaluated, node } = handlerWith();
    for (const event of [
      { ...wethLeg, chain: 'ethereum-mainnet' },
      { ...wethLeg, mempool: true },
      { ...wethLeg, type: 'native', asset: 'ETH' },
    ]) {
      const response = await handle(await delivery(event));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(nothing);
    }
    expect(node.asked).toEqual([]);
    expect(evaluated).toEqual([]);
  });

  it('answers an event of another address 200 without reading its transaction', async () => {
    const { handle, evaluated, node } = handlerWith();
    const response = await handle(await delivery({ ...wethLeg, address: WALLET }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(nothing);
    expect(node.asked).not.toContain('eth_getTransactionReceipt');
    expect(evaluated).toEqual([]);
  });
});

describe('market-bots evaluates each Swap of the pair once per delivery', () => {
  it('evaluates the swap under its Swap log, whichever transfer was delivered, with Server-Timing', async () => {
    const { handle, evaluated } = handlerWith();
    const weth = await handle(await delivery(wethLeg));
    const ddex = await handle(
      await delivery({ ...wethLeg, amount: '-1000', asset: TOKEN, counterAddress: WALLET, logIndex: 2 }),
    );
    // Legacy bodies carry no logIndex; the key is the Swap's all the same.
    const { logIndex: _dropped, ...legacyBody } = wethLeg;
    const legacy = await handle(await delivery(legacyBody));
    for (const response of [weth, ddex, legacy]) {
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true, swaps: 1, fired: 1 });
      expect(response.headers.get('server-timing')).toMatch(/^rpc;dur=\d+\.\d, evaluate;dur=\d+\.\d$/);
    }
    const expected: SwapEvaluation = {
      p_pair: PAIR,
      p_tx_hash: TX,
      p_log_index: 4,
      p_block_number: BLOCK,
      p_block_time: new Date(BLOCK_SECONDS * 1000).toISOString(),
      p_price_before: '0.0001',
      p_price_after: `0.0001${'02'.repeat(18)}`,
      p_ddex_amount: '1000',
      p_side: 'buy',
      p_price_before_text: '0.0001',
      p_price_after_text: '0.00010202',
      p_amount_text: '1,000',
      p_rules: 'all',
      p_after_bot: null,
    };
    expect(evaluated).toEqual([expected, expected, expected]);
  });

  it('weighs the price rules once per transaction, from before its first swap to after its last, and the large-swap rule on each swap', async () => {
    // A sell of 1,000 DDEX for 0.1 ETH, then a buy of 500 DDEX for 0.05 ETH, in one transaction
    // (10 ETH / 100,000 DDEX before): 500 DDEX sold in all.
    const logsOf = (first: number, reserves: [string, string], amounts: [bigint, bigint, bigint, bigint]) => [
      {
        address: PAIR,
        topics: encodeEventTopics({ abi: pairAbi, eventName: 'Sync' }),
        data: words([eth(reserves[0]), eth(reserves[1])]),
        logIndex: `0x${first.toString(16)}`,
        removed: false,
      },
      {
        address: PAIR,
        topics: encodeEventTopics({
          abi: pairAbi,
          eventName: 'Swap',
          args: { sender: ROUTER as Hex, to: WALLET as Hex },
        }),
        data: words(amounts),
        logIndex: `0x${(first + 1).toString(16)}`,
        removed: false,
      },
    ];
    const receipt = {
      status: '0x1',
      blockNumber: `0x${BLOCK.toString(16)}`,
      logs: [
        ...logsOf(3, ['9.9', '101000'], [0n, eth('1000'), eth('0.1'), 0n]),
        ...logsOf(5, ['9.95', '100500'], [eth('0.05'), 0n, 0n, eth('500')]),
      ],
    };
    const { handle, evaluated } = handlerWith(fakeNode({ receipt }));
    const response = await handle(await delivery(wethLeg));
    expect(await response.json()).toEqual({ received: true, swaps: 2, fired: 3 });

    const [start, dip, end] = ['0.0001', ratio(eth('9.9'), eth('101000')), ratio(eth('9.95'), eth('100500'))];
    const weighed = (
      logIndex: number,
      before: string,
      after: string,
      amount: string,
      side: 'buy' | 'sell',
    ) => ({
      p_pair: PAIR,
      p_tx_hash: TX,
      p_log_index: logIndex,
      p_block_number: BLOCK,
      p_block_time: new Date(BLOCK_SECONDS * 1000).toISOString(),
      p_price_before: before,
      p_price_after: after,
      p_ddex_amount: amount,
      p_side: side,
      p_price_before_text: priceText(before),
      p_price_after_text: priceText(after),
      p_amount_text: amountText(amount),
      p_after_bot: null,
    });
    expect(evaluated).toEqual([
      { ...weighed(4, start, dip, '1000', 'sell'), p_rules: 'size' },
      { ...weighed(6, dip, end, '500', 'buy'), p_rules: 'size' },
      // The price rules see the move of the whole transaction, under its last Swap: 500 DDEX sold.
      { ...weighed(6, start, end, '500', 'sell'), p_rules: 'price' },
    ]);
  });

  it('asks for the bots a batch at a time, each its own call, until none is left; a failed batch is a 500 and the next delivery starts over', async () => {
    const bot = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const { handle, evaluated } = handlerWith(fakeNode(), [
      { fired: 2, nextBot: bot(2) },
      new Error('evaluating the swap failed: canceling statement due to statement timeout'),
      // The redelivery: the first batch's bots fired already; the rest fire now.
      { fired: 0, nextBot: bot(2) },
      { fired: 2, nextBot: bot(4) },
      { fired: 1, nextBot: null },
    ]);
    const failed = await handle(await delivery(wethLeg));
    expect(failed.status).toBe(500);
    const again = await handle(await delivery(wethLeg));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, swaps: 1, fired: 3 });
    expect(evaluated.map((batch) => batch.p_after_bot)).toEqual([null, bot(2), null, bot(2), bot(4)]);
  });

  it('answers 500 when a batch ends where it started or before, rather than asking forever', async () => {
    const bot = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const { handle, evaluated } = handlerWith(fakeNode(), [
      { fired: 0, nextBot: bot(2) },
      { fired: 0, nextBot: bot(2) },
    ]);
    expect((await handle(await delivery(wethLeg))).status).toBe(500);
    expect(evaluated).toHaveLength(2);
  });

  it('answers 500 while the node has no receipt, so Tatum delivers again', async () => {
    const { handle, evaluated } = handlerWith(fakeNode({ receipt: null }));
    const response = await handle(await delivery(wethLeg));
    expect(response.status).toBe(500);
    expect(evaluated).toEqual([]);
  });

  it('answers a reverted transaction, and one without a Swap, 200 with nothing evaluated', async () => {
    for (const receipt of [
      { status: '0x0', blockNumber: '0x2a', logs: [] },
      { status: '0x1', blockNumber: '0x2a', logs: buyLogs(3).slice(0, 1) },
    ]) {
      const { handle, evaluated, node } = handlerWith(fakeNode({ receipt }));
      const response = await handle(await delivery(wethLeg));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(nothing);
      expect(evaluated).toEqual([]);
      expect(node.asked).not.toContain('eth_getBlockByNumber');
    }
  });

  it('refuses to start without a secret, or with a router or token that is no address', () => {
    const deps = {
      webhookSecret: SECRET,
      supabase: noDatabase,
      rpcUrl: 'http://node.test',
      uniswapRouter: ROUTER,
      tokenAddress: TOKEN,
      chain: CHAIN,
    };
    expect(() => createMarketBotsHandler({ ...deps, webhookSecret: '' })).toThrow(/webhook secret/);
    expect(() => createMarketBotsHandler({ ...deps, uniswapRouter: 'router' })).toThrow(/router/);
    expect(() => createMarketBotsHandler({ ...deps, tokenAddress: '0x12' })).toThrow(/token/);
    expect(() => createMarketBotsHandler({ ...deps, rpcUrl: '' })).toThrow(/RPC URL/);
  });
});
