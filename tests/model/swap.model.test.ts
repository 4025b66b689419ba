import { expect } from 'vitest';
import type { AnyEventObject, EventObject, SnapshotFrom } from 'xstate';
import { tokenCopy } from '../../src/copy/index.ts';
import { dexCopy } from '../../src/copy/dex.ts';
import type { DexCall, Holdings, Quote, SwapResult } from '../../src/domain/dex.ts';
import type { WalletError } from '../../src/domain/wallet.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { balanceText, quoteFigures, slippageWarning } from '../../src/machines/trading/swap-checks.ts';
import type { SwapFact } from '../../src/machines/trading/swap-types.ts';
import { swapMachine, swapTags } from '../../src/machines/trading/swap.machine.ts';
import { DexServiceError } from '../../src/services/dex/types.ts';
import { errorOf, reversed, withBigIntJson } from '../support/model/recorders.ts';
import { describeModel, inState, type ModelStep } from '../support/model/index.ts';
import { stableJson, childIds } from '../support/model/paths.ts';

// The swap form's generated paths: the wallet's routing, typing and its pause, the quote and the
// checks on it (balance, liquidity, slippage, allowance), the approval, the swap through the
// wallet and each outcome. Each step checks what the user sees (the state, the tags, the words,
// the toasts, the figures under a quote) and what the router and the wallet are asked: the
// approval's amount, the least output accepted, the call sent, the receipt awaited.
//
// The model predicts each state from the machine itself, so a wrong check on a quote would be
// predicted too: the assertions below decide, from the tables of this file, which state the form
// must be in and what it must say.

type Snapshot = SnapshotFrom<typeof swapMachine>;

const E18 = 10n ** 18n;
const CHAIN = 31337;
const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ROUTER = '0x7a2088a1bFc9d81c55368AE168C2C02570cB814F';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = `0x${'cd'.repeat(32)}` as const;
const APPROVAL_HASH = `0x${'ab'.repeat(32)}` as const;

const quote: Quote = {
  side: 'buy',
  amountIn: E18,
  amountOut: 2000n * E18,
  priceImpactBps: 105,
  pool: { reserveEth: 100n * E18, reserveToken: 200_000n * E18, blockNumber: 5n },
};
/**
 * The holdings a quote may come with, for an amount of 1 on either side: exactly enough of
 * everything, one asset only, no allowance. With each, where the form goes on a buy and on a sale
 * (the balance is checked first, then the slippage, then the allowance), and the balance it shows.
 */
const holdings = {
  exact: {
    held: { eth: E18, token: E18, allowance: E18 },
    then: { buy: 'ready', sell: 'ready' },
    shows: { buy: '1 ETH', sell: '1 DDEX' },
  },
  ethOnly: {
    held: { eth: 10n * E18, token: 0n, allowance: 10n * E18 },
    then: { buy: 'ready', sell: 'insufficientBalance' },
    shows: { buy: '10 ETH', sell: '0 DDEX' },
  },
  tokenOnly: {
    held: { eth: 0n, token: 10n * E18, allowance: 10n * E18 },
    then: { buy: 'insufficientBalance', sell: 'ready' },
    shows: { buy: '0 ETH', sell: '10 DDEX' },
  },
  unapproved: {
    held: { eth: 10n * E18, token: 10n * E18, allowance: 0n },
    then: { buy: 'ready', sell: 'needsApproval' },
    shows: { buy: '10 ETH', sell: '10 DDEX' },
  },
} satisfies Record<
  string,
  { held: Holdings; then: Record<'buy' | 'sell', string>; shows: Record<'buy' | 'sell', string> }
>;
/**
 * The slippage tolerances typed: the default, one that warns, one above 5 % that 'Swap' asks the
 * person to confirm first, one just past the 50 % refused; with the least output each accepts of
 * the quote's 2000 DDEX (2000 × 0.995, × 0.98, × 0.9, × 0.4999).
 */
