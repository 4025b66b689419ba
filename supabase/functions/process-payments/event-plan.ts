import type { AddressEvent } from '../_shared/address-event.ts';
import { RpcError } from '../_shared/rpc.ts';
import type { WalletChain } from '../_shared/wallet-chain.ts';

// What one address event puts in its owner's history. The event itself is enough for a plain ETH
// transfer and for another token's transfer; for everything that touches DDEX or that the wallet
// sent (its fee event stands for every transaction it sends), the transaction's receipt is read
// once and is the truth: each DDEX transfer is its own row, keyed by its log, so two transfers in
// one transaction stay two rows although Tatum's body names no log; the wallet's own swap on the
// market is one row with both legs, never a transfer row per leg; an approval it gave is a row.

export type PlannedRow = {
  type: string;
  logIndex: number | null;
  amount: string;
  /** 'DDEX', 'ETH', or an unknown token's contract address. */
  symbol: string;
  counterparty: string | null;
  counterAmount: string | null;
  counterSymbol: string | null;
  unlimited: boolean;
};

export type EventPlan =
  /** The rows to record, and the block the chain (or, without one to ask, the event) puts them in. */
  | { kind: 'rows'; rows: PlannedRow[]; blockNumber: number }
  /** A reorganisation took the transaction out of the chain. */
  | { kind: 'dropped' };

/**
 * The rows of one event; `chain` null records the event as it stands (no node configured), `token`
 * is DDEX's contract (lower case), or null where none is configured.
 */
export async function planEvent(
  event: AddressEvent,
  chain: WalletChain | null,
  token: string | null,
): Promise<EventPlan> {
  const own = eventRow(event, token);
  if (chain === null || !(event.reorg || readsChain(event, chain))) {
    return { kind: 'rows', rows: [own], blockNumber: event.blockNumber };
  }
  const mined = await chain.mined(event.txId);
  if (mined === null) {
    if (event.reorg) return { kind: 'dropped' };
    // A delivery can outrun a load-balanced node: answered 5xx, Tatum delivers it again later.
    throw new RpcError(`${event.txId}: the node has no receipt for it yet`);
  }
  const activity: PlannedRow[] = (await chain.activity(mined, event.address)).map((row) => ({
    type: row.type,
    logIndex: row.logIndex,
    amount: row.amount,
    symbol: 'DDEX',
    counterparty: row.counterparty,
    counterAmount: row.counterAmount,
    counterSymbol: row.counterAmount === null ? null : 'ETH',
    unlimited: row.unlimited,
  }));
  const swapped = activity.some((row) => row.type === 'swap');
  // A DDEX event is one of the receipt's transfers; the ETH leg of the wallet's own swap is in its
  // swap row. Anything else the event told (its fee, an ETH transfer) is a row of its own.
  const covered =
    isDdex(event, chain.token) || (swapped && (event.type === 'native' || event.type === 'internal'));
  return {
    kind: 'rows',
    rows: covered ? activity : [...activity, own],
    blockNumber: mined.blockNumber,
  };
}

/**
 * Whether the event needs the receipt: DDEX transfers (the receipt tells them apart), fees (every
 * transaction the wallet sends has one: swaps and approvals are found through it) and ETH that
 * went to or came from the router (a leg of a swap, or not).
 */
function readsChain(event: AddressEvent, chain: WalletChain): boolean {
  if (event.type === 'fee' || isDdex(event, chain.token)) return true;
  return chain.router !== null && event.counterAddress?.toLowerCase() === chain.router;
}

function isDdex(event: AddressEvent, token: string): boolean {
  return event.type === 'fungible' && event.contract === token;
}

/** The row the event alone describes: `token_*` for any fungible token, as the history always named it. */
export function eventRow(event: AddressEvent, token: string | null): PlannedRow {
  const symbol =
    event.type === 'fungible'
      ? event.contract === token
        ? 'DDEX'
        : (event.contract ?? event.asset)
      : event.asset;
  const kind = event.type === 'fungible' ? 'token' : event.type;
  const direction = event.amount.startsWith('-') ? 'sent' : 'received';
  return {
    type: event.type === 'fee' ? 'fee' : `${kind}_${direction}`,
    logIndex: null,
    amount: event.amount,
    symbol,
    counterparty: event.counterAddress?.toLowerCase() ?? null,
    counterAmount: null,
    counterSymbol: null,
    unlimited: false,
  };
}
