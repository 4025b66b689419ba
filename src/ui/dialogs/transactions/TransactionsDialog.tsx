import styled from 'styled-components';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { toHistoryEntry } from './transaction-row.ts';
import { Button } from '../../common/Button.tsx';
import { Dialog } from '../../common/Dialog.tsx';
import type { TransactionRow } from '../../../domain/transactions.ts';
import { useSessionChild, useSessionSelector } from '../../portal-context.tsx';
import { Actions, StatusText } from '../parts.tsx';
import { useDialog } from '../useDialog.ts';
import { TransactionItem } from './TransactionItem.tsx';
import { theme } from '../../theme.ts';

// The history modal (docs/product.md#history-dialog): the 20 newest transactions, loaded each
// time it opens (the root routes that). Rows of an earlier load stay on show
// while a new one runs or after it fails.
export function TransactionsDialog() {
  const { open, close } = useDialog('transactions');
  return (
    <Dialog open={open} onClose={close} title={dialogCopy.transactions.title}>
      <TransactionList />
    </Dialog>
  );
}

const NONE: readonly TransactionRow[] = [];

function TransactionList() {
  const transactions = useSessionChild('transactions');
  const rows = useSessionSelector('transactions', (snapshot) => snapshot.context.rows, NONE);
  const status = useSessionSelector(
    'transactions',
    (snapshot) => (snapshot.matches('error') ? 'error' : snapshot.matches('ready') ? 'ready' : 'loading'),
    'loading',
  );
  const entries = rows.map((row) => toHistoryEntry(row));

  return (
    <>
      {entries.length > 0 ? (
        <List aria-busy={status === 'loading'}>
          {entries.map((entry) => (
            <TransactionItem key={entry.id} entry={entry} />
          ))}
        </List>
      ) : status === 'ready' ? (
        <StatusText role="status">{dialogCopy.transactions.empty}</StatusText>
      ) : status === 'loading' ? (
        <StatusText role="status">{dialogCopy.transactions.loading}</StatusText>
      ) : null}
      {status === 'error' ? (
        <>
          <StatusText role="alert">{dialogCopy.transactions.error}</StatusText>
          <Actions>
            <Button
              type="button"
              $variant="secondary"
              onClick={() => transactions?.send({ type: 'transactions.refresh' })}
            >
              {dialogCopy.transactions.retry}
            </Button>
          </Actions>
        </>
      ) : null}
    </>
  );
}

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${theme.space(2)};
`;
