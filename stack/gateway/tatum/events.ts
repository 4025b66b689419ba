import { formatUnits, type Address, type Hex } from 'viem';

// Turns one block's transfers into Tatum address-event payloads for the watched addresses, in the
// shape Tatum's documentation shows (docs/local-stack.md#tatums-address-event): a native transfer
// notifies both sides (negative amount for the sender), the sender also gets a `fee` event for the
// gas it paid (no counterAddress), and every ERC-20 Transfer log notifies both sides as `fungible`
// in the token's units, the token's contract as `asset`. As in Tatum's body, nothing names the
// log: two transfers of one transaction are two events that differ only in amount or direction.
// Pure, so the rules are tested without a chain.

/** The documented body, less what the watcher adds per subscription (subscriptionId, chain). */
export type AddressEventPayload = {
  address: string;
  amount: string;
  asset: string;
  blockNumber: number;
  /** Absent on a fee event, as in the documented fee body. */
  counterAddress?: string;
  txId: string;
  type: 'native' | 'fungible' | 'fee';
  chain: string;
  subscriptionType: 'ADDRESS_EVENT';
  /** When the block was mined, in milliseconds since the epoch. */
  timestamp: number;
  /** Only on a redelivery after a reorganisation. */
  reorg?: true;
};

export type BlockTransaction = {
  hash: Hex;
  from: Address;
  to: Address | null;
  value: bigint;
};

/** What the sender paid for gas: gasUsed × effectiveGasPrice from the receipt. */
export type PaidFee = { hash: Hex; from: Address; fee: bigint };

export type TokenTransfer = {
  hash: Hex;
  logIndex: number;
  token: Address;
  decimals: number;
  from: Address;
  to: Address;
  value: bigint;
};

export type BlockActivity = {
  number: bigint;
  /** The block's timestamp, in seconds. */
  timestamp: bigint;
  transactions: BlockTransaction[];
  fees: PaidFee[];
  tokenTransfers: TokenTransfer[];
};

/** One payload owed to one watched address, with the key that makes it unique. */
export type AddressEvent = { address: string; key: string; payload: AddressEventPayload };

const NATIVE_ASSET = 'ETH';
const NATIVE_DECIMALS = 18;

export function addressEvents(
  block: BlockActivity,
  isWatched: (address: string) => boolean,
  chain: string,
): AddressEvent[] {
  const events: AddressEvent[] = [];
  const blockNumber = Number(block.number);
  const timestamp = Number(block.timestamp) * 1000;
  const push = (
    address: string,
    amount: string,
    type: AddressEventPayload['type'],
    asset: string,
    counter: string | null,
    txId: string,
    key: string,
  ) => {
    const own = address.toLowerCase();
    if (!isWatched(own)) return;
    events.push({
      address: own,
      // Direction is part of the key so a transfer to oneself owes both sides.
      key: `${txId}:${key}:${type}:${amount.startsWith('-') ? 'out' : 'in'}:${own}`,
      payload: {
        address: own,
        amount,
        asset,
        blockNumber,
        ...(counter === null ? {} : { counterAddress: counter.toLowerCase() }),
        txId,
        type,
        chain,
        subscriptionType: 'ADDRESS_EVENT',
        timestamp,
      },
    });
  };

  for (const tx of block.transactions) {
    if (tx.value === 0n || tx.to === null) continue;
    const amount = formatUnits(tx.value, NATIVE_DECIMALS);
    push(tx.to, amount, 'native', NATIVE_ASSET, tx.from, tx.hash, 'value');
    push(tx.from, `-${amount}`, 'native', NATIVE_ASSET, tx.to, tx.hash, 'value');
  }
  for (const paid of block.fees) {
    if (paid.fee === 0n) continue;
    push(
      paid.from,
      `-${formatUnits(paid.fee, NATIVE_DECIMALS)}`,
      'fee',
      NATIVE_ASSET,
      null,
      paid.hash,
      'gas',
    );
  }
  for (const transfer of block.tokenTransfers) {
    if (transfer.value === 0n) continue;
    const amount = formatUnits(transfer.value, transfer.decimals);
    const asset = transfer.token.toLowerCase();
    const key = `log${transfer.logIndex}`;
    push(transfer.to, amount, 'fungible', asset, transfer.from, transfer.hash, key);
    push(transfer.from, `-${amount}`, 'fungible', asset, transfer.to, transfer.hash, key);
  }
  return events;
}
