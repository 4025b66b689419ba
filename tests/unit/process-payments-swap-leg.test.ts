import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { SWAP_TOPIC } from '../../supabase/functions/_shared/swap-log.ts';
import type { Database } from '../../src/domain/database.types.ts';
import type { AddressEvent } from '../../supabase/functions/_shared/address-event.ts';
import { createProcessPaymentsHandler } from '../../supabase/functions/process-payments/handler.ts';
import { notificationId } from '../../supabase/functions/process-payments/notification-id.ts';
import {
  isOwnSwap,
  isPairTransfer,
  swapLegCheck,
} from '../../supabase/functions/process-payments/swap-leg.ts';
import { RpcError } from '../../supabase/functions/_shared/rpc.ts';

// Which DDEX transfers process-payments leaves to record-transaction's `swap` row, decided without
// a chain: the node is a fake that answers JSON-RPC from a table.

const TOKEN = `0x${'d0'.repeat(20)}`;
const PAIR = `0x${'a1'.repeat(20)}`;
const ROUTER = `0x${'b2'.repeat(20)}`;
const FACTORY = `0x${'c3'.repeat(20)}`;
const WETH = `0x${'e4'.repeat(20)}`;
const WALLET = `0x${'5f'.repeat(20)}`;
const OTHER = `0x${'66'.repeat(20)}`;
const TX = `0x${'ab'.repeat(32)}`;
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const event = (fields: Partial<AddressEvent> = {}): AddressEvent => ({
  address: WALLET,
  amount: '12.5',
  asset: TOKEN,
  blockNumber: 7,
  counterAddress: PAIR,
  txId: TX,
  logIndex: 2,
  type: 'token',
  chain: 'ethereum-sepolia',
  subscriptionType: 'ADDRESS_EVENT',
  ...fields,
});

const swapLog = (address = PAIR) => ({
  address,
  topics: [SWAP_TOPIC, `0x${'0'.repeat(24)}${ROUTER.slice(2)}`, `0x${'0'.repeat(24)}${WALLET.slice(2)}`],
  data: `0x${'0'.repeat(256)}`,
  removed: false,
});
const transferLog = { address: TOKEN, topics: [TRANSFER_TOPIC], data: '0x', removed: false };
const sentBy = (from: string) => ({ hash: TX, from });
const receipt = (...logs: unknown[]) => ({ status: '0x1', logs });
const word = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;

describe('isPairTransfer', () => {
  it('is a DDEX transfer with the pair on the other side, either way, in any letter case', () => {
    expect(isPairTransfer(event(), TOKEN, PAIR)).toBe(true);
    expect(isPairTransfer(event({ amount: '-3' }), TOKEN.toUpperCase().replace('0X', '0x'), PAIR)).toBe(true);
    expect(
      isPairTransfer(event({ counterAddress: PAIR.toUpperCase().replace('0X', '0x') }), TOKEN, PAIR),
    ).toBe(true);
  });

  it('is not another token, another counterparty, none, or ETH', () => {
    expect(isPairTransfer(event({ asset: OTHER }), TOKEN, PAIR)).toBe(false);
    expect(isPairTransfer(event({ counterAddress: OTHER }), TOKEN, PAIR)).toBe(false);
    expect(isPairTransfer(event({ counterAddress: null }), TOKEN, PAIR)).toBe(false);
    expect(isPairTransfer(event({ type: 'native', asset: 'ETH' }), TOKEN, PAIR)).toBe(false);
  });
});

describe('isOwnSwap', () => {
  it('is a transaction the wallet sent in which the pair swapped', () => {
    expect(isOwnSwap(sentBy(WALLET), receipt(transferLog, swapLog()), WALLET, PAIR)).toBe(true);
    expect(
      isOwnSwap(sentBy(WALLET.toUpperCase().replace('0X', '0x')), receipt(swapLog()), WALLET, PAIR),
    ).toBe(true);
  });

  it('is not DDEX another wallet bought for this one: record-transaction refuses that swap', () => {
    expect(isOwnSwap(sentBy(OTHER), receipt(transferLog, swapLog()), WALLET, PAIR)).toBe(false);
  });

  it('is not the wallet’s liquidity added or removed, nor a swap of another pool: no Swap of the pair', () => {
    expect(isOwnSwap(sentBy(WALLET), receipt(transferLog), WALLET, PAIR)).toBe(false);
    expect(isOwnSwap(sentBy(WALLET), receipt(transferLog, swapLog(OTHER)), WALLET, PAIR)).toBe(false);
    expect(isOwnSwap(sentBy(WALLET), receipt({ ...swapLog(), removed: true }), WALLET, PAIR)).toBe(false);
    expect(isOwnSwap(sentBy(WALLET), { status: '0x0', logs: [] }, WALLET, PAIR)).toBe(false);
  });

  it('has no answer when the node knows neither the transaction nor its receipt', () => {
    expect(isOwnSwap(null, receipt(swapLog()), WALLET, PAIR)).toBeNull();
    expect(isOwnSwap(sentBy(WALLET), null, WALLET, PAIR)).toBeNull();
    expect(isOwnSwap({ hash: TX }, receipt(swapLog()), WALLET, PAIR)).toBeNull();
    expect(isOwnSwap(sentBy(WALLET), { status: '0x1' }, WALLET, PAIR)).toBeNull();
  });
});

