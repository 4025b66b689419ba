import {
  encodeAbiParameters,
  encodeEventTopics,
  erc20Abi,
  maxUint256,
  parseAbiItem,
  parseEther,
  parseUnits,
} from 'viem';
import { describe, expect, it } from 'vitest';
import type { RawLog, Receipt } from '../../supabase/functions/_shared/transfer-log.ts';
import { walletActivity, type ActivityContext } from '../../supabase/functions/_shared/wallet-activity.ts';

// A wallet's rows of one transaction, from its receipt alone: the rules both writers of the
// history share (process-payments and record-transaction).

const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const PAIR = `0x${'a1'.repeat(20)}`;
const OTHER_POOL = `0x${'a2'.repeat(20)}`;
const ROUTER = `0x${'b2'.repeat(20)}`;
const WALLET = `0x${'5f'.repeat(20)}`;
const FRIEND = `0x${'66'.repeat(20)}`;

const SWAP = parseAbiItem(
  'event Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)',
);

let nextLog = 0;
const log = (address: string, topics: readonly unknown[], data: string): RawLog => ({
  address,
  topics: topics.map(String),
  data,
  removed: false,
  logIndex: nextLog++,
});
const transfer = (from: string, to: string, value: bigint, token = TOKEN) =>
  log(
    token,
    encodeEventTopics({
      abi: erc20Abi,
      eventName: 'Transfer',
      args: { from: from as `0x${string}`, to: to as `0x${string}` },
    }),
    encodeAbiParameters([{ type: 'uint256' }], [value]),
  );
const approval = (owner: string, spender: string, value: bigint) =>
  log(
    TOKEN,
    encodeEventTopics({
      abi: erc20Abi,
      eventName: 'Approval',
      args: { owner: owner as `0x${string}`, spender: spender as `0x${string}` },
    }),
    encodeAbiParameters([{ type: 'uint256' }], [value]),
  );
/** A Swap of the pair; WETH is token0 here, DDEX token1. */
const swap = (
  pool: string,
  amounts: { wethIn?: bigint; ddexIn?: bigint; wethOut?: bigint; ddexOut?: bigint },
) =>
  log(
    pool,
    encodeEventTopics({
      abi: [SWAP],
      args: { sender: ROUTER as `0x${string}`, to: WALLET as `0x${string}` },
    }),
    encodeAbiParameters(
      [{ type: 'uint' }, { type: 'uint' }, { type: 'uint' }, { type: 'uint' }],
      [amounts.wethIn ?? 0n, amounts.ddexIn ?? 0n, amounts.wethOut ?? 0n, amounts.ddexOut ?? 0n],
    ),
  );
const receipt = (...logs: RawLog[]): Receipt => ({ status: 'success', logs });
const context = (fields: Partial<ActivityContext> = {}): ActivityContext => ({
  wallet: WALLET.toUpperCase().replace('0X', '0x'),
  sender: WALLET,
  token: TOKEN,
  decimals: 18,
  market: { pair: PAIR, wethIsToken0: true },
  ...fields,
});

