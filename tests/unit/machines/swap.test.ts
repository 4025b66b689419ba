import { authUser } from '../../support/fixtures.ts';
import { describe, expect, it } from 'vitest';
import { tokenCopy, walletCopy } from '../../../src/copy/index.ts';
import { dexCopy } from '../../../src/copy/dex.ts';
import type { DexCall, Holdings, Quote, SwapResult, SwapSide } from '../../../src/domain/dex.ts';
import type { Hex } from '../../../src/domain/token.ts';
import type { WalletError } from '../../../src/domain/wallet.ts';
import { dexFailureWords, dexSendWords } from '../../../src/machines/trading/dex-words.ts';
import { needsApproval, slippageWarning } from '../../../src/machines/trading/swap-checks.ts';
import type {
  ApprovalCallInput,
  ConfirmApprovalInput,
  ConfirmSwapInput,
  QuoteInput,
  QuoteOutput,
  RecordSwapInput,
  SwapCallInput,
  SwapEvent,
  SwapInput,
} from '../../../src/machines/trading/swap-types.ts';
import { swapMachine, swapTags } from '../../../src/machines/trading/swap.machine.ts';
import { DexServiceError } from '../../../src/services/dex/types.ts';
import { lastCall, settle } from '../../support/deferred-actor.ts';
import { machineHarness } from '../../support/machines/harness.ts';

// The swap form as a user meets it, with fake actors for the router, the wallet and the history,
// on a simulated clock for the pause after typing. Each test checks what the user sees (the state,
// the words, the toasts) and what the chain and the wallet are asked (the approval's amount, the
// least output accepted).

const E18 = 10n ** 18n;
const CHAIN = 31337;
const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ROUTER = '0x7a2088a1bFc9d81c55368AE168C2C02570cB814F';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = `0x${'cd'.repeat(32)}` as const;
const APPROVAL_HASH = `0x${'ab'.repeat(32)}` as const;
const rejected: WalletError = { code: 'rejected', message: null };

const pool = { reserveEth: 100n * E18, reserveToken: 200_000n * E18, blockNumber: 5n };
const quoteOf = (side: SwapSide, amountIn: bigint, amountOut: bigint): Quote => ({
  side,
  amountIn,
  amountOut,
  priceImpactBps: 50,
  pool,
});
const plenty: Holdings = { eth: 10n * E18, token: 10_000n * E18, allowance: 10_000n * E18 };
const swapCall: DexCall = { from: WALLET, to: ROUTER, data: '0x7ff36ab5', value: E18 };
const approveCall: DexCall = { from: WALLET, to: TOKEN, data: '0x095ea7b3', value: 0n };

function start(input: Partial<SwapInput> = {}) {
  const h = machineHarness(swapMachine, {
    input: { expectedChainId: CHAIN, account: WALLET, chainId: CHAIN, signedIn: false, ...input },
  });
  const calls = {
    quote: h.calls<QuoteOutput, QuoteInput>('quote'),
    approvalCall: h.calls<DexCall, ApprovalCallInput>('approvalCall'),
    swapCall: h.calls<DexCall, SwapCallInput>('swapCall'),
    send: h.calls<Hex, DexCall>('sendTransaction'),
    confirmApproval: h.calls<bigint, ConfirmApprovalInput>('confirmApproval'),
    confirmSwap: h.calls<SwapResult, ConfirmSwapInput>('confirmSwap'),
    recordSwap: h.calls<unknown, RecordSwapInput>('recordSwap'),
  };
  const { actor, clock, snapshot } = h;
  return {
    actor,
    clock,
    /** What the swap told its parent (the trading machine): here the harness's root hears it. */
    told: h.facts,
    toasts: h.toasts,
    calls,
    snapshot,
    state: () => snapshot().value,
    context: () => snapshot().context,
    send: (event: SwapEvent) => actor.send(event),
  };
}

type Harness = ReturnType<typeof start>;

/** Types an amount and lets the pause pass: the quote is asked for. */
function type(h: Harness, text: string) {
  h.send({ type: 'swap.amount', text });
  h.clock.increment(100);
}

/** Answers the quote under way. */
async function answer(h: Harness, quote: Quote, holdings: Holdings | null = plenty) {
  lastCall(h.calls.quote, 'quote').resolve({ quote, holdings });
  await settle();
}

/** A buy of 1 ETH quoted at 2000 DDEX, ready to swap. */
async function readyToBuy(input: Partial<SwapInput> = {}) {
  const h = start(input);
  type(h, '1');
  await answer(h, quoteOf('buy', E18, 2000n * E18));
  expect(h.state()).toEqual({ form: { quoted: 'ready' } });
  return h;
}

