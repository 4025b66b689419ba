import { assign, fromPromise, sendParent, setup, spawnChild, stopChild, type DoneActorEvent } from 'xstate';
import { dexCopy } from '../../copy/dex.ts';
import { dexProblemOf, type Address, type DexCall, type SwapResult } from '../../domain/dex.ts';
import type { Hex } from '../../domain/token.ts';
import { isWalletError } from '../../domain/wallet.ts';
import { dexFailureWords, dexSendWords } from './dex-words.ts';
import { notProvided, showToast, type ToastRequest } from '../shared.ts';
import { swapToasts } from './swap-toasts.ts';
import {
  amountBlank,
  amountIn,
  quoteInput,
  formProblem,
  initialSwapContext,
  insufficientBalance,
  needsApproval,
  slippageRefused,
  swapOrder,
} from './swap-checks.ts';
import type {
  ApprovalCallInput,
  ConfirmApprovalInput,
  ConfirmSwapInput,
  QuoteInput,
  QuoteOutput,
  RecordSwapInput,
  SwapCallInput,
  SwapContext,
  SwapEvent,
  SwapFact,
  SwapInput,
  SwapOrder,
} from './swap-types.ts';

// The Trading tab's swap form and the swap it makes (docs/product.md#dex-trading), invoked by the
// trading machine. ETH → DDEX (buy) or DDEX → ETH (sell) through the connected wallet, on an
// exact-input quote from the router that follows the chain: typing re-quotes after a short pause,
// each new block re-quotes at once. A sale first needs the router's allowance (the exact amount,
// or unlimited when the user opts in); the form offers the approval when the allowance falls short.
//
//   routing → noWallet | wrongNetwork | form
//   form: empty | invalid | debouncing → quoting → quoted.{insufficientBalance, slippageRefused,
//         needsApproval, ready} | insufficientLiquidity | quoteFailed
//   approving / swapping: preparing (the call is built) → waitingForWallet → pending (the hash)
//   → confirmed (the amounts the pair's events report) | rejected | reverted | failed → form
//
// Slippage above 50 % is refused (quoted.slippageRefused); above 1 % the view only warns
// (`slippageWarning` in swap-checks.ts). An approval's outcome is a toast and the form again; a
// swap's outcome stays until dismissed. A transaction under way is followed to its outcome first.

export type { SwapFact, SwapInput } from './swap-types.ts';

/** The tags a view reads to word the form's button while a transaction is under way. */
export const swapTags = {
  /** The call is being built or the wallet shows it. */
  waiting: 'waitingForWallet',
  /** The wallet sent it; its receipt is awaited. */
  pending: 'pending',
} as const;

const toast = (params: ToastRequest) => ({ type: 'showToast', params }) as const;

/** Leaves a swap's outcome for the form; a wallet change meanwhile is kept for then. */
const outcome = {
  on: { 'swap.dismiss': '#swap.routing', 'wallet.changed': { actions: 'takeWallet' } },
} as const;

