import { inject } from 'vitest';
import type { ChainAccount } from '../../../stack/chain/index.ts';

// Which funded account of the contract layer's chain (`inject('chain')`) each contract test file may
// send from or watch (the e2e layer's roles are tests/support/e2e/accounts.ts). Files run in
// parallel on one chain: two files sending from one account would race for its nonce, and a
// balance another file changes cannot be asserted.
const OWNERS = {
  /** Deployer; sends nothing in tests so the stack's own account stays predictable. */
  deployer: 0,
  recordTransactionSender: 1,
  recordTransactionRecipient: 2,
  tokenServiceSender: 3,
  tokenServiceRecipient: 4,
  paymentLoopSender: 5,
  paymentLoopRecipient: 6,
  emulatorSender: 7,
  emulatorRecipient: 8,
  /** Only read (balances); nobody sends to or from it. */
  balanceReader: 9,
  /** The wallet of the headless portal test, and who pays it. */
  portalWallet: 10,
  portalPayer: 11,
  /** The wallet of the journal-replay test, and the account it sends DDEX to. */
  journalWallet: 12,
  journalPayer: 13,
  /** process-payments-swap: the signed-in trader on the stack's market, and who pays or buys for it. */
  paymentsSwapTrader: 14,
  paymentsSwapPayer: 15,
  /** market-bots: deploys its market and provides the liquidity, and trades on it. */
  botsProvider: 16,
  botsTrader: 17,
  /** watch-wallets: pays the wallets the server watches without a demo hook. */
  watchWalletsSender: 18,
  /** process-payments-documented: Tatum's documented bodies replayed for real transfers. */
  documentedSender: 19,
  documentedRecipient: 20,
  /** local-wallet-provider: funds the local test wallet's fresh keys with ETH for gas. */
  localWalletFunder: 21,
  /** tatum-subscription-start: pays a watched address before and after it is subscribed. */
  subscriptionStartPayer: 22,
  /** record-swap: deploys its market and provides the liquidity, and the signed-in trader. */
  recordSwapProvider: 38,
  recordSwapTrader: 39,
} as const;

export function testAccount(role: keyof typeof OWNERS): ChainAccount {
  const account = inject('chain').accounts[OWNERS[role]];
  if (!account) throw new Error(`the local chain has no account #${OWNERS[role]} for ${role}`);
  return account;
}
