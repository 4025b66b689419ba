import { historyCopy } from '../../../copy/history.ts';
import { transactionCopy } from '../../../copy/index.ts';
import type { TransactionRow } from '../../../domain/transactions.ts';
import { amountText } from '../../common/amount-text.ts';

// One line of the transaction history (docs/product.md#history-dialog). Rows written by different
// backends name the same fact differently; the first non-null name wins.

export type HistoryEntry = {
  id: string;
  /** The type with underscores shown as spaces. */
  type: string;
  status: string;
  /**
   * amount, else asset_amount, else '', for reading (amountText: grouped, cut); `unlimited` for an
   * approval of the largest allowance.
   */
  amount: string;
  /** The amount exactly as recorded, for hover; '' when there is none or it is unlimited. */
  exactAmount: string;
  /** token_symbol, else asset_symbol, else ''. */
  symbol: string;
  /** tx_hash, else transaction_hash, else ''. */
  hash: string;
  /** The first 10 characters of the hash and '...' (docs/product.md#constants); '' without a hash. */
  hashPreview: string;
  createdAt: string;
  /**
   * What the row did beyond its amount: a swap's both legs, an approval's spender and allowance,
   * a transfer's other side, or that the transaction was dropped. '' when the row does not carry
   * what it would need, as rows recorded before the chain's history do not.
   */
  detail: string;
  /** The full address the detail shows shortened; '' when it shows none. */
  counterparty: string;
  /** The transaction left the chain after a reorganisation. */
  dropped: boolean;
};

const SENT = new Set(['token_sent', 'native_sent', 'internal_sent']);
const RECEIVED = new Set(['token_received', 'native_received', 'internal_received', 'faucet']);

/** `locale`: the reader's own unless given (the tests fix one). */
export function toHistoryEntry(row: TransactionRow, locale?: string): HistoryEntry {
  // tx_hash is NOT NULL in the schema, but rows recorded by older writers may
  // carry it empty and the hash under transaction_hash.
  const hash = row.tx_hash || (row.transaction_hash ?? '');
  const amount = row.amount ?? row.asset_amount ?? '';
  const symbol = row.token_symbol ?? row.asset_symbol ?? '';
  const dropped = row.status === 'dropped';
  // A dropped transaction moved nothing that still stands, so its legs and counterparty are not
  // told as if they had happened.
  const read = (figure: string) => amountText(figure, locale);
  const detail = dropped
    ? { text: historyCopy.dropped, counterparty: '' }
    : detailOf(row, amount, symbol, read);
  return {
    id: row.id,
    type: transactionCopy.typeLabel(row.type),
    status: row.status,
    // An unlimited allowance is 2^256 - 1 in the token's units: a figure nobody means.
    amount: row.unlimited === true ? historyCopy.unlimited : read(amount),
    exactAmount: row.unlimited === true ? '' : amount,
    symbol,
    hash,
    hashPreview: hash === '' ? '' : transactionCopy.hashPreview(hash),
    createdAt: row.created_at,
    detail: detail.text,
    counterparty: detail.counterparty,
    dropped,
  };
}

type Detail = { text: string; counterparty: string };

const NO_DETAIL: Detail = { text: '', counterparty: '' };

function detailOf(
  row: TransactionRow,
  amount: string,
  symbol: string,
  read: (figure: string) => string,
): Detail {
  if (row.type === 'swap') {
    // Both legs are signed from the wallet's side: DDEX that left it was sold.
    const { counter_amount: otherAmount, counter_symbol: otherSymbol } = row;
    if (amount === '' || !otherAmount || !otherSymbol) return NO_DETAIL;
    const words = amount.startsWith('-') ? historyCopy.sold : historyCopy.bought;
    return {
      text: words(read(unsigned(amount)), symbol, read(unsigned(otherAmount)), otherSymbol),
      counterparty: '',
    };
  }
  const other = row.counterparty ?? '';
  if (other === '') return NO_DETAIL;
  if (row.type === 'approval') {
    const allowance = row.unlimited === true ? historyCopy.unlimited : read(amount);
    return { text: historyCopy.allowed(other, allowance, symbol), counterparty: other };
  }
  if (SENT.has(row.type)) return { text: historyCopy.to(other), counterparty: other };
  if (RECEIVED.has(row.type)) return { text: historyCopy.from(other), counterparty: other };
  return NO_DETAIL;
}

function unsigned(amount: string): string {
  return amount.startsWith('-') ? amount.slice(1) : amount;
}
