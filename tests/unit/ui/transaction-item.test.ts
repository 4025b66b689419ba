import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { transactionCopy } from '../../../src/copy/index.ts';
import { dialogCopy } from '../../../src/copy/dialogs.ts';
import { historyCopy } from '../../../src/copy/history.ts';
import type { TransactionRow } from '../../../src/domain/transactions.ts';
import { formatTime } from '../../../src/ui/dialogs/format-time.ts';
import { TransactionItem } from '../../../src/ui/dialogs/transactions/TransactionItem.tsx';
import { toHistoryEntry } from '../../../src/ui/dialogs/transactions/transaction-row.ts';
import { SettingsProvider, type UiSettings } from '../../../src/ui/settings-context.tsx';

// One line of the history dialog as a reader sees it: its texts in order
// (docs/product.md#history-dialog).

const HASH = '0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';
const CREATED = '2025-01-02T03:04:05Z';
const SPENDER = '0x7a250d5630b4cf539739df2c5dacb4c659f2488d';

const SETTINGS: UiSettings = {
  contactEmail: 'desk@example.org',
  productSite: 'https://example.org',
  explorerUrl: null,
  tokenConfigured: true,
  tokenAddress: null,
  chainName: 'Hardhat',
  tabs: { trading: false, bots: false },
};

function row(overrides: Partial<TransactionRow>): TransactionRow {
  return {
    id: 't1',
    user_id: 'u1',
    created_at: CREATED,
    type: 'token_sent',
    status: 'confirmed',
    amount: '-1.25',
    asset_amount: null,
    token_symbol: 'DDEX',
    asset_symbol: null,
    tx_hash: HASH,
    transaction_hash: null,
    ...overrides,
  };
}

function render(transaction: TransactionRow): string {
  const item = createElement(TransactionItem, { entry: toHistoryEntry(transaction, 'en-US') });
  return renderToStaticMarkup(createElement(SettingsProvider, { settings: SETTINGS, children: item }));
}

/** The text nodes of the markup, in order (none of these texts holds an escaped character). */
function texts(html: string): string[] {
  return html
    .split(/<[^>]*>/)
    .map((text) => text.trim())
    .filter((text) => text !== '');
}

/** What every line showed before the detail line: type, status, amount and symbol, time, hash. */
function lineOf(type: string, status: string, amount: string) {
  return {
    head: [transactionCopy.typeLabel(type), status, `${amount} DDEX`],
    tail: [formatTime(CREATED), `${dialogCopy.transactions.hash}:`, transactionCopy.hashPreview(HASH)],
  };
}

describe('TransactionItem', () => {
  it('shows an old row, without the new columns, exactly as before: no detail line', () => {
    const { head, tail } = lineOf('token_sent', 'confirmed', '-1.25');
    expect(texts(render(row({})))).toEqual([...head, ...tail]);
  });

  it('puts the detail between the amount and the time', () => {
    const { head, tail } = lineOf('swap', 'confirmed', '12.5');
    const html = render(
      row({ type: 'swap', amount: '12.5', counter_amount: '-0.01', counter_symbol: 'ETH' }),
    );
    expect(texts(html)).toEqual([...head, historyCopy.bought('12.5', 'DDEX', '0.01', 'ETH'), ...tail]);
  });

  it('shows the full counterparty on hovering its shortened form', () => {
    const html = render(row({ type: 'approval', amount: '50', counterparty: SPENDER }));
    expect(texts(html)).toContain(historyCopy.allowed(SPENDER, '50', 'DDEX'));
    expect(html).toContain(`title="${SPENDER}"`);
  });

  it('shows the amount for reading, and exactly on hovering it', () => {
    const { head, tail } = lineOf('token_sent', 'confirmed', '-1,234.56789');
    const html = render(row({ amount: '-1234.567890123456789012' }));
    expect(texts(html)).toEqual([...head, ...tail]);
    expect(html).toContain('title="-1234.567890123456789012 DDEX"');
  });

  it('shows an unlimited approval as unlimited on its amount line too', () => {
    const { head, tail } = lineOf('approval', 'confirmed', historyCopy.unlimited);
    const html = render(
      row({ type: 'approval', amount: '1157920892', counterparty: SPENDER, unlimited: true }),
    );
    expect(texts(html)).toEqual([
      ...head,
      historyCopy.allowed(SPENDER, historyCopy.unlimited, 'DDEX'),
      ...tail,
    ]);
  });

  it('says a dropped transaction is no longer in the chain', () => {
    const { head, tail } = lineOf('token_sent', 'dropped', '-1.25');
    const html = render(row({ status: 'dropped', counterparty: SPENDER }));
    expect(texts(html)).toEqual([...head, historyCopy.dropped, ...tail]);
    expect(html).not.toContain(`title="${SPENDER}"`);
  });
});
