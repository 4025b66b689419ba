import styled from 'styled-components';
import { dexCopy } from '../../../copy/dex.ts';
import { dialogCopy } from '../../../copy/dialogs.ts';
import type { Trade } from '../../../domain/dex.ts';
import { tradeRows } from '../../../machines/trading/market-figures.ts';
import { VisuallyHidden } from '../../common/VisuallyHidden.tsx';
import { useSettings } from '../../settings-context.tsx';
import { Muted, SubTitle } from './parts.tsx';
import { theme } from '../../theme.ts';

const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });
const headings = dexCopy.tradeHeadings;

/** The last trades, newest first; each time links to its transaction when an explorer is configured. */
export function TradesTable({ trades }: { trades: readonly Trade[] }) {
  const { explorerUrl } = useSettings();
  const rows = tradeRows(trades);
  return (
    <>
      <SubTitle id="trades-title">{dexCopy.tradesTitle}</SubTitle>
      {rows.length === 0 ? (
        <Muted>{dexCopy.tradesEmpty}</Muted>
      ) : (
        // Focusable, so a keyboard can scroll it sideways on a phone.
        <Scroll tabIndex={0} role="region" aria-labelledby="trades-title">
          <Table aria-labelledby="trades-title">
            <thead>
              <tr>
                <th scope="col">{headings.time}</th>
                <th scope="col">{headings.side}</th>
                <th scope="col">{headings.amountIn}</th>
                <th scope="col">{headings.amountOut}</th>
                <th scope="col">{headings.price}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>
                    {explorerUrl ? (
                      <a href={`${explorerUrl}/tx/${row.hash}`} target="_blank" rel="noopener noreferrer">
                        {time.format(row.time)}
                        <VisuallyHidden> {dialogCopy.transactions.openInExplorer}</VisuallyHidden>
                      </a>
                    ) : (
                      time.format(row.time)
                    )}
                  </td>
                  <td>{row.side}</td>
                  <td>{row.amountIn}</td>
                  <td>{row.amountOut}</td>
                  <td>{row.price}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Scroll>
      )}
    </>
  );
}

/** A phone scrolls the table sideways rather than squeezing its numbers. */
const Scroll = styled.div`
  overflow-x: auto;
`;

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 0.9rem;
  font-variant-numeric: tabular-nums;
  th,
  td {
    padding: ${theme.space(2)} ${theme.space(2)};
    border-bottom: 1px solid ${theme.color.border};
    text-align: right;
    white-space: nowrap;
  }
  th:first-child,
  td:first-child,
  th:nth-child(2),
  td:nth-child(2) {
    text-align: left;
  }
  th {
    color: ${theme.color.textMuted};
    font-weight: 600;
  }
`;
