import styled from 'styled-components';
import { dialogCopy } from '../../../copy/dialogs.ts';
import type { HistoryEntry } from './transaction-row.ts';
import { useSettings } from '../../settings-context.tsx';
import { formatTime } from '../format-time.ts';
import { VisuallyHidden } from '../../common/VisuallyHidden.tsx';
import { Tag } from '../parts.tsx';
import { theme } from '../../theme.ts';

// One line of the history: what happened, its status, how much of what (exact on hover), what it did in words
// (when the row says), and its hash — a link to the block explorer when one is configured,
// otherwise the preview with the full hash in its title. Every field is rendered as text.
export function TransactionItem({ entry }: { entry: HistoryEntry }) {
  const { explorerUrl } = useSettings();
  return (
    <Item>
      <Top>
        <Type>{entry.type}</Type>
        <Tag>{entry.status}</Tag>
      </Top>
      <Amount title={entry.exactAmount === '' ? undefined : `${entry.exactAmount} ${entry.symbol}`}>
        {entry.amount} {entry.symbol}
      </Amount>
      {entry.detail === '' ? null : (
        <Detail $dropped={entry.dropped} title={entry.counterparty === '' ? undefined : entry.counterparty}>
          {entry.detail}
        </Detail>
      )}
      <Bottom>
        <time dateTime={entry.createdAt}>{formatTime(entry.createdAt)}</time>
        <Hash>
          {dialogCopy.transactions.hash}:{' '}
          {entry.hash === '' ? (
            dialogCopy.transactions.noHash
          ) : explorerUrl ? (
            <a
              href={`${explorerUrl}/tx/${entry.hash}`}
              target="_blank"
              rel="noopener noreferrer"
              title={entry.hash}
            >
              {entry.hashPreview}
              <VisuallyHidden> {dialogCopy.transactions.openInExplorer}</VisuallyHidden>
            </a>
          ) : (
            <span title={entry.hash}>{entry.hashPreview}</span>
          )}
        </Hash>
      </Bottom>
    </Item>
  );
}

const Item = styled.li`
  padding: ${theme.space(3)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
`;

const Top = styled.div`
  display: flex;
  align-items: baseline;
  justify-content: space-between;
  gap: ${theme.space(2)};
`;

const Type = styled.h3`
  margin: 0;
  font-size: 1rem;
  overflow-wrap: anywhere;
`;

const Amount = styled.p`
  margin: ${theme.space(1)} 0;
  font-weight: 600;
  font-variant-numeric: tabular-nums;
  overflow-wrap: anywhere;
`;

const Detail = styled.p<{ $dropped: boolean }>`
  margin: 0 0 ${theme.space(1)};
  color: ${({ $dropped }) => ($dropped ? theme.color.danger : theme.color.textMuted)};
  overflow-wrap: anywhere;
`;

const Bottom = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  gap: ${theme.space(2)};
  font-size: 0.85rem;
  color: ${theme.color.textMuted};
`;

const Hash = styled.span`
  font-family: ${theme.font.mono};
`;
