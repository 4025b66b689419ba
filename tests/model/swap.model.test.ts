import { beforeEach, expect } from 'vitest';
import type { AnyMachineSnapshot, EventObject, SnapshotFrom } from 'xstate';
import { tokenCopy } from '../../src/copy/index.ts';
import { dexCopy } from '../../src/copy/dex.ts';
import type { DexCall, Holdings, Quote, SwapResult } from '../../src/domain/dex.ts';
import type { WalletError } from '../../src/domain/wallet.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { formProblem, minimumReceived } from '../../src/machines/swap-checks.ts';
import type { SwapFact } from '../../src/machines/swap-types.ts';
import { swapMachine, swapTags } from '../../src/machines/swap.machine.ts';
import { DexServiceError } from '../../src/services/dex/types.ts';
import { actionRecorder, errorOf, eventRecorder, inputOf, withBigIntJson } from './recorders.ts';
import { describeModel } from './support/index.ts';
import { stableJson } from './support/paths.ts';

// The swap form's generated paths: the wallet's routing, typing and its pause, the quote and the
// checks on it (balance, liquidity, slippage, allowance), the approval, the swap through the
// wallet and each outcome. Each step checks what the user sees (the state, the tags, the words,
// the toasts) and what the router and the wallet are asked: the approval's amount, the least
// output accepted, the call sent, the receipt awaited.

type Snapshot = SnapshotFrom<typeof swapMachine>;

/** `matches` for a dotted state path, as the model's `states` keys name states. */
const inState = (snapshot: AnyMachineSnapshot, path: string): boolean => snapshot.matches(path);

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
  priceImpactBps: 50,
  pool: { reserveEth: 100n * E18, reserveToken: 200_000n * E18, blockNumber: 5n },
};
/** One answer per branch of the checks on a quote: enough of everything, too little, no allowance. */
const holdings = {
  plenty: { eth: 10n * E18, token: 10n * E18, allowance: 10n * E18 },
  poor: { eth: 0n, token: 0n, allowance: 10n * E18 },
  unapproved: { eth: 10n * E18, token: 10n * E18, allowance: 0n },
} satisfies Record<string, Holdings>;
const approveCall: DexCall = { from: WALLET, to: TOKEN, data: '0x095ea7b3', value: 0n };
const swapCall: DexCall = { from: WALLET, to: ROUTER, data: '0x7ff36ab5', value: E18 };
const mined: SwapResult = { hash: HASH, side: 'buy', amountIn: E18, amountOut: 1995n * E18, blockNumber: 8n };
const rejected: WalletError = { code: 'rejected', message: null };
const walletBroke: WalletError = { code: 'unknown', message: null };
const nodeDown = new DexServiceError({ code: 'rpc-unavailable' });
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

const received = eventRecorder();
const toasts = actionRecorder<ToastRequest>();
const told = actionRecorder<SwapFact>();
let before: Snapshot | null = null;
let latest: Snapshot | null = null;

beforeEach(() => {
  if (latest) received.take(latest);
  toasts.take();
  told.take();
  before = null;
  latest = null;
});

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
      return error === rejected
        ? [dexCopy.swapRejected]
        : [destructive(dexCopy.swapFailed, `${dexCopy.walletFailed} ${dexCopy.walletMaybeSent}`)];
    case 'xstate.done.actor.confirmSwap':
      return [
        { title: dexCopy.swapConfirmed, description: dexCopy.swapConfirmedDescription('1 ETH', '1995 DDEX') },
      ];
    case 'xstate.error.actor.confirmSwap':
      return to.matches('reverted')
        ? [destructive(dexCopy.swapReverted, dexCopy.revertedSlippage)]
        : [destructive(dexCopy.swapFailed, dexCopy.notConfirmed(HASH))];
    case 'xstate.error.actor.recordSwap':
      return [destructive(dexCopy.swapNotSaved, dexCopy.swapNotSavedDescription(HASH))];
    default:
      return [];
  }
}

const inForm = (s: Snapshot) => s.matches('form');
const busy = (s: Snapshot) => s.matches('approving') || s.matches('swapping');

function everyStep(snapshot: Snapshot) {
  before = latest;
  latest = snapshot;
  const events = received.take(snapshot);
  const shown = toasts.take().map(({ params }) => params);
  const facts = told.take().map(({ params }) => params);
  const { context } = snapshot;
  if (!before) {
    expect(shown).toEqual([]);
    return;
  }
  const from = before;
  expect(shown, `the toasts after ${events.map((e) => e.type).join(', ')}`).toEqual(
    events.flatMap((event) => toastsFor(event, from, snapshot)),
  );
  // The trading machine hears of a swap mined, with what the receipt reports, and of nothing else.
  const minedNow = events.some((event) => event.type === 'xstate.done.actor.confirmSwap');
  expect(facts).toEqual(
    minedNow
      ? [{ type: 'swap.confirmed', hash: HASH, side: 'buy', amountIn: E18, amountOut: 1995n * E18 }]
      : [],
  );
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
  // A form field refused, a failed quote: the words say why.
  if (inState(snapshot, 'form.invalid')) expect(context.problem).toBe(formProblem(context));
  else if (inState(snapshot, 'form.quoteFailed')) expect(context.problem).toBe(tokenCopy.rpcUnavailable);
  else if (inForm(snapshot)) expect(context.problem).toBeNull();
  // A busy form is locked: what the user typed stays as it was.
  if (busy(before) && busy(snapshot))
    expect(context).toMatchObject({ side: before.context.side, amountText: before.context.amountText });
}