/** The swap sent by the wallet, its receipt awaited. */
async function pendingSwap(input: Partial<SwapInput> = {}) {
  const h = await readyToBuy(input);
  h.send({ type: 'swap.submit' });
  lastCall(h.calls.swapCall).resolve(swapCall);
  await settle();
  lastCall(h.calls.send).resolve(HASH);
  await settle();
  expect(h.state()).toEqual({ swapping: 'pending' });
  h.toasts.length = 0;
  return h;
}

const mined = (amountOut = 1995n * E18): SwapResult => ({
  hash: HASH,
  side: 'buy',
  amountIn: E18,
  amountOut,
  blockNumber: 8n,
});

describe('swap machine: the wallet', () => {
  it('asks for a wallet, then for the right network, then shows the form', () => {
    const h = start({ account: null, chainId: null });
    expect(h.state()).toBe('noWallet');
    h.send({ type: 'wallet.changed', address: WALLET, chainId: 1 });
    expect(h.state()).toBe('wrongNetwork');
    h.send({ type: 'wallet.changed', address: WALLET, chainId: CHAIN });
    expect(h.state()).toEqual({ form: 'empty' });
    h.send({ type: 'wallet.changed', address: null, chainId: null });
    expect(h.state()).toBe('noWallet');
  });

  it('quotes again for a new account, at once', async () => {
    const h = await readyToBuy();
    h.send({ type: 'wallet.changed', address: OTHER, chainId: CHAIN });
    expect(h.state()).toEqual({ form: 'quoting' });
    expect(lastCall(h.calls.quote).input).toEqual({ side: 'buy', amountIn: E18, account: OTHER });
  });

  it('ignores the form while there is no wallet', () => {
    const h = start({ account: null, chainId: null });
    h.send({ type: 'swap.amount', text: '1' });
    expect(h.context().amountText).toBe('');
  });
});