const slippages = {
  '0.5': { warns: false, confirms: false, refused: false, minimum: 1990n * E18, shows: '1990 DDEX' },
  '2': { warns: true, confirms: false, refused: false, minimum: 1960n * E18, shows: '1960 DDEX' },
  '10': { warns: true, confirms: true, refused: false, minimum: 1800n * E18, shows: '1800 DDEX' },
  '50.01': { warns: false, confirms: false, refused: true, minimum: 9998n * 10n ** 17n, shows: '999.8 DDEX' },
} as const;
const slippageOf = (s: Snapshot) => slippages[s.context.slippageText as keyof typeof slippages];
/** The amounts typed, and the words refusing those refused. */
const amounts: Record<string, ((side: 'buy' | 'sell') => string) | null> = {
  '1': null,
  '1,5': () => dexCopy.amountInvalid,
  '0': (side) => dexCopy.amountTooSmall(side === 'buy' ? 'ETH' : 'DDEX'),
  '1.0000000000000000001': () => dexCopy.amountTooManyDecimals,
};
const approveCall: DexCall = { from: WALLET, to: TOKEN, data: '0x095ea7b3', value: 0n };
const swapCall: DexCall = { from: WALLET, to: ROUTER, data: '0x7ff36ab5', value: E18 };
const mined: SwapResult = { hash: HASH, side: 'buy', amountIn: E18, amountOut: 1995n * E18, blockNumber: 8n };
const rejected: WalletError = { code: 'rejected', message: null };
const walletBroke: WalletError = { code: 'unknown', message: null };
const nodeDown = new DexServiceError({ code: 'rpc-unavailable' });
/** The node's fetch failing outside the DEX service. */
const offline = new TypeError('Failed to fetch');
const late = new DexServiceError({ code: 'not-confirmed', hash: HASH });
const slipped = new DexServiceError({
  code: 'reverted',
  hash: HASH,
  reason: 'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT',
});
const short = new DexServiceError({ code: 'insufficient-balance', asset: 'ETH' });

const destructive = (title: string, description: string): ToastRequest => ({
  title,
  description,
  variant: 'destructive',
});

type Step = ModelStep<typeof swapMachine>;

/** The toasts a step's event must show, given the state it came from and the one it reached. */
function toastsFor(event: EventObject, from: Snapshot, to: Snapshot): ToastRequest[] {
  const error = errorOf(event);
  switch (event.type) {
    case 'xstate.done.actor.approvalCall':
      return [dexCopy.approvalPrompt];
    case 'xstate.error.actor.approvalCall':
    case 'xstate.error.actor.confirmApproval':
      return [
        destructive(
          dexCopy.approvalFailed,
          error === late ? dexCopy.notConfirmed(HASH) : tokenCopy.rpcUnavailable,
        ),
      ];
    case 'xstate.done.actor.sendApproval':
      return [{ title: dexCopy.approvalPending, description: dexCopy.pendingDescription(APPROVAL_HASH) }];
    case 'xstate.error.actor.sendApproval':
      return error === rejected
        ? [dexCopy.approvalRejected]
        : [destructive(dexCopy.approvalFailed, `${dexCopy.walletFailed} ${dexCopy.walletMaybeSent}`)];
    case 'xstate.done.actor.confirmApproval':
      return [
        {
          title: dexCopy.approved,
          description: from.context.unlimitedApproval
            ? dexCopy.approvedUnlimitedDescription
            : dexCopy.approvedDescription('1'),
        },
      ];
    case 'xstate.done.actor.swapCall':
      return [dexCopy.swapPrompt];
    case 'xstate.error.actor.swapCall':
      return [destructive(dexCopy.swapFailed, dexCopy.insufficientBalanceOf('ETH'))];
    case 'xstate.done.actor.sendSwap':
      return [{ title: dexCopy.swapPending, description: dexCopy.pendingDescription(HASH) }];
    case 'xstate.error.actor.sendSwap':
      // A wallet failing without a reason is no refusal: it may have sent the swap.
      return error === rejected
        ? [dexCopy.swapRejected]
        : [destructive(dexCopy.swapFailed, `${tokenCopy.unknown} ${dexCopy.walletMaybeSent}`)];
    case 'xstate.done.actor.confirmSwap':
      return [
        { title: dexCopy.swapConfirmed, description: dexCopy.swapConfirmedDescription('1 ETH', '1995 DDEX') },
      ];
    case 'xstate.error.actor.confirmSwap':
      return to.matches('reverted')
        ? [destructive(dexCopy.swapReverted, dexCopy.revertedSlippage)]
        : [destructive(dexCopy.swapFailed, offline.message)];
    case 'xstate.error.actor.recordSwap':
      return [destructive(dexCopy.swapNotSaved, dexCopy.swapNotSavedDescription(HASH))];
    default:
      return [];
  }
}