const states = {
  '*': everyStep,
  noWallet: (s: Snapshot) => expect(s.context.account).toBeNull(),
  wrongNetwork: (s: Snapshot) => expect(s.context.chainId).not.toBe(CHAIN),
  // The router is asked for the amount typed, for the account connected.
  'form.quoting': (s: Snapshot) =>
    expect(inputOf(s, 'quote')).toEqual({ side: s.context.side, amountIn: E18, account: WALLET }),
  // The approval is for exactly the amount, unless the user opted for unlimited.
  'approving.preparing': (s: Snapshot) =>
    expect(inputOf(s, 'approvalCall')).toEqual({
      owner: WALLET,
      amount: E18,
      unlimited: s.context.unlimitedApproval,
    }),
  'approving.waitingForWallet': (s: Snapshot) => expect(inputOf(s, 'sendApproval')).toEqual(approveCall),
  'approving.pending': (s: Snapshot) =>
    expect(inputOf(s, 'confirmApproval')).toEqual({ hash: APPROVAL_HASH, owner: WALLET }),
  // The router must give at least the quote less 0.5 %, within 20 minutes.
  'swapping.preparing': (s: Snapshot) =>
    expect(inputOf(s, 'swapCall')).toEqual({
      side: s.context.side,
      account: WALLET,
      amountIn: E18,
      minAmountOut: minimumReceived(quote.amountOut, 50),
      deadlineMinutes: 20,
    }),
  'swapping.waitingForWallet': (s: Snapshot) => expect(inputOf(s, 'sendSwap')).toEqual(swapCall),
  'swapping.pending': (s: Snapshot) =>
    expect(inputOf(s, 'confirmSwap')).toEqual({ hash: HASH, side: s.context.order?.side }),
  // The amounts the receipt reports; the next swap starts from an empty amount.
  confirmed: (s: Snapshot) => expect(s.context).toMatchObject({ result: mined, amountText: '', quote: null }),
  'confirmed.recording': (s: Snapshot) => expect(inputOf(s, 'recordSwap')).toEqual({ hash: HASH }),
  rejected: (s: Snapshot) => expect(s.context.hash).toBeNull(),
  reverted: (s: Snapshot) => expect(s.context.problem).toBe(dexCopy.revertedSlippage),
};

function model(signedIn: boolean) {
  describeModel({
    name: 'swap',
    machine: swapMachine,
    input: { expectedChainId: CHAIN, account: WALLET, chainId: CHAIN, signedIn },
    deferredActors: [
      'quote',
      'approvalCall',
      'swapCall',
      'sendApproval',
      'sendSwap',
      'confirmApproval',
      'confirmSwap',
      'recordSwap',
    ],
    // The paths run this machine as a root: its parent is the `told` recorder.
    provide: { actions: { showToast: toasts.action, tellParent: told.action } },
    // What decides where the form goes next. The holdings are read afresh with every quote and
    // only its checks read them; the rest (the quote shown, the call, the hash) follows the state.
    serializeState: (s) => {
      const { side, amountText, slippageText, account, chainId, unlimitedApproval } = s.context;
      return stableJson({
        value: s.value,
        side,
        amountText,
        slippageText,
        account,
        chainId,
        unlimitedApproval,
      });
    },
    events: {
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
      'swap.amount': [
        { type: 'swap.amount', text: '1' },
        { type: 'swap.amount', text: '' },
        { type: 'swap.amount', text: '1,5' },
      ],
      'swap.slippage': [
        { type: 'swap.slippage', text: '60' },
        { type: 'swap.slippage', text: '0.5' },
      ],
      'swap.deadline': [{ type: 'swap.deadline', minutes: 20 }],
      'swap.unlimited': [{ type: 'swap.unlimited', on: true }],
      'market.block': [{ type: 'market.block', blockNumber: 6n }],
      'xstate.done.actor.quote': Object.values(holdings).map((held) => ({
        type: 'xstate.done.actor.quote',
        output: { quote, holdings: held },
      })),
      'xstate.error.actor.quote': [
        { type: 'xstate.error.actor.quote', error: new DexServiceError({ code: 'insufficient-liquidity' }) },
        { type: 'xstate.error.actor.quote', error: nodeDown },
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
        { type: 'xstate.error.actor.sendSwap', error: walletBroke },
      ],
      'xstate.done.actor.confirmSwap': [{ type: 'xstate.done.actor.confirmSwap', output: mined }],
      'xstate.error.actor.confirmSwap': [
        { type: 'xstate.error.actor.confirmSwap', error: slipped },
        { type: 'xstate.error.actor.confirmSwap', error: late },
      ],
      'xstate.done.actor.recordSwap': [{ type: 'xstate.done.actor.recordSwap', output: undefined }],
      'xstate.error.actor.recordSwap': [
        { type: 'xstate.error.actor.recordSwap', error: new Error('Failed to fetch') },
      ],
    },
    states,
  });
}

withBigIntJson(() => {
  model(false);
  model(true);
});