describe('swap machine: the form and its quote', () => {
  it('starts empty with the default slippage and deadline, and asks for nothing', () => {
    const h = start();
    expect(h.state()).toEqual({ form: 'empty' });
    expect(h.context()).toMatchObject({
      side: 'buy',
      amountText: '',
      slippageText: '0.5',
      deadlineMinutes: 20,
      unlimitedApproval: false,
    });
    expect(h.calls.quote).toEqual([]);
  });

  it('quotes once the typing pauses for 100 ms', async () => {
    const h = start();
    h.send({ type: 'swap.amount', text: '1' });
    expect(h.state()).toEqual({ form: 'debouncing' });
    h.clock.increment(60);
    h.send({ type: 'swap.amount', text: '1.5' });
    h.clock.increment(99);
    expect(h.calls.quote).toEqual([]);
    h.clock.increment(1);
    expect(h.state()).toEqual({ form: 'quoting' });
    expect(h.calls.quote.map((call) => call.input)).toEqual([
      { side: 'buy', amountIn: (3n * E18) / 2n, account: WALLET },
    ]);
    await answer(h, quoteOf('buy', (3n * E18) / 2n, 2990n * E18));
    expect(h.state()).toEqual({ form: { quoted: 'ready' } });
    expect(h.context().quote?.amountOut).toBe(2990n * E18);
    expect(h.context().holdings).toEqual(plenty);
  });

  it('refuses a field in words and quotes nothing', () => {
    const h = start();
    h.send({ type: 'swap.amount', text: '1,5' });
    expect(h.state()).toEqual({ form: 'invalid' });
    expect(h.context().problem).toBe(dexCopy.amountInvalid);
    h.send({ type: 'swap.amount', text: '1' });
    h.send({ type: 'swap.slippage', text: 'lots' });
    expect(h.context().problem).toBe(dexCopy.slippageInvalid);
    h.send({ type: 'swap.slippage', text: '1' });
    h.send({ type: 'swap.deadline', minutes: 0 });
    expect(h.state()).toEqual({ form: 'invalid' });
    expect(h.context().problem).toBe(dexCopy.deadlineInvalid);
    h.send({ type: 'swap.amount', text: '' });
    expect(h.state()).toEqual({ form: 'empty' });
    h.clock.increment(1000);
    expect(h.calls.quote).toEqual([]);
  });

  it('takes an amount of spaces for no amount yet, and refuses nothing', () => {
    const h = start();
    h.send({ type: 'swap.amount', text: '   ' });
    expect(h.state()).toEqual({ form: 'empty' });
    expect(h.context().problem).toBeNull();
    h.clock.increment(1000);
    expect(h.calls.quote).toEqual([]);
  });

  it('re-quotes on every new block at once, keeping the form ready and the last quote meanwhile', async () => {
    const h = await readyToBuy();
    h.send({ type: 'market.block', blockNumber: 6n });
    expect(h.state()).toEqual({ form: { quoted: 'ready' } });
    expect(h.calls.quote).toHaveLength(2);
    expect(h.context().quote?.amountOut).toBe(2000n * E18);
    await answer(h, quoteOf('buy', E18, 1999n * E18));
    expect(h.state()).toEqual({ form: { quoted: 'ready' } });
    expect(h.context().quote?.amountOut).toBe(1999n * E18);
  });

  it('takes a press while a block re-quotes, and the late answer changes nothing', async () => {
    const h = await readyToBuy();
    h.send({ type: 'market.block', blockNumber: 6n });
    h.send({ type: 'swap.submit' });
    expect(h.state()).toEqual({ swapping: 'preparing' });
    expect(h.calls.swapCall).toHaveLength(1);
    await answer(h, quoteOf('buy', E18, 1000n * E18));
    expect(h.state()).toEqual({ swapping: 'preparing' });
    expect(h.context().quote?.amountOut).toBe(2000n * E18);
  });

  it('decides again on the refreshed quote: a balance spent elsewhere shows at the next block', async () => {
    const h = await readyToBuy();
    h.send({ type: 'market.block', blockNumber: 6n });
    await answer(h, quoteOf('buy', E18, 2000n * E18), { eth: 0n, token: 0n, allowance: 0n });
    expect(h.state()).toEqual({ form: { quoted: 'insufficientBalance' } });
  });

  it('asks once per block: a newer block replaces a refresh still under way', async () => {
    const h = await readyToBuy();
    h.send({ type: 'market.block', blockNumber: 6n });
    h.send({ type: 'market.block', blockNumber: 7n });
    expect(h.calls.quote).toHaveLength(3);
    await answer(h, quoteOf('buy', E18, 1998n * E18));
    expect(h.context().quote?.amountOut).toBe(1998n * E18);
  });

  it('does not quote on a block while the user types or a quote is under way', async () => {
    const h = start();
    h.send({ type: 'swap.amount', text: '1' });
    h.send({ type: 'market.block', blockNumber: 6n });
    expect(h.calls.quote).toEqual([]);
    h.clock.increment(100);
    h.send({ type: 'market.block', blockNumber: 7n });
    expect(h.calls.quote).toHaveLength(1);
  });

  it('clears the quote when the side changes, and quotes the other way', async () => {
    const h = await readyToBuy();
    h.send({ type: 'swap.side', side: 'sell' });
    expect(h.context().quote).toBeNull();
    h.clock.increment(100);
    expect(lastCall(h.calls.quote).input).toEqual({ side: 'sell', amountIn: E18, account: WALLET });
  });

  it('says when the balance is short', async () => {
    const h = start();
    type(h, '11');
    await answer(h, quoteOf('buy', 11n * E18, 1n), plenty);
    expect(h.state()).toEqual({ form: { quoted: 'insufficientBalance' } });
  });

  it('says when the pool cannot fill the amount, and tries again on the next block', async () => {
    const h = start();
    type(h, '5000');
    lastCall(h.calls.quote).reject(new DexServiceError({ code: 'insufficient-liquidity' }));
    await settle();
    expect(h.state()).toEqual({ form: 'insufficientLiquidity' });
    h.send({ type: 'market.block', blockNumber: 6n });
    expect(h.state()).toEqual({ form: 'quoting' });
  });

  it('words a failed quote and tries again on the next block', async () => {
    const h = start();
    type(h, '1');
    lastCall(h.calls.quote).reject(new DexServiceError({ code: 'rpc-unavailable' }));
    await settle();
    expect(h.state()).toEqual({ form: 'quoteFailed' });
    expect(h.context().problem).toBe(tokenCopy.rpcUnavailable);
    expect(h.toasts).toEqual([]);
    h.send({ type: 'market.block', blockNumber: 6n });
    await answer(h, quoteOf('buy', E18, 2000n * E18));
    expect(h.state()).toEqual({ form: { quoted: 'ready' } });
    expect(h.context().problem).toBeNull();
  });

  it("words a quote that failed outside the DEX service (the node's fetch) by its message", async () => {
    const h = start();
    type(h, '1');
    lastCall(h.calls.quote).reject(new TypeError('Failed to fetch'));
    await settle();
    expect(h.state()).toEqual({ form: 'quoteFailed' });
    expect(h.context().problem).toBe('Failed to fetch');
  });

  it('warns of a slippage tolerance above 1 % and refuses one above 50 %', async () => {
    const h = await readyToBuy();
    h.send({ type: 'swap.slippage', text: '2' });
    h.clock.increment(100);
    await answer(h, quoteOf('buy', E18, 2000n * E18));
    expect(h.state()).toEqual({ form: { quoted: 'ready' } });
    expect(slippageWarning(h.context())).toBe(true);
    h.send({ type: 'swap.slippage', text: '60' });
    h.clock.increment(100);
    await answer(h, quoteOf('buy', E18, 2000n * E18));
    expect(h.state()).toEqual({ form: { quoted: 'slippageRefused' } });
    h.send({ type: 'swap.submit' });
    expect(h.calls.swapCall).toEqual([]);
  });
});