const inForm = (s: Snapshot) => s.matches('form');
const busy = (s: Snapshot) => s.matches('approving') || s.matches('swapping');

function everyStep(snapshot: Snapshot, { before, events, toasts: shown, facts }: Step) {
  const { context } = snapshot;
  if (!before) {
    // An empty form, with the default slippage tolerance and deadline and an exact approval.
    expect(context).toMatchObject({
      side: 'buy',
      amountText: '',
      slippageText: '0.5',
      deadlineMinutes: 20,
      unlimitedApproval: false,
      quote: null,
      holdings: null,
    });
    expect(shown).toEqual([]);
    return;
  }
  const from = before;
  expect(shown, `the toasts after ${events.map((e) => e.type).join(', ')}`).toEqual(
    events.flatMap((event) => toastsFor(event, from, snapshot)),
  );
  // The trading machine hears of a swap mined, with what the receipt reports, of its row saved,
  // and of nothing else.
  const minedNow = events.some((event) => event.type === 'xstate.done.actor.confirmSwap');
  const savedNow = events.some((event) => event.type === 'xstate.done.actor.recordSwap');
  expect(facts as SwapFact[]).toEqual([
    ...(minedNow
      ? [{ type: 'swap.confirmed', hash: HASH, side: 'buy', amountIn: E18, amountOut: 1995n * E18 }]
      : []),
    ...(savedNow ? [{ type: 'swap.recorded', hash: HASH }] : []),
  ]);
  // The button reads 'Waiting for your wallet...' while the call is built and shown, and the
  // pending words once it is sent.
  const waiting = [
    'approving.preparing',
    'approving.waitingForWallet',
    'swapping.preparing',
    'swapping.waitingForWallet',
  ];
  expect(snapshot.hasTag(swapTags.waiting)).toBe(waiting.some((state) => inState(snapshot, state)));
  expect(snapshot.hasTag(swapTags.pending)).toBe(
    inState(snapshot, 'approving.pending') || inState(snapshot, 'swapping.pending'),
  );
  // Nothing of a transaction is left over once the form is back.
  if (inForm(snapshot) || snapshot.matches('noWallet') || snapshot.matches('wrongNetwork'))
    expect(context).toMatchObject({ call: null, order: null, hash: null, result: null });
  // The form knows the new allowance at once: 'Approve DDEX' is not offered again while it re-quotes.
  if (events.some((event) => event.type === 'xstate.done.actor.confirmApproval'))
    expect(context.holdings).toEqual({ ...from.context.holdings, allowance: E18 });
  if (inForm(snapshot)) expectForm(snapshot);
  // 'Swap' on a tolerance above 5 % asks first; at most 5 % it goes to the wallet at once.
  if (events.some((event) => event.type === 'swap.submit') && inState(before, 'form.quoted.ready'))
    expect(snapshot.value).toEqual(
      slippageOf(before).confirms ? 'confirmingHighSlippage' : { swapping: 'preparing' },
    );
  // Cancelled: the form again as it was, every field and the quote kept, nothing asked meanwhile.
  if (events.some((event) => event.type === 'swap.cancel')) {
    expect(snapshot.value).toEqual({ form: { quoted: 'ready' } });
    expect(context).toEqual(before.context);
  }
  // A busy form is locked: what the user typed stays as it was.
  if (busy(before) && busy(snapshot))
    expect(context).toMatchObject({ side: before.context.side, amountText: before.context.amountText });
}

