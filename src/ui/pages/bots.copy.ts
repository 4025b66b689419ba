import { appCopy, webhookCopy } from '../../copy/index.ts';

// ours: the Trading Bots page (its content is our own: docs/product.md#overview).
export const botsCopy = {
  title: appCopy.tabs.bots,
  unavailable:
    'Trading bots are not available in this testnet demonstration: there are no markets for a bot to trade on, and no bot runs for any account.',
  signedIn: (name: string) => `You are logged in as ${name}. No bots are set up for your account.`,
  signedOut: 'You are not logged in. Bots would belong to an account, and none exist yet.',
  closestTitle: 'What the demo offers instead',
  closest: `The ${webhookCopy.section} section on the ${appCopy.tabs.portal} tab registers a webhook that watches your connected wallet address. Each transfer to or from that address is then recorded in your transaction history and arrives as a notification, as long as the address is linked to your profile.`,
  goToPortal: `Go to ${appCopy.tabs.portal}`,
} as const;