describe('swap machine: approving a sale', () => {
  /** A sale of 50 DDEX with an allowance of 10. */
  async function saleNeedingApproval() {
    const h = start();
    h.send({ type: 'swap.side', side: 'sell' });
    type(h, '50');
    await answer(h, quoteOf('sell', 50n * E18, E18 / 40n), { ...plenty, allowance: 10n * E18 });
    expect(h.state()).toEqual({ form: { quoted: 'needsApproval' } });
    return h;
  }

  it('skips the approval when the allowance covers the amount', async () => {
    const h = start();
    h.send({ type: 'swap.side', side: 'sell' });
    type(h, '50');
    await answer(h, quoteOf('sell', 50n * E18, E18 / 40n), { ...plenty, allowance: 50n * E18 });
    expect(h.state()).toEqual({ form: { quoted: 'ready' } });
  });

  it('approves exactly the amount, through the wallet, then quotes again with the new allowance', async () => {
    const h = await saleNeedingApproval();
    h.send({ type: 'swap.submit' });
    expect(h.calls.swapCall).toEqual([]);
    h.send({ type: 'swap.approve' });
    expect(h.snapshot().hasTag(swapTags.waiting)).toBe(true);
    expect(lastCall(h.calls.approvalCall).input).toEqual({
      owner: WALLET,
      amount: 50n * E18,
      unlimited: false,
    });
    lastCall(h.calls.approvalCall).resolve(approveCall);
    await settle();
    expect(h.state()).toEqual({ approving: 'waitingForWallet' });
    expect(lastCall(h.calls.send).input).toEqual(approveCall);
    lastCall(h.calls.send).resolve(APPROVAL_HASH);
    await settle();
    expect(h.snapshot().hasTag(swapTags.pending)).toBe(true);
    expect(lastCall(h.calls.confirmApproval).input).toEqual({ hash: APPROVAL_HASH, owner: WALLET });
    lastCall(h.calls.confirmApproval).resolve(50n * E18);
    await settle();
    // The form knows the new allowance at once: while it quotes again, 'Approve DDEX' is not offered twice.
    expect(h.context().holdings).toEqual({ ...plenty, allowance: 50n * E18 });
    expect(needsApproval(h.context())).toBe(false);
    expect(h.toasts).toEqual([
      dexCopy.approvalPrompt,
      { title: dexCopy.approvalPending, description: dexCopy.pendingDescription(APPROVAL_HASH) },
      { title: dexCopy.approved, description: dexCopy.approvedDescription('50') },
    ]);
    expect(h.state()).toEqual({ form: 'quoting' });
    expect(h.context().hash).toBeNull();
    await answer(h, quoteOf('sell', 50n * E18, E18 / 40n), { ...plenty, allowance: 50n * E18 });
    expect(h.state()).toEqual({ form: { quoted: 'ready' } });
  });

  it('approves any amount when the user opts in', async () => {
    const h = await saleNeedingApproval();
    h.send({ type: 'swap.unlimited', on: true });
    h.send({ type: 'swap.approve' });
    expect(lastCall(h.calls.approvalCall).input).toEqual({
      owner: WALLET,
      amount: 50n * E18,
      unlimited: true,
    });
    lastCall(h.calls.approvalCall).resolve(approveCall);
    await settle();
    lastCall(h.calls.send).resolve(APPROVAL_HASH);
    await settle();
    lastCall(h.calls.confirmApproval).resolve(2n ** 256n - 1n);
    await settle();
    expect(h.toasts.at(-1)).toEqual({
      title: dexCopy.approved,
      description: dexCopy.approvedUnlimitedDescription,
    });
  });

  it('goes back to the form when the approval is rejected in the wallet', async () => {
    const h = await saleNeedingApproval();
    h.send({ type: 'swap.approve' });
    lastCall(h.calls.approvalCall).resolve(approveCall);
    await settle();
    lastCall(h.calls.send).reject(rejected);
    await settle();
    expect(h.toasts).toEqual([dexCopy.approvalPrompt, dexCopy.approvalRejected]);
    expect(h.state()).toEqual({ form: 'quoting' });
    expect(h.calls.confirmApproval).toEqual([]);
  });

  it('words an approval the wallet failed to send, warning when it may have been sent', async () => {
    for (const [error, words] of [
      [{ code: 'pending', message: null }, walletCopy.switchPending],
      [{ code: 'unknown', message: null }, `${dexCopy.walletFailed} ${dexCopy.walletMaybeSent}`],
      [new Error('relay timed out'), `relay timed out ${dexCopy.walletMaybeSent}`],
      // A wallet that fails without saying why: no refusal, so it may have sent it.
      [undefined, `${tokenCopy.unknown} ${dexCopy.walletMaybeSent}`],
    ] as const) {
      const h = await saleNeedingApproval();
      h.send({ type: 'swap.approve' });
      lastCall(h.calls.approvalCall).resolve(approveCall);
      await settle();
      lastCall(h.calls.send).reject(error);
      await settle();
      expect(h.toasts.at(-1)).toEqual({
        title: dexCopy.approvalFailed,
        description: words,
        variant: 'destructive',
      });
      expect(h.state()).toEqual({ form: 'quoting' });
    }
  });

  it('words an approval that could not be built or was not confirmed', async () => {
    const h = await saleNeedingApproval();
    h.send({ type: 'swap.approve' });
    lastCall(h.calls.approvalCall).reject(new DexServiceError({ code: 'rpc-unavailable' }));
    await settle();
    expect(h.toasts).toEqual([
      { title: dexCopy.approvalFailed, description: tokenCopy.rpcUnavailable, variant: 'destructive' },
    ]);
    await answer(h, quoteOf('sell', 50n * E18, E18 / 40n), { ...plenty, allowance: 10n * E18 });
    h.send({ type: 'swap.approve' });
    lastCall(h.calls.approvalCall).resolve(approveCall);
    await settle();
    lastCall(h.calls.send).resolve(APPROVAL_HASH);
    await settle();
    lastCall(h.calls.confirmApproval).reject(
      new DexServiceError({ code: 'not-confirmed', hash: APPROVAL_HASH }),
    );
    await settle();
    expect(h.toasts.at(-1)).toEqual({
      title: dexCopy.approvalFailed,
      description: dexCopy.notConfirmed(APPROVAL_HASH),
      variant: 'destructive',
    });
  });
});