export const swapMachine = setup({
  types: {} as { context: SwapContext; events: SwapEvent; input: SwapInput },
  actors: {
    quote: fromPromise<QuoteOutput, QuoteInput>(notProvided('quote')),
    approvalCall: fromPromise<DexCall, ApprovalCallInput>(notProvided('approvalCall')),
    swapCall: fromPromise<DexCall, SwapCallInput>(notProvided('swapCall')),
    /** The wallet's prompt (eth_sendTransaction); rejects with a WalletError. */
    sendTransaction: fromPromise<Hex, DexCall>(notProvided('sendTransaction')),
    /** Resolves with the router's allowance after the approval. */
    confirmApproval: fromPromise<bigint, ConfirmApprovalInput>(notProvided('confirmApproval')),
    confirmSwap: fromPromise<SwapResult, ConfirmSwapInput>(notProvided('confirmSwap')),
    recordSwap: fromPromise<unknown, RecordSwapInput>(notProvided('recordSwap')),
  },
  actions: {
    showToast,
    /** Tells the trading machine a fact. */
    tellParent: sendParent((_, fact: SwapFact) => fact),
    /** Keeps a failed step's words for the outcome shown. */
    takeFailure: assign({
      problem: ({ event }) => ('error' in event ? dexFailureWords(event.error) : null),
    }),
    /** A quote's answer, from the form's own request or a block's background one. */
    takeQuote: assign(({ event }) =>
      'output' in event
        ? { quote: (event.output as QuoteOutput).quote, holdings: (event.output as QuoteOutput).holdings }
        : {},
    ),
    /** A failed quote: none is shown, with the failure's words. */
    dropQuote: assign({
      quote: null,
      problem: ({ event }) => ('error' in event ? dexFailureWords(event.error) : null),
    }),
    takeWallet: assign(({ event }) =>
      event.type === 'wallet.changed' ? { account: event.address, chainId: event.chainId } : {},
    ),
  },
  guards: {
    noWallet: ({ context }) => context.account === null,
    wrongNetwork: ({ context }) => context.chainId !== context.expectedChainId,
    amountBlank: ({ context }) => amountBlank(context),
    formInvalid: ({ context }) => formProblem(context) !== null,
    insufficientBalance: ({ context }) => insufficientBalance(context),
    slippageRefused: ({ context }) => slippageRefused(context),
    needsApproval: ({ context }) => needsApproval(context),
    signedIn: ({ context }) => context.signedIn,
    insufficientLiquidity: ({ event }) =>
      'error' in event && dexProblemOf(event.error)?.code === 'insufficient-liquidity',
    rejected: ({ event }) =>
      'error' in event && isWalletError(event.error) && event.error.code === 'rejected',
    reverted: ({ event }) => 'error' in event && dexProblemOf(event.error)?.code === 'reverted',
  },
  delays: { quoteDebounce: 100 },
}).createMachine({
  id: 'swap',
  context: ({ input }) => initialSwapContext(input),
  on: {
    'wallet.changed': { target: '.routing', actions: 'takeWallet' },
    'session.changed': { actions: assign({ signedIn: ({ event }) => event.user !== null }) },
  },
  initial: 'routing',
  states: {
    /** Where the form starts again: after a wallet change, an approval, or a dismissed outcome. */
    routing: {
      entry: assign({ call: null, order: null, hash: null, result: null, problem: null }),
      always: [
        { guard: 'noWallet', target: 'noWallet' },
        { guard: 'wrongNetwork', target: 'wrongNetwork' },
        { target: 'form' },
      ],
    },
    noWallet: {},
    wrongNetwork: {},
    form: {
      initial: 'checking',
      on: {
        // Another side or amount makes the quote another one; the old must not be shown.
        'swap.side': {
          target: '.edited',
          actions: assign({ side: ({ event }) => event.side, quote: null, problem: null }),
        },
        'swap.amount': {
          target: '.edited',
          actions: assign({ amountText: ({ event }) => event.text, quote: null, problem: null }),
        },
        'swap.slippage': {
          target: '.edited',
          actions: assign({ slippageText: ({ event }) => event.text, problem: null }),
        },
        'swap.deadline': {
          target: '.edited',
          actions: assign({ deadlineMinutes: ({ event }) => event.minutes, problem: null }),
        },
        'swap.unlimited': { actions: assign({ unlimitedApproval: ({ event }) => event.on }) },
      },
      states: {
        /** Entering the form: a quote at once. */
        checking: {
          always: [
            { guard: 'amountBlank', target: 'empty' },
            { guard: 'formInvalid', target: 'invalid' },
            { target: 'quoting' },
          ],
        },
        /** A field changed: a quote once the typing pauses. */
        edited: {
          always: [
            { guard: 'amountBlank', target: 'empty' },
            { guard: 'formInvalid', target: 'invalid' },
            { target: 'debouncing' },
          ],
        },
        empty: {},
        /** `problem` names the first field refused. */
        invalid: { entry: assign({ problem: ({ context }) => formProblem(context) }) },
        debouncing: { after: { quoteDebounce: 'quoting' } },
        quoting: {
          entry: assign({ problem: null }),
          invoke: {
            id: 'quote',
            src: 'quote',
            input: ({ context }) => quoteInput(context),
            onDone: {
              target: 'quoted',
              actions: 'takeQuote',
            },
            onError: [
              {
                guard: 'insufficientLiquidity',
                target: 'insufficientLiquidity',
                actions: assign({ quote: null }),
              },
              { target: 'quoteFailed', actions: 'dropQuote' },
            ],
          },
        },
        quoted: {
          // Resting on a quote, each new block refreshes it in the background: the button keeps
          // its word and takes a press meanwhile (leaving for 'quoting' would disable it for the
          // length of a request), and the answer decides again.
          exit: stopChild('quote'),
          on: {
            'market.block': {
              actions: [
                stopChild('quote'),
                spawnChild('quote', { id: 'quote', input: ({ context }) => quoteInput(context) }),
              ],
            },
            'xstate.done.actor.quote': {
              target: '.deciding',
              actions: 'takeQuote',
            },
            'xstate.error.actor.quote': [
              {
                guard: 'insufficientLiquidity',
                target: 'insufficientLiquidity',
                actions: assign({ quote: null }),
              },
              { target: 'quoteFailed', actions: 'dropQuote' },
            ],
          },
          initial: 'deciding',
          states: {
            deciding: {
              always: [
                { guard: 'insufficientBalance', target: 'insufficientBalance' },
                { guard: 'slippageRefused', target: 'slippageRefused' },
                { guard: 'needsApproval', target: 'needsApproval' },
                { target: 'ready' },
              ],
            },
            insufficientBalance: {},
            slippageRefused: {},
            needsApproval: { on: { 'swap.approve': '#swap.approving' } },
            ready: {
              on: {
                'swap.submit': {
                  target: '#swap.swapping',
                  actions: assign({ order: ({ context }) => swapOrder(context) }),
                },
              },
            },
          },
        },
        // The pool, or the node, may have changed by the next block.
        insufficientLiquidity: { on: { 'market.block': 'quoting' } },
        quoteFailed: { on: { 'market.block': 'quoting' } },
      },
    },
    approving: {
      on: { 'wallet.changed': { actions: 'takeWallet' } },
      initial: 'preparing',
      states: {
        preparing: {
          tags: [swapTags.waiting],
          invoke: {
            id: 'approvalCall',
            src: 'approvalCall',
            input: ({ context }) => ({
              owner: context.account as Address,
              amount: amountIn(context) ?? 0n,
              unlimited: context.unlimitedApproval,
            }),
            onDone: {
              target: 'waitingForWallet',
              actions: assign({ call: ({ event }: { event: DoneActorEvent<DexCall> }) => event.output }),
            },
            onError: {
              target: '#swap.routing',
              actions: { type: 'showToast', params: ({ event }) => swapToasts.approvalFailed(event.error) },
            },
          },
        },
        waitingForWallet: {
          tags: [swapTags.waiting],
          entry: toast(swapToasts.approvalPrompt),
          invoke: {
            id: 'sendApproval',
            src: 'sendTransaction',
            input: ({ context }) => context.call as DexCall,
            onDone: { target: 'pending', actions: assign({ hash: ({ event }) => event.output }) },
            onError: [
              { guard: 'rejected', target: '#swap.routing', actions: toast(swapToasts.approvalRejected) },
              {
                target: '#swap.routing',
                actions: {
                  type: 'showToast',
                  params: ({ event }) => swapToasts.approvalNotSent(event.error),
                },
              },
            ],
          },
        },
        pending: {
          tags: [swapTags.pending],
          entry: {
            type: 'showToast',
            params: ({ context }) => swapToasts.pending(dexCopy.approvalPending, context),
          },
          invoke: {
            id: 'confirmApproval',
            src: 'confirmApproval',
            // The account that sent the approval, whatever the wallet has switched to since.
            input: ({ context }) => ({ hash: context.hash as Hex, owner: context.call?.from as Address }),
            onDone: {
              target: '#swap.routing',
              actions: [
                assign({
                  holdings: ({ context, event }) =>
                    context.holdings && { ...context.holdings, allowance: event.output },
                }),
                { type: 'showToast', params: ({ context }) => swapToasts.approved(context) },
              ],
            },
            onError: {
              target: '#swap.routing',
              actions: { type: 'showToast', params: ({ event }) => swapToasts.approvalFailed(event.error) },
            },
          },
        },
      },
    },
    swapping: {
      on: { 'wallet.changed': { actions: 'takeWallet' } },
      initial: 'preparing',
      states: {
        preparing: {
          tags: [swapTags.waiting],
          invoke: {
            id: 'swapCall',
            src: 'swapCall',
            input: ({ context }) => ({
              ...(context.order as SwapOrder),
              account: context.account as Address,
            }),
            onDone: {
              target: 'waitingForWallet',
              actions: assign({ call: ({ event }: { event: DoneActorEvent<DexCall> }) => event.output }),
            },
            onError: { target: '#swap.failed', actions: 'takeFailure' },
          },
        },
        waitingForWallet: {
          tags: [swapTags.waiting],
          entry: toast(swapToasts.swapPrompt),
          invoke: {
            id: 'sendSwap',
            src: 'sendTransaction',
            input: ({ context }) => context.call as DexCall,
            onDone: { target: 'pending', actions: assign({ hash: ({ event }) => event.output }) },
            onError: [
              { guard: 'rejected', target: '#swap.rejected' },
              {
                target: '#swap.failed',
                actions: assign({ problem: ({ event }) => dexSendWords(event.error) }),
              },
            ],
          },
        },
        pending: {
          tags: [swapTags.pending],
          entry: {
            type: 'showToast',
            params: ({ context }) => swapToasts.pending(dexCopy.swapPending, context),
          },
          invoke: {
            id: 'confirmSwap',
            src: 'confirmSwap',
            input: ({ context }) => ({
              hash: context.hash as Hex,
              side: context.order?.side ?? context.side,
            }),
            onDone: { target: '#swap.confirmed', actions: assign({ result: ({ event }) => event.output }) },
            onError: [
              { guard: 'reverted', target: '#swap.reverted', actions: 'takeFailure' },
              { target: '#swap.failed', actions: 'takeFailure' },
            ],
          },
        },
      },
    },
    /** Mined: `result` holds the amounts the pair's events report. */
    confirmed: {
      ...outcome,
      entry: [
        { type: 'showToast', params: ({ context }) => swapToasts.confirmed(context) },
        {
          type: 'tellParent',
          params: ({ context }) => {
            const { hash, side, amountIn, amountOut } = context.result as SwapResult;
            return { type: 'swap.confirmed', hash, side, amountIn, amountOut };
          },
        },
        // The next swap starts from an empty amount.
        assign({ amountText: '', quote: null }),
      ],
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'signedIn', target: 'recording' }, { target: 'done' }] },
        /** A signed-in user's swap goes into the transaction history. */
        recording: {
          invoke: {
            id: 'recordSwap',
            src: 'recordSwap',
            input: ({ context }) => ({ hash: context.hash as Hex }),
            onDone: {
              target: 'done',
              actions: {
                type: 'tellParent',
                params: ({ context }) => ({ type: 'swap.recorded', hash: context.hash as Hex }),
              },
            },
            onError: {
              target: 'done',
              actions: { type: 'showToast', params: ({ context }) => swapToasts.notSaved(context) },
            },
          },
        },
        done: {},
      },
    },
    /** The user refused the swap in the wallet (EIP-1193 4001): nothing was sent. */
    rejected: { ...outcome, entry: toast(swapToasts.swapRejected) },
    /** Mined and refused by the router; `problem` is its reason in plain words. */
    reverted: {
      ...outcome,
      entry: { type: 'showToast', params: ({ context }) => swapToasts.reverted(context) },
    },
    /** Anything else: `problem` says what (the node is down, no receipt in time with the hash, …). */
    failed: {
      ...outcome,
      entry: { type: 'showToast', params: ({ context }) => swapToasts.failed(context) },
    },
  },
});