describe('a wallet’s rows of one transaction', () => {
  it('makes each DDEX transfer in or out its own row, keyed by its log', () => {
    const first = transfer(FRIEND, WALLET, parseUnits('2', 18));
    const second = transfer(FRIEND, WALLET, parseUnits('2', 18));
    const out = transfer(WALLET, FRIEND, parseUnits('0.5', 18));
    const rows = walletActivity(receipt(first, second, out), context({ sender: FRIEND }));
    expect(rows).toEqual([
      expect.objectContaining({
        type: 'token_received',
        logIndex: first.logIndex,
        amount: '2',
        counterparty: FRIEND,
      }),
      expect.objectContaining({
        type: 'token_received',
        logIndex: second.logIndex,
        amount: '2',
        counterparty: FRIEND,
      }),
      expect.objectContaining({
        type: 'token_sent',
        logIndex: out.logIndex,
        amount: '-0.5',
        counterparty: FRIEND,
      }),
    ]);
  });

  it('makes DDEX from the project’s faucet a faucet row, and another sender’s a transfer in', () => {
    const claimed = transfer(FRIEND, WALLET, parseUnits('100', 18));
    const rows = walletActivity(receipt(claimed), context({ sender: FRIEND, faucet: FRIEND.toUpperCase() }));
    expect(rows).toEqual([
      expect.objectContaining({
        type: 'faucet',
        logIndex: claimed.logIndex,
        amount: '100',
        counterparty: FRIEND,
      }),
    ]);
    expect(walletActivity(receipt(claimed), context({ sender: FRIEND, faucet: null }))).toEqual([
      expect.objectContaining({ type: 'token_received' }),
    ]);
  });

  it('makes the wallet’s own buy one swap row with both legs, and no transfer row for its DDEX', () => {
    const paid = parseEther('0.01');
    const got = parseUnits('12.5', 18);
    const swapLog = swap(PAIR, { wethIn: paid, ddexOut: got });
    const rows = walletActivity(receipt(transfer(PAIR, WALLET, got), swapLog), context());
    expect(rows).toEqual([
      {
        type: 'swap',
        logIndex: swapLog.logIndex,
        amount: '12.5',
        counterparty: null,
        counterAmount: '-0.01',
        unlimited: false,
      },
    ]);
  });

  it('makes a sell one swap row: DDEX negative, the ETH received positive', () => {
    const sold = parseUnits('3', 18);
    const swapLog = swap(PAIR, { ddexIn: sold, wethOut: parseEther('0.002') });
    const rows = walletActivity(
      receipt(transfer(WALLET, PAIR, sold), swapLog),
      context({ market: { pair: PAIR, wethIsToken0: true } }),
    );
    expect(rows).toEqual([expect.objectContaining({ type: 'swap', amount: '-3', counterAmount: '0.002' })]);
  });

  it('reads the ETH leg from the other side when WETH is token1', () => {
    // amount0 is DDEX now: 5 DDEX out, 0.004 WETH in.
    const swapLog = swap(PAIR, { wethIn: parseUnits('5', 18), ddexIn: parseEther('0.004') });
    const rows = walletActivity(
      receipt(transfer(PAIR, WALLET, parseUnits('5', 18)), swapLog),
      context({ market: { pair: PAIR, wethIsToken0: false } }),
    );
    expect(rows).toEqual([expect.objectContaining({ type: 'swap', amount: '5', counterAmount: '-0.004' })]);
  });

  it('keeps DDEX another wallet’s swap paid to this one as a transfer: no swap of this wallet holds it', () => {
    const got = parseUnits('1', 18);
    const rows = walletActivity(
      receipt(transfer(PAIR, WALLET, got), swap(PAIR, { wethIn: 1n, ddexOut: got })),
      context({ sender: FRIEND }),
    );
    expect(rows).toEqual([
      expect.objectContaining({ type: 'token_received', amount: '1', counterparty: PAIR }),
    ]);
  });

  it('makes a buy a transfer in when no market is configured: no swap row can hold it', () => {
    const got = parseUnits('2', 18);
    expect(
      walletActivity(
        receipt(transfer(PAIR, WALLET, got), swap(PAIR, { wethIn: 1n, ddexOut: got })),
        context({ market: null }),
      ),
    ).toEqual([expect.objectContaining({ type: 'token_received', amount: '2', counterparty: PAIR })]);
  });

  it('records no send for DDEX paid into another pool that swapped, nor any swap without a market', () => {
    const sold = parseUnits('4', 18);
    expect(
      walletActivity(
        receipt(transfer(WALLET, OTHER_POOL, sold), swap(OTHER_POOL, { ddexIn: sold })),
        context(),
      ),
    ).toEqual([]);
    expect(
      walletActivity(
        receipt(transfer(WALLET, PAIR, sold), swap(PAIR, { ddexIn: sold })),
        context({ market: null }),
      ),
    ).toEqual([]);
  });

  it('records the approvals the wallet gave, saying when one is unlimited', () => {
    const limited = approval(WALLET, ROUTER, parseUnits('50', 18));
    const unlimited = approval(WALLET, ROUTER, maxUint256);
    const someoneElses = approval(FRIEND, ROUTER, maxUint256);
    expect(walletActivity(receipt(limited, unlimited, someoneElses), context())).toEqual([
      expect.objectContaining({
        type: 'approval',
        logIndex: limited.logIndex,
        amount: '50',
        counterparty: ROUTER,
        unlimited: false,
      }),
      expect.objectContaining({
        type: 'approval',
        logIndex: unlimited.logIndex,
        counterparty: ROUTER,
        unlimited: true,
      }),
    ]);
  });

  it('finds nothing in a reverted transaction, or in another token’s transfers', () => {
    const other = transfer(FRIEND, WALLET, 5n, `0x${'77'.repeat(20)}`);
    expect(walletActivity({ status: 'reverted', logs: [] }, context())).toEqual([]);
    expect(walletActivity(receipt(other), context())).toEqual([]);
  });
});
