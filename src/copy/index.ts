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
