import { appCopy, webhookCopy, type ProseSection } from './index.ts';

// ours: the FAQ page (its content is our own: docs/product.md#overview): what a visitor of
// this portal asks, answered for this portal.
// Only its page reads these words, and it loads lazily: they sit apart from this folder's index.ts,
// which the entry bundle carries.
export const faqCopy = {
  title: 'Frequently Asked Questions',
  intro:
    'Short answers about this testnet portal: what it is, what it needs and what it does with your data.',
  contactLead: 'Anything else? Write to',
  sections: (chainName: string): readonly ProseSection[] => [
    {
      heading: 'What is this portal?',
      paragraphs: [
        'A demonstration of the DDEX token on a test network. You can connect a wallet, see your ETH and DDEX balances and try a token transfer; with an account you also get a profile, notifications and a transaction history.',
        'It uses testnet funds only. Testnet ETH and DDEX tokens have no monetary value.',
      ],
    },
    {
      heading: 'Which wallet and network do I need?',
      paragraphs: [
        `A browser-extension Ethereum wallet such as MetaMask, on ${chainName}. When your wallet is on another network, the portal shows a banner with a button that asks the wallet to switch.`,
      ],
    },
    {
      heading: 'Do I need an account?',
      paragraphs: [
        'No. Without logging in you can switch tabs and theme, connect a wallet, see balances and use the send form. An account adds a profile, notifications and a transaction history, and links your wallet to your profile.',
      ],
    },
    {
      heading: 'Is my transaction history saved?',
      paragraphs: [
        `Only while you are logged in: transfers made while not logged in are not saved to any history. Logged in, ${appCopy.menu.transactions} in the user menu lists your 20 most recent transactions.`,
      ],
    },
    {
      heading: 'Why does the send form ask for a private key? Is that safe?',
      paragraphs: [
        'The key signs the transfer in your browser. The portal does not store it or send it to its backend, and forgets it as soon as the transfer is signed or stopped.',
        'Even so, only enter the key of a testnet account made for this demo. Never enter the private key of a mainnet account or of any wallet that holds real funds: whoever knows a private key controls everything in that account.',
      ],
    },
    {
      heading: 'What do the Tatum webhooks do?',
      paragraphs: [
        `The ${webhookCopy.section} section on the ${appCopy.tabs.portal} tab talks to Tatum, a blockchain data provider. ${webhookCopy.create} asks Tatum to watch your connected wallet address. Whenever a transfer involves that address, Tatum calls the portal's backend, which records it in the history of every account whose profile holds the address and notifies that account.`,
        `${webhookCopy.list} counts the active webhooks (their details go to the browser console), and ${webhookCopy.deleteFirst} removes the first one listed.`,
      ],
    },
    {
      heading: 'How do notifications arrive?',
      paragraphs: [
        'While you are logged in, the portal listens for changes to your notifications. A new one shows up at once as a short message at the bottom of the screen, and the bell at the top shows a dot while any are unread.',
        'Opening the notifications marks them all as read; you can also mark one at a time, or clear them all. The 20 most recent are shown.',
      ],
    },
    {
      heading: 'How do I switch between light and dark?',
      paragraphs: [
        'With the sun or moon button at the top right. The portal remembers your choice in this browser; until you choose, it follows your system setting.',
      ],
    },
    {
      heading: 'What about API keys and security settings?',
      paragraphs: [
        `Both are marked ${appCopy.menu.soon} in the user menu: API key management and security settings, including two-factor authentication, are under construction.`,
      ],
    },
  ],
} as const;
