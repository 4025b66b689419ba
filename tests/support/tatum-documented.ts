// Tatum's address-event webhook bodies exactly as its documentation prints them, each with its
// source, so tests replay what a hosted subscription sends rather than what our parser expects.
// Sources (Tatum's public docs repository, tatumio/doc at b1ca9fac, and @tatumio/tatum 4.2.58):
// - ADDRESS_EVENT: docs/notifications/notification-types/address-event.md ("What does the fired
//   webhook look like?": a sender's `fee` body, its `native` body, a receiver's `native` body;
//   `"type": "native"` or `"fungible"` and etc.; it also covers ERC-721, ERC-1155 and internal
//   transfers);
// - re-orgs: docs/notifications/notification-workflow/handling-re-orgs.md (the same body with
//   `"reorg": true`);
// - a token's contract: the fungible, NFT and multi-token pages (incoming-tokens.md,
//   incoming-nfts.md, incoming-multitokens.md) name it `contractAddress`, the NFT ones add
//   `tokenId` and `metadataURI`; internal transfers (incoming-internal-transactions.md) carry no
//   asset of their own beyond the chain's currency;
// - the SDK's type names: `TxType = 'native' | 'fungible' | 'nft' | 'multitoken' | 'internal'`
//   (dist/src/api/api.dto.d.ts) and its `Webhook` record, whose delivery carries `subscriptionId`
//   and `timestamp` (dist/src/service/notification/notification.dto.d.ts).

/** address-event.md, "You subscribed to a sending address", 1: the fee. */
export const DOC_FEE = {
  address: '0xF64E82131BE01618487Da5142fc9d289cbb60E9d',
  amount: '-0.000031500000168',
  asset: 'ETH',
  blockNumber: 3553692,
  txId: '0xde48b2572176eb3e1c4a2a9abe62c5552f778afcbba1ded8491a2ceb675a6390',
  type: 'fee',
  chain: 'ethereum-mainnet',
  subscriptionType: 'ADDRESS_EVENT',
} as const;

/** address-event.md, "You subscribed to a sending address", 2: the transaction itself. */
export const DOC_NATIVE_SENT = {
  address: '0xfAF0F447715dEeDF6Dd79c2fd1F7966F0CC647A1',
  amount: '0.001',
  asset: 'ETH',
  blockNumber: 3553692,
  counterAddress: '0xF64E82131BE01618487Da5142fc9d289cbb60E9d',
  txId: '0xde48b2572176eb3e1c4a2a9abe62c5552f778afcbba1ded8491a2ceb675a6390',
  type: 'native',
  chain: 'ethereum-mainnet',
  subscriptionType: 'ADDRESS_EVENT',
} as const;

/** address-event.md, "You subscribed to a receiving address". */
export const DOC_NATIVE_RECEIVED = {
  address: '0xF64E82131BE01618487Da5142fc9d289cbb60E9d',
  amount: '0.0001',
  asset: 'ETH',
  blockNumber: 3553815,
  counterAddress: '0xfAF0F447715dEeDF6Dd79c2fd1F7966F0CC647A1',
  txId: '0x24e3c8d20449958b53186feb1844a022b864cba67bbca792330b5ab71035b499',
  type: 'native',
  chain: 'ethereum-mainnet',
  subscriptionType: 'ADDRESS_EVENT',
} as const;

/** handling-re-orgs.md, "Example of a Updated Notification Coming after Re Org". */
export const DOC_REORG = { ...DOC_NATIVE_SENT, reorg: true } as const;

/** The keys of a documented address-event body (the fee body has no counterAddress). */
export const DOC_KEYS = Object.keys(DOC_NATIVE_RECEIVED).sort();

/**
 * The fields the SDK's webhook record adds to what a delivery carries (notification.dto.d.ts:
 * `subscriptionId: string`, `timestamp: number`).
 */
export const SDK_DELIVERY_EXTRAS = {
  subscriptionId: '65fa1b2c3d4e5f6a7b8c9d0e',
  timestamp: 1710936000000,
} as const;

/**
 * A `fungible` address event: the documented body with the type address-event.md names for ERC-20
 * and the token's contract as the fungible pages name it (`contractAddress`), the contract also as
 * `asset`, which is what the body's asset holds for a token.
 */
export function docFungible(contract: string) {
  return { ...DOC_NATIVE_RECEIVED, asset: contract, type: 'fungible', contractAddress: contract };
}

/** An ERC-721 transfer as an address event: the NFT page's contract, token id and metadata. */
export const DOC_NFT = {
  ...DOC_NATIVE_RECEIVED,
  amount: '1',
  asset: '0x7d3dda0430471fe460c07b1ecab35670ef4ce85b',
  type: 'nft',
  contractAddress: '0x7d3dda0430471fe460c07b1ecab35670ef4ce85b',
  tokenId: '1450000023306',
  metadataURI: 'https://touhao.bj.bcebos.com/nft/metadata/1450000023306.json',
} as const;

/** An ERC-1155 transfer as an address event: the multi-token page's fields. */
export const DOC_MULTITOKEN = { ...DOC_NFT, type: 'multitoken' } as const;

/** ETH a contract sent (internal-transactions.md's transfer) as an address event. */
export const DOC_INTERNAL = { ...DOC_NATIVE_RECEIVED, type: 'internal' } as const;
