import type { ChainAccount } from '../../../stack/chain/index.ts';
import { e2e } from './context.ts';

// Which funded account of the e2e chain each e2e test file may use. Files run
// in parallel against one chain (its own, not the contract layer's): two
// files sending from one account would race for its nonce, and a balance
// another file changes cannot be asserted or screenshotted. Every account
// starts with 10000 ETH and 1,000,000 DDEX, except the deployer (#0), which
// seeds the Uniswap pool with 100 ETH and 500,000 DDEX.
//
// A role belongs to one file, except the read-only `viewer` accounts, which any
// file may connect as long as it never sends from or to them. A viewer may end
// up linked to any user who signs up with it connected (the portal asks the
// wallet for a proof, and the mock wallet signs), so a file that needs a
// wallet's proof to reach a signature prompt has an account of its own.
const ROLES = {
  /** Deployed DDEX; never used by a test. */
  deployer: 0,
  /** Shared, read-only: connect and look (smoke, auth, menu, theme, screenshots). Its balances never change. */
  viewer: 1,
  /** Shared, read-only: the account a wallet switches to (accountsChanged). */
  viewerAlt: 2,
  /** Balances and refresh: the account shown, and who pays it so a refresh has something to show. */
  balances: 3,
  balancesPayer: 4,
  /** The send form: a real DDEX transfer and its recipient. */
  sender: 5,
  recipient: 6,
  /** payment-notification.e2e: the signed-in user's watched wallet, and who pays it. */
  notified: 7,
  notifier: 8,
  /** Only receives (nobody asserts its balance). */
  sink: 10,
  /** faucet.e2e: a signed-in user's proven wallet, which claims test DDEX. */
  faucetClaimer: 11,
  /** faults.e2e: the wallet whose send is cancelled mid-way (it never sends). */
  faults: 12,
  /** secrets.e2e: a real send, its key swept for afterwards; pays `sink`. */
  secrets: 13,
  // A wallet has one verified owner, so each file that links a wallet to a new user needs an
  // address no other file links.
  /** content-security-policy.e2e: the wallet its session links. */
  csp: 14,
  /** wallet-proof.e2e: linked with a proof after sign-up. */
  linker: 15,
  /** wallet-proof.e2e: its signature is refused, so nothing is linked. */
  refuser: 16,
  /** wallet-proof.e2e: signs in with Ethereum (a wallet-only user). */
  web3User: 17,
  /** wallet-send.e2e: sends with the wallet (linked to its signed-in user), and who it pays. */
  walletSender: 18,
  walletRecipient: 19,
  // The generated paths driven through the portal (tests/model/*.ui.test.ts), one file each.
  /** send.ui: the send form's sender and recipient. */
  uiSender: 20,
  uiRecipient: 21,
  /** wallet-send.ui: sends with the wallet, and who it pays. */
  uiWalletSender: 22,
  uiWalletRecipient: 23,
  /** wallet-proof.ui: wallets linked by its paths (a path frees its wallet before linking it). */
  uiLinker: 24,
  uiLinkerAlt: 25,
  /** webhooks.ui: the address its subscriptions watch. */
  uiWebhooks: 26,
  /** notifications.ui: the watched wallet of its user, and who pays it. */
  uiNotified: 27,
  uiNotifier: 28,
  /** transactions.ui and history-outbox.ui: a signed-in user's sends, and where they go. */
  uiHistorySender: 29,
  uiHistorySink: 30,
  /** profile.ui and profile-load.ui: the wallet of the profile's user. */
  uiProfile: 31,
  /** balances.ui: the account shown, and who pays it. */
  uiBalances: 32,
  uiBalancesPayer: 33,
  /** auth.ui, portal.ui: a wallet that signs in with Ethereum. */
  uiWeb3: 34,
  uiPortal: 35,
  // trading.e2e: the DDEX/WETH market through the wallet.
  /** Buys; in the revert test, also the other trader whose buy moves the price ahead of a swap. */
  tradingBuyer: 36,
  /** Sells, with an exact approval and then an unlimited one. */
  tradingSeller: 37,
  /** Its swaps never go through: rejected in the wallet, or reverted by the router. */
  tradingRefused: 38,
  /** A signed-in user's proven wallet: its swap goes into the history and is notified. */
  tradingHistory: 39,
  /** Buys with a 10 % slippage tolerance: the question first, cancelled, then confirmed (a free index). */
  tradingHighSlippage: 9,
  /**
   * profile.ui: the account its wallet switches to, proven for the profile's user. A shared viewer
   * would not do: link-wallet refuses a nonce for an address another file's user holds.
   */
  uiProfileAlt: 40,
  /** swap.ui: buys, sells and approves through its mock wallet. */
  uiSwap: 41,
  /** trading.ui: a buy whose confirmation the trading machine announces. */
  uiTrading: 42,
  /** bots.e2e: the trader whose buy crosses a bot's level, and whose sale puts the price back. */
  botsTrader: 43,
} as const;

export type E2eRole = keyof typeof ROLES;

export function e2eAccount(role: E2eRole): ChainAccount {
  const account = e2e().chain.accounts[ROLES[role]];
  if (!account) throw new Error(`the e2e chain has no account #${ROLES[role]} for ${role}`);
  return account;
}
