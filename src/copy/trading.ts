import { appCopy } from './index.ts';

// ours: the DEX Trading page (its content is our own: docs/product.md#overview). It shows the
// account's context as it is and says plainly that there is no trading here.
// Only its page reads these words, and it loads lazily: they sit apart from this folder's index.ts,
// which the entry bundle carries.
export const tradingCopy = {
  title: appCopy.tabs.trading,
  unavailable:
    'Trading is not available in this testnet demonstration. There are no markets, order books or prices here, and no order can be placed.',
  contextTitle: 'Your DEX context',
  account: 'Account',
  notLoggedIn: 'Not logged in',
  wallet: 'Connected wallet',
  noWallet: 'No wallet connected',
  viewInExplorer: 'View on the block explorer',
  network: 'Network',
  token: 'DDEX token contract',
  tokenConfigured: 'Configured',
  tokenMissing: 'Not configured: every send stops before anything is signed.',
  tier: 'Account tier',
  lastActivity: 'Last DEX activity',
  noActivity: 'None recorded',
  loginHint: 'Log in to see your account tier and DEX activity.',
  meanwhile:
    'Meanwhile, the Token Portal tab shows your ETH and DDEX balances and lets you try a DDEX transfer on the test network.',
  goToPortal: `Go to ${appCopy.tabs.portal}`,
} as const;
