// ours: the words of the faucet (issue 33: 'Get test DDEX' beside the DDEX balance), in a module of
// their own so that they load with the faucet's views and machine, not with the entry
// (vite.config.ts keeps `faucet*` files out of the portal chunk). 'Faucet empty' is the issue's.
// The local build's stand-in for hCaptcha has its words in faucet-local.ts, which no other build holds.

/** A public Sepolia ETH faucet a hosted build links to: the faucet pays ETH for gas only locally. */
export type EthFaucetLink = { label: string; href: string };

export const faucetCopy = {
  getTestDdex: 'Get test DDEX',
  claiming: 'Sending test DDEX...',
  humanCheck: {
    /** The group around the widget, and what it asks. */
    title: 'Human check',
    prompt: 'Prove you are human to claim test DDEX.',
    loading: 'Loading the human check...',
    cancel: 'Cancel',
  },
  paid: (amount: string) => ({
    title: 'Test DDEX Sent',
    description: `${amount} DDEX is on its way to your wallet.`,
  }),
  tooSoon: (when: string) => ({
    title: 'Faucet Claimed Already',
    description: `You can claim test DDEX again at ${when}.`,
  }),
  humanCheckFailed: {
    title: 'Human Check Failed',
    description: 'The human check did not pass. Try it again.',
  },
  humanCheckUnavailable: {
    title: 'Human Check Unavailable',
    description: 'The human check could not be loaded. Check your connection and try again.',
  },
  noProvenWallet: {
    title: 'No Proven Wallet',
    description: 'Link your wallet to your profile (a signed proof) before you claim test DDEX.',
  },
  notSignedIn: { title: 'Login Required', description: 'Please log in to claim test DDEX.' },
  empty: { title: 'Faucet empty', description: 'The faucet cannot pay right now. Try again later.' },
  unavailable: {
    title: 'Faucet Unavailable',
    description: 'The faucet could not send test DDEX. Try again later.',
  },
  network: {
    title: 'Faucet Unavailable',
    description: 'Could not reach the faucet. Check your connection and try again.',
  },
  ethFaucets: {
    intro: 'Sepolia ETH for gas:',
    links: [
      { label: 'Google Cloud', href: 'https://cloud.google.com/application/web3/faucet/ethereum/sepolia' },
      { label: 'Alchemy', href: 'https://www.alchemy.com/faucets/ethereum-sepolia' },
      { label: 'Infura', href: 'https://www.infura.io/faucet/sepolia' },
    ] satisfies readonly EthFaucetLink[],
  },
} as const;
