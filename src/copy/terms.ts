import { appCopy, type ProseSection } from './index.ts';

// ours: the Terms of Service (its content is our own: docs/product.md#overview), for a
// testnet demonstration.
// Only its page reads these words, and it loads lazily: they sit apart from this folder's index.ts,
// which the entry bundle carries.
export const termsCopy = {
  title: appCopy.menu.terms,
  intro: 'By using this portal you accept these terms. They are short because the portal is a demonstration.',
  contactLead: 'Questions about these terms? Write to',
  sections: [
    {
      heading: 'A demonstration on a test network',
      paragraphs: [
        'The portal shows how a DDEX token portal works. It runs on a test network with testnet funds only: testnet ETH and DDEX tokens have no monetary value and cannot be exchanged for money.',
      ],
    },
    {
      heading: 'Not a financial service',
      paragraphs: [
        'Nothing here is investment advice or an offer to buy or sell anything. DEX trading and trading bots are not available.',
      ],
    },
    {
      heading: 'Your wallet and your keys',
      paragraphs: [
        'You are responsible for your wallet and its keys. Only use testnet accounts made for this demonstration, and never enter the private key of a mainnet account or of any wallet that holds real funds.',
      ],
    },
    {
      heading: 'Your account and profile',
      paragraphs: [
        'Keep your password to yourself. Every profile field is optional; what you do fill in must not be unlawful or offensive, and must not belong to someone else.',
      ],
    },
    {
      heading: 'Fair use',
      paragraphs: [
        "Do not try to break, overload or get around the portal or its backend, or to reach other users' data.",
      ],
    },
    {
      heading: 'Changes and availability',
      paragraphs: [
        `Features may change, stop or be reset at any time, and their data with them. Features marked ${appCopy.menu.soon} are not available yet.`,
      ],
    },
    {
      heading: 'No warranty',
      paragraphs: [
        'The portal is provided as is, without any warranty. As far as the law allows, its operators are not liable for any loss arising from its use.',
      ],
    },
  ] satisfies readonly ProseSection[],
} as const;