/** Where the form is and what it says, from what was typed and what the last quote came with. */
function expectForm(snapshot: Snapshot) {
  const { context } = snapshot;
  const { side } = context;
  if (context.amountText === '') {
    expect(snapshot.value).toEqual({ form: 'empty' });
    expect(context.problem).toBeNull();
    return;
  }
  // A field refused: the amount's words first, then the deadline's.
  const refusal =
    amounts[context.amountText]?.(side) ?? (context.deadlineMinutes === 0 ? dexCopy.deadlineInvalid : null);
  if (refusal !== null) {
    expect(snapshot.value).toEqual({ form: 'invalid' });
    expect(context.problem).toBe(refusal);
    return;
  }
  expect(context.problem).toBe(inState(snapshot, 'form.quoteFailed') ? offline.message : null);
  if (!inState(snapshot, 'form.quoted')) return;
  const answer = Object.values(holdings).find(({ held }) => held === context.holdings);
  const slippage = slippages[context.slippageText as keyof typeof slippages];
  const then = answer?.then[side];
  expect(snapshot.value).toEqual({
    form: { quoted: then !== 'insufficientBalance' && slippage.refused ? 'slippageRefused' : then },
  });
  // The figures under the quote: 2000 DDEX, the least accepted, a price impact of 1.05 %.
  expect(context.quote).toEqual(quote);
  expect(quoteFigures(context.quote as Quote, context.slippageText)).toEqual({
    amountOut: '2000 DDEX',
    amountOutValue: '2000',
    minimumReceived: slippage.shows,
    priceImpact: dexCopy.percent('1.05'),
    impact: 'medium',
    impactWords: dexCopy.impact.medium,
  });
  expect(balanceText(side, context.holdings)).toBe(dexCopy.balance(answer?.shows[side] ?? ''));
  expect(slippageWarning(context)).toBe(slippage.warns);
}

const states = {
  '*': everyStep,
  noWallet: (s: Snapshot) => expect(s.context.account).toBeNull(),
  // The question before the wallet: on a quote, at a tolerance that asks, with nothing ordered yet.
  confirmingHighSlippage: (s: Snapshot) => {
    expect(slippageOf(s).confirms).toBe(true);
    expect(s.context).toMatchObject({ quote, order: null, call: null, hash: null });
  },
  wrongNetwork: (s: Snapshot) => expect(s.context.chainId).not.toBe(CHAIN),
  // The router is asked for the amount typed, for the account connected.
  'form.quoting': (s: Snapshot, { inputOf }: Step) =>
    expect(inputOf('quote')).toEqual({ side: s.context.side, amountIn: E18, account: WALLET }),
  // The approval is for exactly the amount, unless the user opted for unlimited.
  'approving.preparing': (s: Snapshot, { inputOf }: Step) =>
    expect(inputOf('approvalCall')).toEqual({
      owner: WALLET,
      amount: E18,
      unlimited: s.context.unlimitedApproval,
    }),
  'approving.waitingForWallet': (_: Snapshot, { inputOf }: Step) =>
    expect(inputOf('sendApproval')).toEqual(approveCall),
  'approving.pending': (_: Snapshot, { inputOf }: Step) =>
    expect(inputOf('confirmApproval')).toEqual({ hash: APPROVAL_HASH, owner: WALLET }),
  // The router must give at least the quote less the slippage tolerance, within 20 minutes.
  'swapping.preparing': (s: Snapshot, { inputOf }: Step) =>
    expect(inputOf('swapCall')).toEqual({
      side: s.context.side,
      account: WALLET,
      amountIn: E18,
      minAmountOut: slippageOf(s).minimum,
      deadlineMinutes: 20,
    }),
  'swapping.waitingForWallet': (_: Snapshot, { inputOf }: Step) =>
    expect(inputOf('sendSwap')).toEqual(swapCall),
  'swapping.pending': (s: Snapshot, { inputOf }: Step) =>
    expect(inputOf('confirmSwap')).toEqual({ hash: HASH, side: s.context.side }),
  // The amounts the receipt reports; the next swap starts from an empty amount.
  confirmed: (s: Snapshot) => expect(s.context).toMatchObject({ result: mined, amountText: '', quote: null }),
  'confirmed.recording': (_: Snapshot, { inputOf }: Step) =>
    expect(inputOf('recordSwap')).toEqual({ hash: HASH }),
  rejected: (s: Snapshot) => expect(s.context.hash).toBeNull(),
  reverted: (s: Snapshot) => expect(s.context.problem).toBe(dexCopy.revertedSlippage),
};

/**
 * Signed out, and signed in with every payload list reversed: the paths take the first payload
 * that reaches a transition, so the second model meets the other holdings, tolerances, amounts and
 * failures on its way.
 */
