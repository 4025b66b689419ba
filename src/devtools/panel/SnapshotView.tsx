import type { ReactNode } from 'react';
import styled from 'styled-components';
import { devtoolsCopy } from './devtools.copy.ts';
import { displayable, statePaths, toDisplayJson } from './format.ts';
import { Box, Mono, PlainList, Pre, Summary } from './styles.ts';
import type { MachineSnapshot } from './types.ts';
import { theme } from '../../ui/theme.ts';

// One machine's state: its name, the state value as dotted paths, its status
// when it is not simply running, and its context folded away (secrets
// redacted). Live and replayed snapshots look the same; `badge` and `note`
// say which is which.

type Props = {
  name: string;
  snapshot: MachineSnapshot;
  badge?: string;
  /** Under the state value, e.g. whether a replayed state matches the live one. */
  note?: ReactNode;
  /** Extra controls, e.g. a button to the machine's diagram. */
  actions?: ReactNode;
};

export function SnapshotView({ name, snapshot, badge, note, actions }: Props) {
  const headingId = `devtools-${badge ?? 'live'}-${name}`;
  const paths = statePaths(snapshot.value);
  const context = displayable(snapshot.context);
  const keys = context && typeof context === 'object' ? Object.keys(context).length : 0;
  return (
    <Box aria-labelledby={headingId}>
      <Top>
        <Name id={headingId}>
          {name}
          {badge ? <Badge> {badge}</Badge> : null}
        </Name>
        {actions}
      </Top>
      <Paths aria-label={`${name} state`}>
        {paths.map((path) => (
          <li key={path}>
            <Mono>{path}</Mono>
          </li>
        ))}
      </Paths>
      {snapshot.status && snapshot.status !== 'active' ? (
        <Muted>{devtoolsCopy.machines.status(snapshot.status)}</Muted>
      ) : null}
      {note ? <Muted>{note}</Muted> : null}
      {keys > 0 ? (
        <details>
          <Summary>{devtoolsCopy.machines.context(keys)}</Summary>
          <Pre>{toDisplayJson(snapshot.context)}</Pre>
        </details>
      ) : null}
    </Box>
  );
}

const Top = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(2)};
  margin-bottom: ${theme.space(1)};
`;

const Name = styled.h4`
  margin: 0;
  font-size: 0.95rem;
`;

const Badge = styled.span`
  margin-left: ${theme.space(1)};
  padding: 0 ${theme.space(2)};
  border-radius: ${theme.radius.pill};
  background: ${theme.color.accent};
  color: ${theme.color.accentText};
  font-size: 0.75rem;
  font-weight: 600;
`;

const Muted = styled.p`
  margin: ${theme.space(1)} 0 0;
  font-size: 0.8125rem;
  color: ${theme.color.textMuted};
`;

const Paths = styled(PlainList)`
  gap: 0;
`;