describe('swap machine: swapping', () => {
  it('asks the router to guarantee the quote less the slippage tolerance, within the deadline', async () => {
    const h = start();
    h.send({ type: 'swap.deadline', minutes: 5 });
    h.send({ type: 'swap.slippage', text: '1' });
    type(h, '1');
    await answer(h, quoteOf('buy', E18, 2000n * E18));
    h.send({ type: 'swap.submit' });
    expect(h.state()).toEqual({ swapping: 'preparing' });
    expect(lastCall(h.calls.swapCall).input).toEqual({
      side: 'buy',
      account: WALLET,
      amountIn: E18,
      minAmountOut: 1980n * E18,
      deadlineMinutes: 5,
    });
  });

  it('sends the swap with the wallet and shows the amounts the receipt reports', async () => {
    const h = await readyToBuy();
    h.send({ type: 'swap.submit' });
    lastCall(h.calls.swapCall).resolve(swapCall);
    await settle();
    expect(h.state()).toEqual({ swapping: 'waitingForWallet' });
    expect(h.snapshot().hasTag(swapTags.waiting)).toBe(true);
    expect(lastCall(h.calls.send).input).toEqual(swapCall);
    // The form is locked meanwhile: neither typing nor a block changes what is sent.
    h.send({ type: 'swap.amount', text: '2' });
    h.send({ type: 'market.block', blockNumber: 6n });
    expect(h.calls.quote).toHaveLength(1);
    lastCall(h.calls.send).resolve(HASH);
    await settle();
    expect(h.snapshot().hasTag(swapTags.pending)).toBe(true);
    expect(h.context().hash).toBe(HASH);
    expect(lastCall(h.calls.confirmSwap).input).toEqual({ hash: HASH, side: 'buy' });
    lastCall(h.calls.confirmSwap).resolve(mined());
    await settle();
    expect(h.state()).toEqual({ confirmed: 'done' });
    expect(h.context().result).toEqual(mined());
    expect(h.toasts).toEqual([
      dexCopy.swapPrompt,
      { title: dexCopy.swapPending, description: dexCopy.pendingDescription(HASH) },
      { title: dexCopy.swapConfirmed, description: dexCopy.swapConfirmedDescription('1 ETH', '1995 DDEX') },
    ]);
    // The portal's balances and history refresh on it.
    expect(h.told).toEqual([
      { type: 'swap.confirmed', hash: HASH, side: 'buy', amountIn: E18, amountOut: 1995n * E18 },
    ]);
    // Not signed in: nothing is recorded.
    expect(h.calls.recordSwap).toEqual([]);
    h.send({ type: 'swap.dismiss' });
    expect(h.state()).toEqual({ form: 'empty' });
    expect(h.context()).toMatchObject({ amountText: '', result: null, hash: null });
  });

  it("records a signed-in user's swap in the history, with a toast when that fails", async () => {
    const h = await pendingSwap({ signedIn: true });
    lastCall(h.calls.confirmSwap).resolve(mined());
    await settle();
    expect(h.state()).toEqual({ confirmed: 'recording' });
    expect(lastCall(h.calls.recordSwap).input).toEqual({ hash: HASH });
    lastCall(h.calls.recordSwap).reject(new Error('Failed to fetch'));
    await settle();
    expect(h.state()).toEqual({ confirmed: 'done' });
    expect(h.toasts.at(-1)).toEqual({
      title: dexCopy.swapNotSaved,
      description: dexCopy.swapNotSavedDescription(HASH),
      variant: 'destructive',
    });

    const saved = await pendingSwap();
    saved.send({ type: 'session.changed', user: authUser('alice') });
    lastCall(saved.calls.confirmSwap).resolve(mined());
    await settle();
    lastCall(saved.calls.recordSwap).resolve(undefined);
    await settle();
    expect(saved.state()).toEqual({ confirmed: 'done' });
    expect(saved.toasts.map((toast) => toast.title)).toEqual([dexCopy.swapConfirmed]);
  });

  it('shows a swap rejected in the wallet, and keeps the amount for another try', async () => {
    const h = await readyToBuy();
    h.send({ type: 'swap.submit' });
    lastCall(h.calls.swapCall).resolve(swapCall);
    await settle();
    lastCall(h.calls.send).reject(rejected);
    await settle();
    expect(h.state()).toBe('rejected');
    expect(h.toasts.at(-1)).toEqual(dexCopy.swapRejected);
    expect(h.calls.confirmSwap).toEqual([]);
    h.send({ type: 'swap.dismiss' });
    expect(h.state()).toEqual({ form: 'quoting' });
    expect(h.context().amountText).toBe('1');
  });

  it("words the router's revert reason", async () => {
    for (const [reason, words] of [
      ['UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT', dexCopy.revertedSlippage],
      ['UniswapV2Router: EXPIRED', dexCopy.revertedExpired],
      ['TransferHelper: TRANSFER_FROM_FAILED', dexCopy.revertedTransferFailed],
      ['UniswapV2: K', dexCopy.revertedReason('UniswapV2: K')],
      [null, dexCopy.reverted],
    ] as const) {
      const h = await pendingSwap();
      lastCall(h.calls.confirmSwap).reject(new DexServiceError({ code: 'reverted', hash: HASH, reason }));
      await settle();
      expect(h.state()).toBe('reverted');
      expect(h.context().problem).toBe(words);
      expect(h.toasts).toEqual([{ title: dexCopy.swapReverted, description: words, variant: 'destructive' }]);
      expect(h.told).toEqual([]);
    }
  });

  it('words any other failure: no receipt in time with the hash, the node down, the wallet failing', async () => {
    const late = await pendingSwap();
    lastCall(late.calls.confirmSwap).reject(new DexServiceError({ code: 'not-confirmed', hash: HASH }));
    await settle();
    expect(late.state()).toBe('failed');
    expect(late.context().problem).toBe(dexCopy.notConfirmed(HASH));
    expect(late.toasts).toEqual([
      { title: dexCopy.swapFailed, description: dexCopy.notConfirmed(HASH), variant: 'destructive' },
    ]);

    const down = await readyToBuy();
    down.send({ type: 'swap.submit' });
    lastCall(down.calls.swapCall).reject(new DexServiceError({ code: 'insufficient-balance', asset: 'ETH' }));
    await settle();
    expect(down.state()).toBe('failed');
    expect(down.context().problem).toBe(dexCopy.insufficientBalanceOf('ETH'));

    const wallet = await readyToBuy();
    wallet.send({ type: 'swap.submit' });
    lastCall(wallet.calls.swapCall).resolve(swapCall);
    await settle();
    lastCall(wallet.calls.send).reject({ code: 'unknown', message: 'Internal JSON-RPC error.' });
    await settle();
    expect(wallet.state()).toBe('failed');
    expect(wallet.context().problem).toBe(`Internal JSON-RPC error. ${dexCopy.walletMaybeSent}`);
    wallet.send({ type: 'swap.dismiss' });
    expect(wallet.state()).toEqual({ form: 'quoting' });

    const silent = await readyToBuy();
    silent.send({ type: 'swap.submit' });
    lastCall(silent.calls.swapCall).resolve(swapCall);
    await settle();
    lastCall(silent.calls.send).reject(undefined);
    await settle();
    expect(silent.state()).toBe('failed');
    expect(silent.context().problem).toBe(`${tokenCopy.unknown} ${dexCopy.walletMaybeSent}`);

    // The receipt could not be fetched: no revert, the fetch's own words.
    const offline = await pendingSwap();
    lastCall(offline.calls.confirmSwap).reject(new TypeError('Failed to fetch'));
    await settle();
    expect(offline.state()).toBe('failed');
    expect(offline.toasts).toEqual([
      { title: dexCopy.swapFailed, description: 'Failed to fetch', variant: 'destructive' },
    ]);
  });

  it('follows a swap under way to its outcome when the wallet changes, then shows the new wallet', async () => {
    const h = await pendingSwap();
    h.send({ type: 'wallet.changed', address: null, chainId: null });
    expect(h.state()).toEqual({ swapping: 'pending' });
    lastCall(h.calls.confirmSwap).resolve(mined());
    await settle();
    h.send({ type: 'wallet.changed', address: WALLET, chainId: 1 });
    expect(h.state()).toEqual({ confirmed: 'done' });
    h.send({ type: 'swap.dismiss' });
    expect(h.state()).toBe('wrongNetwork');
  });
});