function model(signedIn: boolean) {
  const events = payloads(signedIn);
  describeModel({
    name: 'swap',
    machine: swapMachine,
    input: { expectedChainId: CHAIN, account: WALLET, chainId: CHAIN, signedIn },
    // What decides where the form goes next. The holdings are read afresh with every quote and
    // only its checks read them; the rest (the quote shown, the call, the hash) follows the state.
    serializeState: (s) => {
      const { side, amountText, slippageText, deadlineMinutes, account, chainId, unlimitedApproval } =
        s.context;
      return stableJson({
        value: s.value,
        side,
        amountText,
        slippageText,
        deadlineMinutes,
        account,
        chainId,
        unlimitedApproval,
        // A block's background re-quote is a child of its own: its answer is an edge only then.
        children: childIds(s),
      });
    },
    events: signedIn ? reversed(events) : events,
    states,
  });
}

function payloads(signedIn: boolean): Record<string, AnyEventObject[]> {
  return {
    'wallet.changed': [
      { type: 'wallet.changed', address: WALLET, chainId: CHAIN },
      { type: 'wallet.changed', address: null, chainId: null },
      { type: 'wallet.changed', address: WALLET, chainId: 1 },
    ],
    // The session this model starts with: signed in or not, the other model the other.
    'session.changed': [{ type: 'session.changed', signedIn }],
    'swap.side': [
      { type: 'swap.side', side: 'sell' },
      { type: 'swap.side', side: 'buy' },
    ],
    'swap.amount': [...Object.keys(amounts), ''].map((text) => ({ type: 'swap.amount', text })),
    'swap.slippage': ['50.01', '10', '2', '0.5'].map((text) => ({ type: 'swap.slippage', text })),
    'swap.deadline': [
      { type: 'swap.deadline', minutes: 0 },
      { type: 'swap.deadline', minutes: 20 },
    ],
    'swap.unlimited': [{ type: 'swap.unlimited', on: true }],
    'market.block': [{ type: 'market.block', blockNumber: 6n }],
    'xstate.done.actor.quote': Object.values(holdings).map(({ held }) => ({
      type: 'xstate.done.actor.quote',
      output: { quote, holdings: held },
    })),
    'xstate.error.actor.quote': [
      { type: 'xstate.error.actor.quote', error: new DexServiceError({ code: 'insufficient-liquidity' }) },
      { type: 'xstate.error.actor.quote', error: offline },
    ],
    'xstate.done.actor.approvalCall': [{ type: 'xstate.done.actor.approvalCall', output: approveCall }],
    'xstate.error.actor.approvalCall': [{ type: 'xstate.error.actor.approvalCall', error: nodeDown }],
    'xstate.done.actor.sendApproval': [{ type: 'xstate.done.actor.sendApproval', output: APPROVAL_HASH }],
    'xstate.error.actor.sendApproval': [
      { type: 'xstate.error.actor.sendApproval', error: rejected },
      { type: 'xstate.error.actor.sendApproval', error: walletBroke },
    ],
    'xstate.done.actor.confirmApproval': [{ type: 'xstate.done.actor.confirmApproval', output: E18 }],
    'xstate.error.actor.confirmApproval': [{ type: 'xstate.error.actor.confirmApproval', error: late }],
    'xstate.done.actor.swapCall': [{ type: 'xstate.done.actor.swapCall', output: swapCall }],
    'xstate.error.actor.swapCall': [{ type: 'xstate.error.actor.swapCall', error: short }],
    'xstate.done.actor.sendSwap': [{ type: 'xstate.done.actor.sendSwap', output: HASH }],
    'xstate.error.actor.sendSwap': [
      { type: 'xstate.error.actor.sendSwap', error: rejected },
      { type: 'xstate.error.actor.sendSwap', error: undefined },
    ],
    'xstate.done.actor.confirmSwap': [{ type: 'xstate.done.actor.confirmSwap', output: mined }],
    'xstate.error.actor.confirmSwap': [
      { type: 'xstate.error.actor.confirmSwap', error: slipped },
      { type: 'xstate.error.actor.confirmSwap', error: offline },
    ],
    'xstate.done.actor.recordSwap': [{ type: 'xstate.done.actor.recordSwap', output: undefined }],
    'xstate.error.actor.recordSwap': [
      { type: 'xstate.error.actor.recordSwap', error: new Error('Failed to fetch') },
    ],
  };
}

withBigIntJson(() => {
  model(false);
  model(true);
});
