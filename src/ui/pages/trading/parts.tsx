import styled from 'styled-components';
import { dexCopy } from '../../../copy/dex.ts';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { VisuallyHidden } from '../../common/VisuallyHidden.tsx';
import { useSettings } from '../../settings-context.tsx';
import { theme } from '../../theme.ts';

// Pieces the Trading tab's cards share: a card title, a list of figures, quiet and warning lines,
// and a transaction's hash, linked to the block explorer when one is configured.

export const CardTitle = styled.h2`
  margin: 0 0 ${theme.space(4)};
  font-size: 1.2rem;
`;

export const SubTitle = styled.h3`
  margin: ${theme.space(5)} 0 ${theme.space(2)};
  font-size: 1rem;
`;

/** Name and value pairs, two columns (one on a phone). */
export const Figures = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: ${theme.space(1)} ${theme.space(4)};
  margin: 0 0 ${theme.space(4)};
  dt {
    color: ${theme.color.textMuted};
  }
  dd {
    margin: 0;
    font-variant-numeric: tabular-nums;
    overflow-wrap: anywhere;
  }
`;

export const Muted = styled.p`
  margin: 0 0 ${theme.space(3)};
  color: ${theme.color.textMuted};
  font-size: 0.9rem;
  overflow-wrap: anywhere;
`;

export const Warning = styled.p`
  margin: 0 0 ${theme.space(3)};
  padding: ${theme.space(2)} ${theme.space(3)};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.warningBg};
  color: ${theme.color.warningText};
  font-weight: 600;
`;

/** 'Transaction hash: 0x…', a link to the explorer when one is configured. */
export function TransactionHash({ hash }: { hash: string }) {
  const { explorerUrl } = useSettings();
  const text = dexCopy.transactionHash(hash);
  return (
    <Muted>
      {explorerUrl ? (
        <a href={`${explorerUrl}/tx/${hash}`} target="_blank" rel="noopener noreferrer">
          {text}
          <VisuallyHidden> {dialogCopy.transactions.openInExplorer}</VisuallyHidden>
        </a>
      ) : (
        text
      )}
    </Muted>
  );
}
