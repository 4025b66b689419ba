import { describe, expect, it } from 'vitest';
import { transactionCopy } from '../../../src/copy/index.ts';
import { toHistoryEntry } from '../../../src/ui/dialogs/transactions/transaction-row.ts';
import type { TransactionRow } from '../../../src/services/supabase/types.ts';

const HASH = '0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';

function row(overrides: Partial<TransactionRow> = {}): TransactionRow {
  return {
    id: 't1',
    user_id: 'u1',
    created_at: '2025-01-02T03:04:05Z',
    type: 'token_transfer_out',
    status: 'completed',
    amount: '12.5',
    asset_amount: null,
    token_symbol: 'DDEX',
    asset_symbol: null,
    tx_hash: HASH,
    transaction_hash: null,
    ...overrides,
  };
}

describe('toHistoryEntry', () => {
  it('shows the type with underscores as spaces and keeps id, status and time', () => {
    const entry = toHistoryEntry(row());
    expect(entry).toMatchObject({
      id: 't1',
      type: 'token transfer out',
      status: 'completed',
      createdAt: '2025-01-02T03:04:05Z',
    });
  });

  it('prefers amount, token_symbol and tx_hash', () => {
    const entry = toHistoryEntry(
      row({ asset_amount: '99', asset_symbol: 'ETH', transaction_hash: '0xother000000000000' }),
    );
    expect(entry).toMatchObject({ amount: '12.5', symbol: 'DDEX', hash: HASH });
  });

  it('falls back to asset_amount, asset_symbol and transaction_hash', () => {
    const entry = toHistoryEntry(
      row({
        amount: null,
        asset_amount: '3',
        token_symbol: null,
        asset_symbol: 'ETH',
        tx_hash: '',
        transaction_hash: HASH,
      }),
    );
    expect(entry).toMatchObject({ amount: '3', symbol: 'ETH', hash: HASH });
  });

  it('shows empty values when neither name is set', () => {
    const entry = toHistoryEntry(
      row({ amount: null, asset_amount: null, token_symbol: null, asset_symbol: null, tx_hash: '' }),
    );
    expect(entry).toMatchObject({ amount: '', symbol: '', hash: '', hashPreview: '' });
  });

  it('previews the first 10 characters of the hash', () => {
    const entry = toHistoryEntry(row());
    expect(entry.hashPreview).toBe(transactionCopy.hashPreview(HASH));
    expect(entry.hashPreview.startsWith(HASH.slice(0, 10))).toBe(true);
    expect(entry.hashPreview).not.toContain(HASH.slice(0, 11));
  });
});
