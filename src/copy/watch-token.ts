// ours: the words of adding DDEX to the wallet (EIP-747 wallet_watchAsset), in a module of their own
// so that they load with the request on the first press and not with the entry (src/copy/index.ts
// holds the button's label and the 'DDEX Not Added' title: walletCopy.addToken, tokenNotAdded).

/** ours: what the wallet answered (docs/product.md#wallet), under walletCopy.tokenNotAdded but a yes. */
export const watchTokenCopy = {
  added: { title: 'DDEX Added to Wallet', description: 'Your wallet now lists DDEX with your other tokens.' },
  declined: 'You declined adding DDEX to your wallet.',
  unsupported: (address: string) => `Your wallet cannot add tokens; add DDEX by its address: ${address}`,
  wrongChain: (chain: string) => `Your wallet is on another network. Switch to ${chain}, then add DDEX.`,
  failed: 'Your wallet could not add DDEX. An unexpected error occurred.',
} as const;