describe('swap machine: a slippage tolerance above 5 %', () => {
  /** A buy of 1 ETH quoted at 2000 DDEX with the tolerance typed, ready to swap. */
  async function readyWith(slippageText: string) {
    const h = start();
    h.send({ type: 'swap.slippage', text: slippageText });
    type(h, '1');
    await answer(h, quoteOf('buy', E18, 2000n * E18));
    expect(h.state()).toEqual({ form: { quoted: 'ready' } });
    return h;
  }

  it('asks the person to confirm it before the wallet is asked anything', async () => {
    const h = await readyWith('10');
    h.send({ type: 'swap.submit' });
    expect(h.state()).toBe('confirmingHighSlippage');
    expect(h.calls.swapCall).toEqual([]);
    expect(h.calls.send).toEqual([]);
    expect(h.toasts).toEqual([]);
    expect(h.context().order).toBeNull();
    // Nothing changes under the question: the fields are locked, a block asks for no new quote.
    h.send({ type: 'swap.amount', text: '2' });
    h.send({ type: 'swap.slippage', text: '1' });
    h.send({ type: 'market.block', blockNumber: 6n });
    expect(h.state()).toBe('confirmingHighSlippage');
    expect(h.context()).toMatchObject({ amountText: '1', slippageText: '10' });
    expect(h.calls.quote).toHaveLength(1);
  });

  it('swaps at once at exactly 5 %, as below it', async () => {
    for (const text of ['5', '5.00', '2']) {
      const h = await readyWith(text);
      h.send({ type: 'swap.submit' });
      expect(h.state(), text).toEqual({ swapping: 'preparing' });
      expect(h.calls.swapCall).toHaveLength(1);
    }
  });

  it('asks just above 5 % and up to 50 %, and never past the 50 % refused', async () => {
    for (const text of ['5.01', '50']) {
      const h = await readyWith(text);
      h.send({ type: 'swap.submit' });
      expect(h.state(), text).toBe('confirmingHighSlippage');
    }
    const h = start();
    h.send({ type: 'swap.slippage', text: '50.01' });
    type(h, '1');
    await answer(h, quoteOf('buy', E18, 2000n * E18));
    h.send({ type: 'swap.submit' });
    expect(h.state()).toEqual({ form: { quoted: 'slippageRefused' } });
  });

  it('goes on as a press of Swap would once confirmed: the same order, then the wallet', async () => {
    const h = await readyWith('10');
    h.send({ type: 'swap.deadline', minutes: 5 });
    h.clock.increment(100);
    await answer(h, quoteOf('buy', E18, 2000n * E18));
    h.send({ type: 'swap.submit' });
    expect(h.state()).toBe('confirmingHighSlippage');
    expect(h.calls.swapCall).toEqual([]);
    h.send({ type: 'swap.confirmSlippage' });
    expect(h.state()).toEqual({ swapping: 'preparing' });
    expect(h.calls.swapCall.map((call) => call.input)).toEqual([
      { side: 'buy', account: WALLET, amountIn: E18, minAmountOut: 1800n * E18, deadlineMinutes: 5 },
    ]);
    lastCall(h.calls.swapCall).resolve(swapCall);
    await settle();
    expect(h.state()).toEqual({ swapping: 'waitingForWallet' });
    expect(h.calls.send.map((call) => call.input)).toEqual([swapCall]);
    expect(h.toasts).toEqual([dexCopy.swapPrompt]);
    lastCall(h.calls.send).resolve(HASH);
    await settle();
    lastCall(h.calls.confirmSwap).resolve(mined(1800n * E18));
    await settle();
    expect(h.state()).toEqual({ confirmed: 'done' });
  });

  it('goes back to the form on cancel, with everything typed and the quote kept, the wallet not asked', async () => {
    const h = start();
    h.send({ type: 'swap.side', side: 'sell' });
    h.send({ type: 'swap.unlimited', on: true });
    h.send({ type: 'swap.deadline', minutes: 7 });
    h.send({ type: 'swap.slippage', text: '12.5' });
    type(h, '50');
    await answer(h, quoteOf('sell', 50n * E18, E18 / 40n));
    const typed = { ...h.context() };
    h.send({ type: 'swap.submit' });
    expect(h.state()).toBe('confirmingHighSlippage');
    h.send({ type: 'swap.cancel' });
    expect(h.state()).toEqual({ form: { quoted: 'ready' } });
    expect(h.context()).toEqual(typed);
    expect(h.calls.quote).toHaveLength(1);
    expect(h.calls.swapCall).toEqual([]);
    expect(h.calls.send).toEqual([]);
    expect(h.toasts).toEqual([]);
    // A lower tolerance then swaps without the question.
    h.send({ type: 'swap.slippage', text: '5' });
    h.clock.increment(100);
    await answer(h, quoteOf('sell', 50n * E18, E18 / 40n));
    h.send({ type: 'swap.submit' });
    expect(h.state()).toEqual({ swapping: 'preparing' });
  });

  it('leaves the question for the new wallet when the wallet changes', async () => {
    const h = await readyWith('10');
    h.send({ type: 'swap.submit' });
    h.send({ type: 'wallet.changed', address: WALLET, chainId: 1 });
    expect(h.state()).toBe('wrongNetwork');
    expect(h.calls.swapCall).toEqual([]);
    expect(h.context().slippageText).toBe('10');
  });
});

