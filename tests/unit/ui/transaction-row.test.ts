import { describe, expect, it } from 'vitest';
import { transactionCopy } from '../../../src/copy/index.ts';
import { historyCopy } from '../../../src/copy/history.ts';
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

// The detail line of rows the chain's history writes (docs/product.md#history-dialog): rows
// recorded before those columns existed have none, and read exactly as before.
describe('toHistoryEntry: the detail line', () => {
  const WALLET = '0x1111111111111111111111111111111111111111';
  const ROUTER = '0x7a250d5630b4cf539739df2c5dacb4c659f2488d';

  it('gives an old row, without the new columns, no detail and its amount as recorded', () => {
    // As a fixture leaves them out, and as the database reads them on a row recorded before them.
    const readBack = {
      block_number: null,
      counterparty: null,
      counter_amount: null,
      counter_symbol: null,
      unlimited: false,
    };
    for (const type of [
      'token_sent',
      'token_received',
      'native_sent',
      'native_received',
      'fee',
      'swap',
      'approval',
    ]) {
      for (const columns of [{}, readBack]) {
        const entry = toHistoryEntry(row({ type, status: 'confirmed', amount: '-1.25', ...columns }));
        expect(entry, type).toMatchObject({ detail: '', counterparty: '', dropped: false, amount: '-1.25' });
      }
    }
  });

  it('shows its amount and the figures of its detail for reading, the exact amount kept for hover', () => {
    const transfer = toHistoryEntry(row({ amount: '1000250.123456789012345678' }), 'en-US');
    expect(transfer).toMatchObject({ amount: '1,000,250.12345', exactAmount: '1000250.123456789012345678' });
    const swap = toHistoryEntry(
      row({
        type: 'swap',
        amount: '-1234.567890123456789012',
        counter_amount: '0.000012345678901234',
        counter_symbol: 'ETH',
      }),
      'en-US',
    );
    expect(swap).toMatchObject({ amount: '-1,234.56789', exactAmount: '-1234.567890123456789012' });
    expect(swap.detail).toBe(historyCopy.sold('1,234.56789', 'DDEX', '0.0000123456', 'ETH'));
    const approval = toHistoryEntry(row({ type: 'approval', amount: '5000', counterparty: ROUTER }), 'en-US');
    expect(approval.detail).toBe(historyCopy.allowed(ROUTER, '5,000', 'DDEX'));
    // Nothing to read more exactly: no amount, or an unlimited allowance.
    expect(toHistoryEntry(row({ amount: null })).exactAmount).toBe('');
    expect(toHistoryEntry(row({ type: 'approval', amount: '1', unlimited: true })).exactAmount).toBe('');
  });

  it('reads a buy from a swap whose DDEX leg is positive: what it got, then what it paid', () => {
    const entry = toHistoryEntry(
      row({ type: 'swap', amount: '12.5', counter_amount: '-0.01', counter_symbol: 'ETH' }),
    );
    expect(entry.detail).toBe(historyCopy.bought('12.5', 'DDEX', '0.01', 'ETH'));
    expect(entry.detail).toBe('Bought 12.5 DDEX for 0.01 ETH');
    // The amount line keeps the signed figure, as before.
    expect(entry).toMatchObject({ amount: '12.5', symbol: 'DDEX', counterparty: '', dropped: false });
  });

  it('reads a sale from a swap whose DDEX leg is negative', () => {
    const entry = toHistoryEntry(
      row({ type: 'swap', amount: '-3', counter_amount: '0.002', counter_symbol: 'ETH' }),
    );
    expect(entry.detail).toBe(historyCopy.sold('3', 'DDEX', '0.002', 'ETH'));
    expect(entry.detail).toBe('Sold 3 DDEX for 0.002 ETH');
    expect(entry.amount).toBe('-3');
  });

  it('gives a swap without its other leg no detail', () => {
    expect(toHistoryEntry(row({ type: 'swap', amount: '12.5', counter_amount: null })).detail).toBe('');
    expect(toHistoryEntry(row({ type: 'swap', amount: '12.5', counter_amount: '-0.01' })).detail).toBe('');
  });

  it('names the spender and the allowance of a limited approval', () => {
    const entry = toHistoryEntry(
      row({ type: 'approval', amount: '50', counterparty: ROUTER, unlimited: false }),
    );
    expect(entry.detail).toBe(historyCopy.allowed(ROUTER, '50', 'DDEX'));
    expect(entry.detail).toBe('Allowed 0x7a25...488d to spend 50 DDEX');
    expect(entry).toMatchObject({ amount: '50', counterparty: ROUTER });
  });

  it('says unlimited for an approval of the largest allowance, never its meaningless figure', () => {
    const max = '115792089237316195423570985008687907853269984665640564039457.584007913129639935';
    const entry = toHistoryEntry(
      row({ type: 'approval', amount: max, counterparty: ROUTER, unlimited: true }),
    );
    expect(entry.detail).toBe(historyCopy.allowed(ROUTER, historyCopy.unlimited, 'DDEX'));
    expect(entry.detail).toBe('Allowed 0x7a25...488d to spend unlimited DDEX');
    expect(entry.amount).toBe(historyCopy.unlimited);
    expect(JSON.stringify(entry)).not.toContain(max);
  });

  it('gives an approval without a spender no detail', () => {
    expect(toHistoryEntry(row({ type: 'approval', amount: '50', counterparty: null })).detail).toBe('');
  });

  it.each(['token_sent', 'native_sent', 'internal_sent'])('names where a %s row went', (type) => {
    const entry = toHistoryEntry(row({ type, amount: '-1', counterparty: WALLET }));
    expect(entry.detail).toBe(historyCopy.to(WALLET));
    expect(entry.detail).toBe('To 0x1111...1111');
    expect(entry.counterparty).toBe(WALLET);
  });

  it.each(['token_received', 'native_received', 'internal_received', 'faucet'])(
    'names where a %s row came from',
    (type) => {
      const entry = toHistoryEntry(row({ type, amount: '1', counterparty: ROUTER }));
      expect(entry.detail).toBe(historyCopy.from(ROUTER));
      expect(entry.detail).toBe('From 0x7a25...488d');
      expect(entry.counterparty).toBe(ROUTER);
    },
  );

  it('gives a transfer without a counterparty, and a fee, no detail', () => {
    expect(toHistoryEntry(row({ type: 'internal_received', counterparty: null })).detail).toBe('');
    expect(toHistoryEntry(row({ type: 'fee', amount: '-0.0001', counterparty: null })).detail).toBe('');
  });

  it('says plainly that a dropped transaction is no longer in the chain, whatever its kind', () => {
    for (const overrides of [
      { type: 'swap', amount: '12.5', counter_amount: '-0.01', counter_symbol: 'ETH' },
      { type: 'token_sent', amount: '-1', counterparty: WALLET },
      { type: 'approval', amount: '50', counterparty: ROUTER },
      { type: 'fee', amount: '-0.0001' },
    ]) {
      const entry = toHistoryEntry(row({ ...overrides, status: 'dropped' }));
      expect(entry, overrides.type).toMatchObject({
        status: 'dropped',
        detail: historyCopy.dropped,
        counterparty: '',
        dropped: true,
      });
    }
    expect(historyCopy.dropped).toMatch(/no longer in the chain/i);
  });
});