/** A node that answers the market's reads and one transaction, counting what it was asked. */
function fakeNode(answers: { pair?: string; sender?: string | null; logs?: unknown[] } = {}) {
  const asked: string[] = [];
  const fetch: typeof globalThis.fetch = async (_url, init) => {
    const { id, method, params } = JSON.parse(String(init?.body)) as {
      id: number;
      method: string;
      params: [{ to: string; data: string }];
    };
    let result: unknown = null;
    if (method === 'eth_call') {
      const { to, data } = params[0];
      asked.push(`${to}:${data.slice(0, 10)}`);
      if (data === '0xc45a0155') result = word(FACTORY);
      else if (data === '0xad5c4648') result = word(WETH);
      else if (to === FACTORY && data.startsWith('0xe6a43905')) result = word(answers.pair ?? PAIR);
    } else {
      asked.push(method);
      if (method === 'eth_getTransactionByHash' && answers.sender !== null) {
        result = sentBy(answers.sender ?? WALLET);
      }
      if (method === 'eth_getTransactionReceipt') result = receipt(...(answers.logs ?? [swapLog()]));
    }
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }));
  };
  return { fetch, asked };
}

const checkWith = (node: ReturnType<typeof fakeNode>) =>
  swapLegCheck({ rpcUrl: 'http://node.test', router: ROUTER, tokenAddress: TOKEN, fetch: node.fetch });

describe('swapLegCheck', () => {
  it('takes the wallet’s own swap on the pair as a swap leg, reading the pair once', async () => {
    const node = fakeNode();
    const isSwapLeg = checkWith(node);
    expect(await isSwapLeg(event())).toBe(true);
    expect(await isSwapLeg(event({ amount: '-4', logIndex: 9 }))).toBe(true);
    const pairReads = node.asked.filter((call) => call.startsWith('0x'));
    expect(pairReads).toEqual([`${ROUTER}:0xc45a0155`, `${ROUTER}:0xad5c4648`, `${FACTORY}:0xe6a43905`]);
  });

  it('asks the chain nothing for ETH, other tokens or a transfer without a counterparty', async () => {
    const node = fakeNode();
    const isSwapLeg = checkWith(node);
    expect(await isSwapLeg(event({ type: 'native', asset: 'ETH' }))).toBe(false);
    expect(await isSwapLeg(event({ asset: OTHER }))).toBe(false);
    expect(await isSwapLeg(event({ type: 'fee', asset: 'ETH', counterAddress: null }))).toBe(false);
    expect(node.asked).toEqual([]);
  });

  it('reads no transaction for a DDEX transfer with anyone but the pair', async () => {
    const node = fakeNode();
    expect(await checkWith(node)(event({ counterAddress: OTHER }))).toBe(false);
    expect(node.asked).not.toContain('eth_getTransactionByHash');
  });

  it('records as a transfer what the wallet did not swap itself, and what moved without a swap', async () => {
    expect(await checkWith(fakeNode({ sender: OTHER }))(event())).toBe(false);
    expect(await checkWith(fakeNode({ logs: [transferLog] }))(event())).toBe(false);
  });

  it('takes nothing for a swap leg while the factory has no pair', async () => {
    const node = fakeNode({ pair: `0x${'0'.repeat(40)}` });
    expect(await checkWith(node)(event())).toBe(false);
    expect(node.asked).not.toContain('eth_getTransactionByHash');
  });

  it('fails, for Tatum to deliver again, when the node does not know the transaction', async () => {
    await expect(checkWith(fakeNode({ sender: null }))(event())).rejects.toBeInstanceOf(RpcError);
  });
});

describe('notificationId', () => {
  const USER = '3f0e4f8e-9a57-4c38-9a43-2b1fa1d1f7a1';

  it('is one UUID per user and transfer, whatever the hash’s letter case', async () => {
    const id = await notificationId(USER, { txId: TX, logIndex: 2 }, 'token_received');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(
      await notificationId(
        USER,
        { txId: TX.toUpperCase().replace('0X', '0x'), logIndex: 2 },
        'token_received',
      ),
    ).toBe(id);
  });

  it('differs by user, transaction, direction and log', async () => {
    const ids = await Promise.all([
      notificationId(USER, { txId: TX, logIndex: 2 }, 'token_received'),
      notificationId('6b1d2c55-0000-4000-8000-000000000001', { txId: TX, logIndex: 2 }, 'token_received'),
      notificationId(USER, { txId: `0x${'cd'.repeat(32)}`, logIndex: 2 }, 'token_received'),
      notificationId(USER, { txId: TX, logIndex: 2 }, 'token_sent'),
      notificationId(USER, { txId: TX, logIndex: 3 }, 'token_received'),
      notificationId(USER, { txId: TX, logIndex: null }, 'token_received'),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('createProcessPaymentsHandler and the market', () => {
  const supabase = {} as SupabaseClient<Database>;

  it('refuses to start with a router that is not an address, or without the chain to read it on', () => {
    expect(() =>
      createProcessPaymentsHandler({
        webhookSecret: 's',
        supabase,
        uniswapRouter: 'router',
        rpcUrl: 'http://n',
      }),
    ).toThrow(/Uniswap V2 router must be an address/);
    expect(() =>
      createProcessPaymentsHandler({ webhookSecret: 's', supabase, uniswapRouter: ROUTER }),
    ).toThrow(/needs the chain RPC URL/);
  });
});
