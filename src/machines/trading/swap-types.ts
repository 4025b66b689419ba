import type { Address, DexCall, Holdings, Quote, SwapResult, SwapSide } from '../../domain/dex.ts';
import type { Hex } from '../../domain/token.ts';
import type { SessionChanged, WalletChanged } from '../shared.ts';

// The swap machine's input, context, events and actor inputs and outputs (swap.machine.ts), kept
// apart so that its file holds the chart.

export type SwapInput = {
  /** The chain the portal is built for; a wallet on another is asked to switch. */
  expectedChainId: number;
  account: string | null;
  chainId: number | null;
  signedIn: boolean;
};

/** What a swap was asked to do, fixed when the user presses 'Swap'. */
export type SwapOrder = {
  side: SwapSide;
  amountIn: bigint;
  /** The quote less the slippage tolerance: below it the router reverts. */
  minAmountOut: bigint;
  deadlineMinutes: number;
};

export type SwapContext = {
  expectedChainId: number;
  side: SwapSide;
  /** The amount in as typed, in whole ETH (buy) or DDEX (sell). */
  amountText: string;
  /** The slippage tolerance as typed, in percent ('0.5'). */
  slippageText: string;
  deadlineMinutes: number;
  /** Approve any amount instead of exactly this one. */
  unlimitedApproval: boolean;
  account: string | null;
  chainId: number | null;
  signedIn: boolean;
  /** The latest quote for the amount typed; cleared when the amount or the side changes. */
  quote: Quote | null;
  /** The account's balances and allowance, as of the latest quote. */
  holdings: Holdings | null;
  /** The call the wallet is asked to send (an approval or a swap). */
  call: DexCall | null;
  order: SwapOrder | null;
  /** The transaction under way, or the swap's once it is done. */
  hash: Hex | null;
  result: SwapResult | null;
  /** Why the form is refused, the quote failed, or the swap did not go through, in plain words. */
  problem: string | null;
};

export type SwapEvent =
  // From the page.
  | { type: 'swap.side'; side: SwapSide }
  | { type: 'swap.amount'; text: string }
  | { type: 'swap.slippage'; text: string }
  | { type: 'swap.deadline'; minutes: number }
  | { type: 'swap.unlimited'; on: boolean }
  | { type: 'swap.approve' }
  | { type: 'swap.submit' }
  /** The answers to the question a tolerance above 5 % asks after 'Swap': go on, or back to the form. */
  | { type: 'swap.confirmSlippage' }
  | { type: 'swap.cancel' }
  /** Back to the form after an outcome. */
  | { type: 'swap.dismiss' }
  // From the trading machine.
  | WalletChanged
  | SessionChanged
  | { type: 'market.block'; blockNumber: bigint };

/** What this machine tells the trading machine: a swap mined (with the amounts that moved), its row saved. */
export type SwapFact =
  | { type: 'swap.confirmed'; hash: Hex; side: SwapSide; amountIn: bigint; amountOut: bigint }
  | { type: 'swap.recorded'; hash: Hex };

export type QuoteInput = { side: SwapSide; amountIn: bigint; account: string | null };
export type QuoteOutput = { quote: Quote; holdings: Holdings | null };

export type ApprovalCallInput = { owner: Address; amount: bigint; unlimited: boolean };

/** The composition root turns `deadlineMinutes` into the absolute deadline the router checks. */
export type SwapCallInput = {
  side: SwapSide;
  account: Address;
  amountIn: bigint;
  minAmountOut: bigint;
  deadlineMinutes: number;
};

export type ConfirmApprovalInput = { hash: Hex; owner: Address };
export type ConfirmSwapInput = { hash: Hex; side: SwapSide };
export type RecordSwapInput = { hash: Hex };
