import { useState } from 'react';
import styled from 'styled-components';
import type { Journal } from '../journal-types.ts';
import { Button } from '../../ui/common/Button.tsx';
import { devtoolsCopy } from './devtools.copy.ts';
import { downloadJson, journalFileName } from './download.ts';
import { JournalEntryItem } from './JournalEntryItem.tsx';
import { Hint, Section, SectionHeading } from './styles.ts';
import { useJournalEntries } from './use-journal.ts';
import { theme } from '../../ui/theme.ts';

// The journal, live and newest first, with a filter and the export. Only the
// newest entries are drawn: the journal is bounded but can still be long.

const SHOWN = 200;

export function JournalView({ journal }: { journal: Journal }) {
  const entries = useJournalEntries(journal);
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const matching = needle
    ? entries.filter(
        (entry) =>
          entry.event.type.toLowerCase().includes(needle) || entry.target.toLowerCase().includes(needle),
      )
    : entries;
  const shown = matching.slice(-SHOWN).reverse();
  const copy = devtoolsCopy.journal;

  return (
    <Section aria-labelledby="devtools-journal-heading">
      <SectionHeading id="devtools-journal-heading">{copy.heading}</SectionHeading>
      <Hint>{copy.description}</Hint>
      <Controls>
        <Button type="button" onClick={() => downloadJson(journal.export(), journalFileName())}>
          {copy.export}
        </Button>
        <FilterLabel>
          {copy.filterLabel}
          <Filter type="search" value={filter} onChange={(event) => setFilter(event.currentTarget.value)} />
        </FilterLabel>
      </Controls>
      <Hint>
        {entries.length === 0
          ? copy.empty
          : shown.length === 0
            ? copy.noMatch
            : copy.count(shown.length, matching.length)}
      </Hint>
      {(entries[0]?.seq ?? 1) > 1 ? <Hint>{copy.truncated}</Hint> : null}
      <List aria-label={copy.heading}>
        {shown.map((entry) => (
          <JournalEntryItem key={entry.seq} entry={entry} />
        ))}
      </List>
    </Section>
  );
}

const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: end;
  gap: ${theme.space(3)};
`;

const FilterLabel = styled.label`
  display: grid;
  gap: ${theme.space(1)};
  flex: 1 1 200px;
  font-size: 0.875rem;
`;

const Filter = styled.input`
  min-height: 40px;
  padding: ${theme.space(2)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surface};
  color: ${theme.color.text};
  font: inherit;
`;

const List = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  border-top: 1px solid ${theme.color.border};
`;
