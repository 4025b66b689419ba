import { appCopy, type ProseSection } from './index.ts';

// ours: the Privacy Policy (its content is our own: docs/product.md#overview), written
// for what this testnet demo actually stores (docs/product.md#data).
// Only its page reads these words, and it loads lazily: they sit apart from this folder's index.ts,
// which the entry bundle carries.
export const privacyCopy = {
  title: appCopy.menu.privacy,
  intro:
    'This portal is a demonstration on a test network. This page says what it stores about you, why, and what it never does.',
  contactLead: 'To have your account and profile deleted, or for any question about your data, write to',
  sections: [
    {
      heading: 'Your account',
      paragraphs: [
        'When you sign up, the portal stores your email address and your password. The password is kept by the authentication service only as a hash; nobody can read it back.',
      ],
    },
    {
      heading: 'Your profile',
      paragraphs: [
        'Each account has a profile: a username (by default the part of your email before the at-sign) and, only if you add them, your full name, a website and an avatar image. The profile also holds default settings such as your account tier and theme preference.',
        'An avatar you upload is stored in a public image store under a name made of your account id and the time of upload. Anyone who has its address can view it.',
      ],
    },
    {
      heading: 'Your wallet addresses',
      paragraphs: [
        'When you connect a wallet while logged in, its address is saved in your profile and your account details, so the portal can link your transfers to you. Disconnecting the wallet removes the address from both.',
        'Wallet addresses, balances and transfers are public on the blockchain in any case; the portal reads balances from it through the network node and Tatum, a blockchain data provider. A webhook you create sends your wallet address to Tatum.',
      ],
    },
    {
      heading: 'Notifications and transaction history',
      paragraphs: [
        'While you are logged in, the transfers you make through the portal, and transfers reported for the wallet address in your profile, are stored as records of their type, status, amount, token symbol and transaction hash, usually with a notification. You can clear your notifications at any time.',
      ],
    },
    {
      heading: 'What stays in your browser',
      paragraphs: [
        "Your theme choice and, while you are logged in, your session are kept in this browser's local storage. Logging out ends the session.",
      ],
    },
    {
      heading: 'What is never stored',
      paragraphs: [
        "Private keys. A key typed into the send form signs the transfer in your browser and is then forgotten; it is never saved or sent to the portal's backend.",
        'The portal has no analytics, advertising or tracking, and sells or shares nothing for marketing.',
      ],
    },
    {
      heading: 'How long data is kept',
      paragraphs: [
        'This is a demonstration: its data may be reset at any time, without notice, and is kept no longer than the demonstration runs.',
      ],
    },
  ] satisfies readonly ProseSection[],
} as const;
