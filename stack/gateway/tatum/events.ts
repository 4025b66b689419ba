import { formatUnits, type Address, type Hex } from 'viem';
import type { AddressEvent as TatumAddressEvent } from '../../../supabase/functions/_shared/address-event.ts';

// Turns one block's transfers into Tatum address-event payloads (legacy
// format) for the watched addresses. Pure, so the rules are tested without a
// chain: a native transfer notifies both sides (negative amount for the
// sender), the sender also gets a 'fee' event for the gas it paid, and every
// ERC-20 Transfer log notifies both sides in the token's units, naming the log,
// so two transfers in one transaction are two events.

/**
 * What the emulator posts: the body process-payments parses, plus Tatum's `mempool` flag. A token
 * event carries its log's `logIndex` (as Tatum's enriched bodies do); native and fee events have
 * no log and leave it out, as the legacy body does.
 */
export type AddressEventPayload = Omit<TatumAddressEvent, 'logIndex'> & { logIndex?: number; mempool: false };

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
  const push = (
    address: string,
    amount: string,
    type: AddressEventPayload['type'],
    asset: string,
    counter: string | null,
    txId: string,
    key: string,
    logIndex?: number,
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
        counterAddress: counter?.toLowerCase() ?? null,
        txId,
        ...(logIndex === undefined ? {} : { logIndex }),
        type,
        chain,
        subscriptionType: 'ADDRESS_EVENT',
        mempool: false,
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
    push(transfer.to, amount, 'token', asset, transfer.from, transfer.hash, key, transfer.logIndex);
    push(transfer.from, `-${amount}`, 'token', asset, transfer.to, transfer.hash, key, transfer.logIndex);
  }
  return events;
}
