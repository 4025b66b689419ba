import type { PreparedTransfer, TransferResult } from '../../src/domain/token.ts';

// One DDEX transfer as the send machine's tests meet it: from the first Hardhat account to the
// second, 12.5 DDEX, prepared and then mined.

export const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

export const prepared: PreparedTransfer = {
  from: WALLET,
  to: RECIPIENT,
  raw: 125n * 10n ** 17n,
  amount: '12.5',
  decimals: 18,
};

/** The prepared transfer, mined as `hash` in block `blockNumber`. */
export function minedAs(hash: `0x${string}`, blockNumber: bigint): TransferResult {
  return { hash, from: WALLET, to: RECIPIENT, raw: prepared.raw, blockNumber };
}

/** 'Send with wallet' pressed on the prepared transfer's form, with a balance that covers it. */
export const withWallet = {
  type: 'send.submitWithWallet' as const,
  recipient: RECIPIENT,
  amount: prepared.amount,
  balance: '100',
};
