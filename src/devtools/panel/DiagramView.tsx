import { useMemo, useState } from 'react';
import styled from 'styled-components';
import type { StateValue } from 'xstate';
import type { Journal } from '../journal-types.ts';
import type { Taken } from '../session-transitions.ts';
import type { DrawnAt } from '../transition-keys.ts';
import { Button } from '../../ui/common/Button.tsx';
import { useChildSelector } from '../../ui/portal-context.tsx';
import { devtoolsCopy } from './devtools.copy.ts';
import { highlightedDiagram, takenEdges } from './diagram.ts';
import { DiagramDrawing } from './DiagramDrawing.tsx';
import { statePaths } from './format.ts';
import { Alert, Hint, Pre, Section, SectionHeading, Summary } from './styles.ts';
import { MACHINE_IDS, type MachineId } from './types.ts';
import { useMermaidSvg } from './use-mermaid.ts';
import { machineOf, useLiveActor, useLiveSnapshot } from './use-live-snapshot.ts';
import { useSessionTaken } from './use-session-taken.ts';
import { theme } from '../../ui/theme.ts';

// A machine's statechart, drawn by Mermaid from its own definition, with the
// states it is in now highlighted; redrawn as it moves. At its own size by
// default (big machines stay readable, the figure scrolls), or fitted. The
// overlay adds, in green, the states and transitions this session has taken.

type Props = { machineId: MachineId; onMachineChange: (id: MachineId) => void; journal: Journal };

const NOTHING_TAKEN: Taken = { states: [], transitions: [] };
const NO_EDGES: readonly DrawnAt[] = [];

export function DiagramView({ machineId, onMachineChange, journal }: Props) {
  const machine = machineOf(useLiveActor(machineId));
  const value = (useLiveSnapshot(machineId)?.value ?? {}) as StateValue;
  const dark = useChildSelector('theme', (snapshot) => snapshot.matches('dark'));
  const [overlay, setOverlay] = useState(false);
  const session = useSessionTaken(journal, overlay);
  const taken = session.taken ? (session.taken[machineId] ?? NOTHING_TAKEN) : null;
  // Keyed by JSON: a new snapshot in the same state, or a replay with nothing new, draws nothing new.
  const valueKey = JSON.stringify(value);
  const takenKey = taken ? JSON.stringify(taken) : null;
  const source = useMemo(
    () =>
      machine
        ? highlightedDiagram(
            machine,
            JSON.parse(valueKey) as StateValue,
            takenKey === null ? undefined : (JSON.parse(takenKey) as Taken),
          )
        : '',
    [machine, valueKey, takenKey],
  );
  const edges = useMemo(
    () => (machine && takenKey ? takenEdges(machine, (JSON.parse(takenKey) as Taken).transitions) : null),
    [machine, takenKey],
  );
  const { svg, error, drawn } = useMermaidSvg(source, dark);
  const [fit, setFit] = useState(false);
  const states = statePaths(value).join(', ');
  const copy = devtoolsCopy.diagram;

  return (
    <Section aria-labelledby="devtools-diagram-heading">
      <SectionHeading id="devtools-diagram-heading">{copy.heading}</SectionHeading>
      <Controls>
        <MachineLabel>
          {copy.machineLabel}
          <select
            value={machineId}
            onChange={(event) => onMachineChange(event.currentTarget.value as MachineId)}
          >
            {MACHINE_IDS.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </MachineLabel>
        <Button type="button" $variant="secondary" aria-pressed={fit} onClick={() => setFit(!fit)}>
          {copy.fit}
        </Button>
        <Button
          type="button"
          $variant="secondary"
          aria-pressed={overlay}
          onClick={() => setOverlay(!overlay)}
        >
          {copy.session}
        </Button>
      </Controls>
      <Hint>
        {copy.legend} <strong>{states}</strong>
      </Hint>
      {overlay && edges ? <Hint role="status">{copy.sessionLegend(edges.taken, edges.total)}</Hint> : null}
      {overlay && !edges && !session.error ? <Hint role="status">{copy.sessionReplaying}</Hint> : null}
      {overlay && session.error ? <Alert role="alert">{copy.sessionFailed(session.error)}</Alert> : null}
      {error ? <Alert role="alert">{copy.failed(error)}</Alert> : null}
      {!svg && !error ? <Hint role="status">{copy.loading}</Hint> : null}
      <DiagramDrawing
        svg={svg}
        label={copy.label(machineId, states)}
        fit={fit}
        machineId={machineId}
        taken={edges && drawn === source ? edges.drawn : NO_EDGES}
        dark={dark}
      />
      <details>
        <Summary>{copy.source}</Summary>
        <Pre>{source}</Pre>
      </details>
    </Section>
  );
}

const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: end;
  gap: ${theme.space(3)};
`;

const MachineLabel = styled.label`
  display: grid;
  gap: ${theme.space(1)};
  max-width: 240px;
  font-size: 0.875rem;
  font-weight: 600;
  select {
    min-height: 40px;
    padding: ${theme.space(2)};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.sm};
    background: ${theme.color.surface};
    color: ${theme.color.text};
    font: inherit;
  }
`;
