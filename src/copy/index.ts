// The portal's words. Every string the spec quotes lives here exactly once;
// machines, services, views and tests import it, so a wording change is one
// edit and a test cannot drift from the product.
//
// Grouped by where the spec lists them (portal-spec.md §8 error catalogue
// unless noted). Strings the spec does not quote are marked "ours".

export const dataProviderCopy = {
  balanceUnknownError: 'Unknown error fetching balance',
  createWebhookFailed: 'Failed to create webhook via SDK',
  listWebhooksFailed: 'Failed to list webhooks',
  /** ours: the spec names no message for a failed unsubscribe. */
  deleteWebhookFailed: 'Failed to delete webhook via SDK',
  /** ours: the spec lists initialisation failures without quoting them. */
  initFailed: 'Could not start the blockchain data provider',
} as const;

const KNOWN_CHAINS: Record<number, string> = {
  1: 'Ethereum mainnet',
  11155111: 'Sepolia',
  17000: 'Holesky',
  31337: 'the local Hardhat chain',
};

/** ours: what the token service says when a read or a send fails. */
export const tokenCopy = {
  invalidPrivateKeyFormat: 'The private key must be 64 hexadecimal characters, optionally starting with 0x.',
  invalidPrivateKeyValue: 'This is not a valid private key.',
  invalidRecipient: 'The recipient must be an address: 0x followed by 40 hexadecimal characters.',
  zeroRecipient: 'Tokens cannot be sent to the zero address; they would be lost.',
  invalidAddress: 'This is not an address: expected 0x followed by 40 hexadecimal characters.',
  invalidAmount: 'Enter the amount as a positive decimal number, such as 12.5.',
  zeroAmount: 'The amount must be greater than zero.',
  tooManyDecimals: (decimals: number) =>
    decimals === 0
      ? 'This token has no decimal places; enter a whole number.'
      : `This token has ${decimals} decimal places; use at most ${decimals} digits after the decimal point.`,
  amountTooLarge: 'The amount is too large.',
  insufficientTokenBalance: 'The sending account does not hold enough tokens for this transfer.',
  insufficientTokenBalanceOf: (balance: string, needed: string) =>
    `The sending account holds ${balance} tokens, but the transfer needs ${needed}.`,
  insufficientFundsForGas:
    'The sending account does not have enough ETH to pay the network fee for this transfer.',
  wrongChain: (actual: number, expected: number) =>
    `The blockchain node is on ${chainName(actual)}, but the portal is set up for ${chainName(expected)}.`,
  chainMismatch: 'The blockchain node is on a different chain than the portal is set up for.',
  invalidReceiver: 'The token contract refuses this recipient.',
  refused: 'The token contract refused the transfer.',
  reverted: 'The transfer was mined but failed on chain; no tokens moved, and the network fee was spent.',
  notConfirmed: (seconds: number) =>
    `The transfer was sent but not confirmed within ${seconds} seconds. It may still go through: check its status before sending again.`,
  sentButUnchecked:
    'The transfer was sent, but its confirmation could not be checked; check its status before sending again.',
  rpcUnavailable: 'The blockchain node could not be reached. Check the connection and try again.',
  rpcUnavailableStatus: (status: number) =>
    `The blockchain node could not be used (HTTP ${status}). Try again later.`,
  noTokenContract: 'No token contract answers at the configured address on this network.',
  unknown: 'The blockchain request failed for an unexpected reason.',
} as const;

export function chainName(id: number): string {
  const known = KNOWN_CHAINS[id];
  return known ? `${known} (chain ${id})` : `chain ${id}`;
}
