import styled from 'styled-components';
import type { JournalEntry } from '../journal-types.ts';
import { devtoolsCopy } from './devtools.copy.ts';
import { formatAt, toDisplayJson } from './format.ts';
import { Mono, Pre } from './styles.ts';
import { theme } from '../../ui/theme.ts';

// One journal entry: seq, time, target, source and event type on one line;
// the payload (the event without its type) unfolds under it.

export function JournalEntryItem({ entry }: { entry: JournalEntry }) {
  const { type, ...payload } = entry.event;
  const hasPayload = Object.keys(payload).length > 0;
  const line = (
    <Line>
      <Seq>#{entry.seq}</Seq>
      <Muted>{formatAt(entry.at)}</Muted>
      <Mono>{entry.target}</Mono>
      <Muted>{devtoolsCopy.journal.from(entry.source)}</Muted>
      <EventType>{type}</EventType>
    </Line>
  );
  if (!hasPayload) return <Item>{line}</Item>;
  return (
    <Item>
      <details>
        <Toggle>{line}</Toggle>
        <Pre>{toDisplayJson(payload)}</Pre>
      </details>
    </Item>
  );
}

const Item = styled.li`
  padding: ${theme.space(2)};
  border-bottom: 1px solid ${theme.color.border};
  font-size: 0.8125rem;
`;

const Toggle = styled.summary`
  cursor: pointer;
`;

// Inline, so it wraps like text beside the disclosure marker on narrow screens.
const Line = styled.span`
  & > * {
    margin-right: ${theme.space(2)};
  }
`;

const Seq = styled.span`
  font-variant-numeric: tabular-nums;
  font-weight: 600;
`;

const Muted = styled.span`
  color: ${theme.color.textMuted};
  font-variant-numeric: tabular-nums;
`;

const EventType = styled(Mono)`
  font-weight: 600;
  color: ${theme.color.accent};
`;
