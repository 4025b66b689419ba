import { authUser } from '../../support/fixtures.ts';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { DexCall, Holdings, Quote, SwapResult } from '../../../src/domain/dex.ts';
import type { Hex } from '../../../src/domain/token.ts';
import type { MarketEvent, MarketLoad } from '../../../src/machines/trading/market.machine.ts';
import type {
  ConfirmSwapInput,
  QuoteInput,
  QuoteOutput,
  RecordSwapInput,
  SwapCallInput,
} from '../../../src/machines/trading/swap-types.ts';
import {
  tradingMachine,
  type TradingFact,
  type TradingInput,
} from '../../../src/machines/trading/trading.machine.ts';
import { lastCall, settle } from '../../support/deferred-actor.ts';
import { E18, HASH, market } from '../../support/machines/fixtures.ts';
import { machineHarness } from '../../support/machines/harness.ts';
import { WALLET } from '../../support/transfer-fixtures.ts';

// The Trading tab's root with its real children, market and swap, on fake services: a block the
// market's watch reports reaches the swap form, the page's wallet and session reach it too, and a
// swap mined is emitted for the portal to refresh balances and history.

const CHAIN = 31337;
const pool = { reserveEth: 100n * E18, reserveToken: 200_000n * E18, blockNumber: 5n };
const quote: Quote = { side: 'buy', amountIn: E18, amountOut: 1990n * E18, priceImpactBps: 50, pool };
const holdings: Holdings = { eth: 10n * E18, token: 0n, allowance: 0n };
const call: DexCall = { from: WALLET, to: market.router, data: '0x7ff36ab5', value: E18 };
const result: SwapResult = {
  hash: HASH,
  side: 'buy',
  amountIn: E18,
  amountOut: 1985n * E18,
  blockNumber: 6n,
};

/** A service call that answers `value` at once. */
const answers = <T, I = unknown>(value: T) => fromPromise<T, I>(() => Promise.resolve(value));

function start(input: Partial<TradingInput> = {}) {
  // Under the harness's root (system id 'portal'), which hears the trading machine's facts as the
  // portal's root would. The market loads at once and the swap's wallet steps answer at once; its
  // quotes and its record wait for the test.
  const h = machineHarness(tradingMachine, {
    input: { expectedChainId: CHAIN, signedIn: false, account: WALLET, chainId: CHAIN, ...input },
    actors: {
      'market.loadMarket': answers<MarketLoad>({ market, pool, history: { trades: [], prices: [] } }),
      'swap.swapCall': answers<DexCall, SwapCallInput>(call),
      'swap.sendTransaction': answers<Hex, DexCall>(HASH),
      'swap.confirmSwap': answers<SwapResult, ConfirmSwapInput>(result),
    },
    callbacks: ['market.watchMarket'],
  });
  const watch = h.callback('market.watchMarket');
  const { actor, clock } = h;
  const swap = () => actor.getSnapshot().children.swap?.getSnapshot();
  const marketState = () => actor.getSnapshot().children.market?.getSnapshot();
  return {
    actor,
    clock,
    quotes: h.calls<QuoteOutput, QuoteInput>('swap.quote'),
    records: h.calls<unknown, RecordSwapInput>('swap.recordSwap'),
    watch: { send: (event: MarketEvent) => watch.emit(event) },
    emitted: h.facts as TradingFact[],
    swap,
    marketState,
  };
}

/** The market live, and the swap form quoted for 1 ETH. */
async function quoted(input: Partial<TradingInput> = {}) {
  const h = start(input);
  await settle();
  expect(h.marketState()?.value).toEqual({ live: 'following' });
  h.actor.getSnapshot().children.swap?.send({ type: 'swap.amount', text: '1' });
  // A block does not cut the pause after typing short.
  h.watch.send({ type: 'market.block', blockNumber: 6n });
  expect(h.quotes).toHaveLength(0);
  h.clock.increment(300);
  lastCall(h.quotes).resolve({ quote, holdings });
  await settle();
  expect(h.swap()?.value).toEqual({ form: { quoted: 'ready' } });
  return h;
}

describe('trading machine', () => {
  it('starts the market and the swap form with the wallet and the session it was given', async () => {
    const h = start({ account: null, chainId: null });
    await settle();
    expect(h.marketState()?.value).toEqual({ live: 'following' });
    expect(h.swap()?.value).toBe('noWallet');
    expect(h.swap()?.context).toMatchObject({ expectedChainId: CHAIN, account: null, signedIn: false });
  });

  it("hands the market's new blocks to the swap form, which re-quotes on them", async () => {
    const h = await quoted();
    h.watch.send({ type: 'market.block', blockNumber: 7n });
    expect(h.quotes).toHaveLength(2);
    expect(h.swap()?.value).toEqual({ form: { quoted: 'ready' } });
  });

  it("hands the page's wallet and session to the swap form", async () => {
    const h = start();
    h.actor.send({ type: 'wallet.changed', address: WALLET, chainId: 1 });
    expect(h.swap()?.value).toBe('wrongNetwork');
    h.actor.send({ type: 'session.changed', user: authUser('alice') });
    expect(h.swap()?.context.signedIn).toBe(true);
    h.actor.send({ type: 'wallet.changed', address: null, chainId: null });
    expect(h.swap()?.value).toBe('noWallet');
  });

  it('reports a mined swap with the amounts the receipt reports, then its saved row, for the portal to refresh', async () => {
    const h = await quoted({ signedIn: true });
    h.actor.getSnapshot().children.swap?.send({ type: 'swap.submit' });
    await settle();
    expect(h.swap()?.value).toEqual({ confirmed: 'recording' });
    expect(lastCall(h.records).input).toEqual({ hash: HASH });
    expect(h.emitted).toEqual([
      { type: 'trading.swapConfirmed', hash: HASH, side: 'buy', amountIn: E18, amountOut: 1985n * E18 },
    ]);
    lastCall(h.records).resolve(undefined);
    await settle();
    expect(h.swap()?.value).toEqual({ confirmed: 'done' });
    expect(h.emitted.at(-1)).toEqual({ type: 'trading.swapRecorded', hash: HASH });
  });
});
