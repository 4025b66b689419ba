import { transactionCopy } from '../../../copy/index.ts';
import type { TransactionRow } from '../../../domain/transactions.ts';

// One line of the transaction history (docs/product.md#history-dialog). Rows written by different
// backends name the same fact differently; the first non-null name wins.

export type HistoryEntry = {
  id: string;
  /** The type with underscores shown as spaces. */
  type: string;
  status: string;
  /** amount, else asset_amount, else ''. */
  amount: string;
  /** token_symbol, else asset_symbol, else ''. */
  symbol: string;
  /** tx_hash, else transaction_hash, else ''. */
  hash: string;
  /** The first 10 characters of the hash and '...' (docs/product.md#constants); '' without a hash. */
  hashPreview: string;
  createdAt: string;
};

export function toHistoryEntry(row: TransactionRow): HistoryEntry {
  // tx_hash is NOT NULL in the schema, but rows recorded by older writers may
  // carry it empty and the hash under transaction_hash.
  const hash = row.tx_hash || (row.transaction_hash ?? '');
  return {
    id: row.id,
    type: transactionCopy.typeLabel(row.type),
    status: row.status,
    amount: row.amount ?? row.asset_amount ?? '',
    symbol: row.token_symbol ?? row.asset_symbol ?? '',
    hash,
    hashPreview: hash === '' ? '' : transactionCopy.hashPreview(hash),
    createdAt: row.created_at,
  };
}