describe('swap machine: the words of a failure', () => {
  it('words each problem of the DEX service', () => {
    const words = (problem: ConstructorParameters<typeof DexServiceError>[0]) =>
      dexFailureWords(new DexServiceError(problem));
    expect(words({ code: 'no-pair' })).toBe(dexCopy.noPair);
    expect(words({ code: 'no-router' })).toBe(dexCopy.noRouter);
    expect(words({ code: 'wrong-chain', expected: CHAIN, actual: 1 })).toBe(tokenCopy.wrongChain(1, CHAIN));
    expect(words({ code: 'insufficient-liquidity' })).toBe(dexCopy.insufficientLiquidity);
    expect(words({ code: 'insufficient-balance', asset: 'DDEX' })).toBe(
      dexCopy.insufficientBalanceOf('DDEX'),
    );
    expect(words({ code: 'not-confirmed', hash: HASH })).toBe(dexCopy.notConfirmed(HASH));
    expect(words({ code: 'rpc-unavailable' })).toBe(tokenCopy.rpcUnavailable);
    expect(words({ code: 'unknown' })).toBe(tokenCopy.unknown);
    expect(words({ code: 'reverted', hash: null, reason: '  ' })).toBe(dexCopy.reverted);
  });

  it('words the wallet, and warns only when it may have sent the transaction', () => {
    expect(dexSendWords(rejected)).toBe(dexCopy.walletRejected);
    expect(dexSendWords({ code: 'wrong-chain', message: null })).toBe(dexCopy.walletWrongChain);
    expect(dexSendWords({ code: 'not-installed', message: null })).toBe(walletCopy.notInstalled);
    // The node refused the wallet's nonce: nothing was sent, and the words say how to clear it.
    expect(dexSendWords({ code: 'nonce-ahead', message: null })).toBe(walletCopy.nonceAhead);
    expect(dexSendWords({ code: 'invalid-answer', message: null })).toBe(
      `${walletCopy.invalidAnswer} ${dexCopy.walletMaybeSent}`,
    );
    expect(dexSendWords('timeout')).toBe(`${tokenCopy.unknown} ${dexCopy.walletMaybeSent}`);
  });

  it('reads a failure revived from the event journal as the one it was', async () => {
    const h = await pendingSwap();
    const revived = JSON.parse(
      JSON.stringify(
        new DexServiceError({ code: 'reverted', hash: HASH, reason: 'UniswapV2Router: EXPIRED' }),
      ),
    ) as unknown;
    expect(revived).not.toBeInstanceOf(DexServiceError);
    lastCall(h.calls.confirmSwap).reject(revived);
    await settle();
    expect(h.state()).toBe('reverted');
    expect(h.context().problem).toBe(dexCopy.revertedExpired);
  });
});
