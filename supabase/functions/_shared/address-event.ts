// Tatum's ADDRESS_EVENT webhook body, as its documentation shows it (docs/local-stack.md#tatums-address-event
// names the pages and the SDK types read): checked field by field so a malformed delivery is refused with
// a list of what is wrong, while a well-formed event of a kind the portal does not record is answered and
// set aside, never refused (a refusal only makes Tatum deliver it again).
import { ADDRESS } from './address.ts';

/** The kinds of balance change the portal records. */
export type RecordedType = 'native' | 'internal' | 'fungible' | 'fee';

export type AddressEvent = {
  /** The watched address. */
  address: string;
  /** In the asset's units; negative when it left the address. */
  amount: string;
  /** 'ETH' for native, internal and fee events; a token's contract address (or symbol) for fungible. */
  asset: string;
  blockNumber: number;
  /** The other side; absent on fee events. */
  counterAddress: string | null;
  txId: string;
  /** `fungible` also stands for Tatum's legacy v3 name `token`. */
  type: RecordedType;
  /** A fungible event's token contract (lower case): `contractAddress` when sent, else `asset` when it is one. */
  contract: string | null;
  chain: string;
  subscriptionType: 'ADDRESS_EVENT';
  /** The subscription that delivered it, for the log; Tatum sends it, older bodies may not. */
  subscriptionId: string | null;
  /** When Tatum saw the transaction (ms since the epoch), or null. */
  timestamp: number | null;
  /** A redelivery after a chain reorganisation ("Handling Re Orgs"). */
  reorg: boolean;
};

export type ParseResult =
  | { kind: 'event'; event: AddressEvent }
  /** Well formed, but nothing the portal records: answered 2xx with this reason logged. */
  | { kind: 'ignored'; reason: string }
  | { kind: 'invalid'; problems: string[] };

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * The `type` values Tatum documents for an address event, and what the portal does with each. The
 * Address event page shows `native`, `fungible` and `fee` and says the event also covers ERC-721,
 * ERC-1155 and internal transfers; the SDK names those `nft`, `multitoken` and `internal` (its
 * TxType). `token` is the v3 name of `fungible`, still seen in delivered bodies.
 */
const TYPES: Record<string, RecordedType | { ignore: string }> = {
  native: 'native',
  internal: 'internal',
  fungible: 'fungible',
  token: 'fungible',
  fee: 'fee',
  nft: { ignore: 'an NFT (ERC-721) transfer: the history records ETH and fungible tokens only' },
  multitoken: {
    ignore: 'a multi-token (ERC-1155) transfer: the history records ETH and fungible tokens only',
  },
};

export function parseAddressEvent(body: unknown): ParseResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { kind: 'invalid', problems: ['body must be a JSON object'] };
  }
  const b = body as Record<string, unknown>;
  const problems: string[] = [];
  const rawType = b['type'];
  if (typeof rawType !== 'string' || rawType === '') {
    problems.push('type must be a string such as native, fungible or fee');
  }
  const text = (key: string, pattern: RegExp | null, what: string): string => {
    const value = b[key];
    if (typeof value !== 'string' || value === '' || (pattern && !pattern.test(value))) {
      problems.push(`${key} must be ${what}`);
      return '';
    }
    return value;
  };
  const address = text('address', ADDRESS, 'a 0x-prefixed 20-byte hex address');
  const txId = text('txId', TX_HASH, 'a 0x-prefixed 32-byte transaction hash');
  if (b['subscriptionType'] !== 'ADDRESS_EVENT') problems.push('subscriptionType must be ADDRESS_EVENT');
  // What an ignored kind needs to be told apart from garbage; the rest is checked only for kinds recorded.
  if (problems.length > 0) return { kind: 'invalid', problems };

  const known = TYPES[rawType as string];
  if (known === undefined) {
    return {
      kind: 'ignored',
      reason: `type ${JSON.stringify(rawType)} of ${txId} is not one Tatum documents for an address event; not recorded`,
    };
  }
  if (typeof known === 'object') return { kind: 'ignored', reason: `${txId}: ${known.ignore}` };

  const amount = text('amount', DECIMAL, 'a decimal string such as "1.5" or "-0.25"');
  const asset = text('asset', null, 'the asset symbol or token contract');
  const chain = text('chain', null, 'the chain name');
  const blockNumber = b['blockNumber'];
  if (typeof blockNumber !== 'number' || !Number.isSafeInteger(blockNumber) || blockNumber < 0) {
    problems.push('blockNumber must be a non-negative integer');
  }
  const counter = b['counterAddress'];
  if (counter !== undefined && counter !== null && (typeof counter !== 'string' || !ADDRESS.test(counter))) {
    problems.push('counterAddress must be a 0x-prefixed 20-byte hex address when present');
  }
  const contractAddress = b['contractAddress'];
  if (
    contractAddress !== undefined &&
    contractAddress !== null &&
    (typeof contractAddress !== 'string' || !ADDRESS.test(contractAddress))
  ) {
    problems.push('contractAddress must be a 0x-prefixed 20-byte hex address when present');
  }
  const contract =
    known !== 'fungible'
      ? null
      : typeof contractAddress === 'string'
        ? contractAddress.toLowerCase()
        : ADDRESS.test(asset)
          ? asset.toLowerCase()
          : null;
  if (known === 'fungible' && contract === null && problems.length === 0) {
    problems.push('a fungible event must name its token contract in contractAddress or asset');
  }
  const subscriptionId = b['subscriptionId'];
  if (subscriptionId !== undefined && subscriptionId !== null && typeof subscriptionId !== 'string') {
    problems.push('subscriptionId must be a string when present');
  }
  const timestamp = b['timestamp'];
  if (
    timestamp !== undefined &&
    timestamp !== null &&
    (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0)
  ) {
    problems.push('timestamp must be milliseconds since the epoch when present');
  }
  const reorg = b['reorg'];
  if (reorg !== undefined && reorg !== null && typeof reorg !== 'boolean') {
    problems.push('reorg must be true or false when present');
  }
  if (problems.length > 0) return { kind: 'invalid', problems };
  return {
    kind: 'event',
    event: {
      address,
      amount,
      asset,
      blockNumber: blockNumber as number,
      counterAddress: typeof counter === 'string' ? counter : null,
      txId,
      type: known,
      contract,
      chain,
      subscriptionType: 'ADDRESS_EVENT',
      subscriptionId: typeof subscriptionId === 'string' ? subscriptionId : null,
      timestamp: typeof timestamp === 'number' ? timestamp : null,
      reorg: reorg === true,
    },
  };
}

export type Skip = { because: 'other-chain' | 'mempool'; message: string };

/**
 * Why a delivery is answered without being recorded, or null to record it. Asked before the body
 * is checked, since an event of another chain need not look like one of ours (a Tron address):
 * - another chain than the configured one: a subscription made with another network's key, or a
 *   mistake; recording it would show a user money on a network the portal does not use;
 * - a mempool event (`mempool: true`): the transaction is not in a block yet and may never be
 *   (replaced, dropped). Its block event follows and carries everything, so nothing is stored now
 *   rather than a pending row that could stay pending forever.
 */
export function skipOf(body: unknown, chain: string): Skip | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const sent = b['chain'];
  if (typeof sent === 'string' && sent.toLowerCase() !== chain.toLowerCase()) {
    return { because: 'other-chain', message: `chain ${sent} is not the configured chain ${chain}` };
  }
  if (b['mempool'] === true) {
    return {
      because: 'mempool',
      message: `a mempool event of ${String(b['txId'])}: recorded when its block event arrives`,
    };
  }
  return null;
}
