import { assign, fromPromise, sendParent, setup } from 'xstate';

import { dexProblemOf, type DexCall, type SwapResult } from '../../domain/dex.ts';
import type { Hex } from '../../domain/token.ts';
import { isWalletError } from '../../domain/wallet.ts';
import { dexFailureWords } from './dex-words.ts';
import { notProvided, showToast, type ToastRequest } from '../shared.ts';

import {
  amountBlank,
  formProblem,
  insufficientBalance,
  needsApproval,
  slippageNeedsConfirmation,
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
} from './swap-types.ts';

// The swap machine's setup (swap.machine.ts is the chart): its tags, actors, actions, guards and
// delays, and the pieces its states share.

/** The tags a view reads to word the form's button while a transaction is under way. */
export const swapTags = {
  /** The call is being built or the wallet shows it. */
  waiting: 'waitingForWallet',
  /** The wallet sent it; its receipt is awaited. */
  pending: 'pending',
} as const;

export const toast = (params: ToastRequest) => ({ type: 'showToast', params }) as const;

/** Leaves a swap's outcome for the form; a wallet change meanwhile is kept for then. */
export const outcome = {
  on: { 'swap.dismiss': '#swap.routing', 'wallet.changed': { actions: 'takeWallet' } },
} as const;

export const swapSetup = setup({
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
    /** Fixes what the swap asks for, as 'Swap' is pressed (or the high tolerance confirmed). */
    takeOrder: assign({ order: ({ context }) => swapOrder(context) }),
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
    highSlippage: ({ context }) => slippageNeedsConfirmation(context),
    needsApproval: ({ context }) => needsApproval(context),
    signedIn: ({ context }) => context.signedIn,
    insufficientLiquidity: ({ event }) =>
      'error' in event && dexProblemOf(event.error)?.code === 'insufficient-liquidity',
    rejected: ({ event }) =>
      'error' in event && isWalletError(event.error) && event.error.code === 'rejected',
    reverted: ({ event }) => 'error' in event && dexProblemOf(event.error)?.code === 'reverted',
  },
  delays: { quoteDebounce: 100 },
});
