import { useId } from 'react';
import styled from 'styled-components';
import { botCopy } from '../../../copy/bots.ts';
import { transactionCopy } from '../../../copy/index.ts';
import { dialogCopy } from '../../../copy/dialogs.ts';
import type { BotRun } from '../../../domain/bots.ts';
import { runInWords } from '../../../machines/bots/bot-checks.ts';
import { VisuallyHidden } from '../../common/VisuallyHidden.tsx';
import { formatTime } from '../../dialogs/format-time.ts';
import { useSettings } from '../../settings-context.tsx';
import { Muted } from './parts.tsx';
import { theme } from '../../theme.ts';

/**
 * A bot's newest runs, newest first: when the swap was mined, the price before → after, the swap's
 * size and side, and its transaction (linked to the block explorer when one is configured).
 */
export function BotRuns({ runs }: { runs: readonly BotRun[] }) {
  const titleId = useId();
  return (
    <div>
      <Title id={titleId}>{botCopy.runsTitle}</Title>
      {runs.length === 0 ? (
        <Muted>{botCopy.noRuns}</Muted>
      ) : (
        <List aria-labelledby={titleId}>
          {runs.map((run) => (
            <Run key={run.id} run={run} />
          ))}
        </List>
      )}
    </div>
  );
}

function Run({ run }: { run: BotRun }) {
  const { explorerUrl } = useSettings();
  const words = runInWords(run);
  const hash = transactionCopy.hashPreview(run.txHash);
  return (
    <Item>
      <time dateTime={run.blockTime}>{formatTime(run.blockTime)}</time>
      <span>{words.price}</span>
      <Quiet>{words.swap}</Quiet>
      {explorerUrl ? (
        <a href={`${explorerUrl}/tx/${run.txHash}`} target="_blank" rel="noopener noreferrer">
          {botCopy.viewTransaction}
          <VisuallyHidden>
            {' '}
            {hash} {dialogCopy.transactions.openInExplorer}
          </VisuallyHidden>
        </a>
      ) : (
        <Hash>{hash}</Hash>
      )}
    </Item>
  );
}

const Title = styled.h4`
  margin: ${theme.space(4)} 0 ${theme.space(2)};
  font-size: 0.95rem;
`;

const List = styled.ol`
  display: grid;
  gap: ${theme.space(2)};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Item = styled.li`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(1)} ${theme.space(3)};
  padding: ${theme.space(2)} ${theme.space(3)};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surfaceAlt};
  font-size: 0.9rem;
  font-variant-numeric: tabular-nums;
  overflow-wrap: anywhere;
  time {
    font-weight: 600;
  }
`;

const Quiet = styled.span`
  color: ${theme.color.textMuted};
`;

const Hash = styled.code`
  font-family: ${theme.font.mono};
  color: ${theme.color.textMuted};
`;
