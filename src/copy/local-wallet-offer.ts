// The offer of the local test wallet, in a build for the local chain: the 'MetaMask is not
// installed' toast's action, the visitor prompt's line under Connect Wallet, and the toast when
// the wallet cannot be taken. The wallet's own words load with it (local-wallet.ts).

export const localWalletOfferCopy = {
  offer: 'Use a local test wallet',
  visitorLine: 'No wallet extension? A local test wallet lives in this browser, for the local chain only.',
  takeFailed: 'Local test wallet unavailable',
} as const;
