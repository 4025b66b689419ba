import { shortAddress } from './index.ts';

// ours: the history dialog's detail line. Only that dialog reads these words, so they sit apart
// from transactionCopy (src/copy/index.ts), whose toasts the machines use.

/**
 * ours: what a history row did, under its amount (docs/product.md#history-dialog). Amounts come
 * in unsigned (the caller reads a swap's direction from its sign); addresses in full, shortened
 * here like every address the portal shows.
 */
export const historyCopy = {
  /** A swap that bought DDEX: what the wallet got, then what it paid. */
  bought: (amount: string, symbol: string, paid: string, paidSymbol: string) =>
    `Bought ${amount} ${symbol} for ${paid} ${paidSymbol}`,
  /** A swap that sold DDEX: what the wallet gave, then what it got. */
  sold: (amount: string, symbol: string, got: string, gotSymbol: string) =>
    `Sold ${amount} ${symbol} for ${got} ${gotSymbol}`,
  /** An approval: who may spend, and how much (a figure, or `unlimited`). */
  allowed: (spender: string, amount: string, symbol: string) =>
    `Allowed ${shortAddress(spender)} to spend ${amount} ${symbol}`,
  /** An approval of the token's largest allowance, which has no meaningful figure. */
  unlimited: 'unlimited',
  /** Where a sent transfer went. */
  to: (address: string) => `To ${shortAddress(address)}`,
  /** Where a received transfer came from. */
  from: (address: string) => `From ${shortAddress(address)}`,
  /** A transaction a reorganisation took out of the chain. */
  dropped: 'No longer in the chain: a reorganisation removed this transaction.',
} as const;
