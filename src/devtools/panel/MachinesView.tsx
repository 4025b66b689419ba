import { Button } from '../../ui/common/Button.tsx';
import { devtoolsCopy } from './devtools.copy.ts';
import { SnapshotView } from './SnapshotView.tsx';
import { Hint, PlainList, Section, SectionHeading } from './styles.ts';
import { MACHINE_IDS, type MachineId } from './types.ts';
import { useLiveSnapshot } from './use-live-snapshot.ts';

// Every machine of the running portal, live.

export function MachinesView({ onShowDiagram }: { onShowDiagram: (id: MachineId) => void }) {
  return (
    <Section aria-labelledby="devtools-machines-heading">
      <SectionHeading id="devtools-machines-heading">{devtoolsCopy.machines.heading}</SectionHeading>
      <Hint>{devtoolsCopy.machines.description}</Hint>
      <PlainList>
        {MACHINE_IDS.map((id) => (
          <li key={id}>
            <LiveMachine id={id} onShowDiagram={onShowDiagram} />
          </li>
        ))}
      </PlainList>
    </Section>
  );
}

function LiveMachine({ id, onShowDiagram }: { id: MachineId; onShowDiagram: (id: MachineId) => void }) {
  const snapshot = useLiveSnapshot(id);
  if (!snapshot) {
    return <SnapshotView name={id} snapshot={{ value: devtoolsCopy.machines.missing, context: null }} />;
  }
  return (
    <SnapshotView
      name={id}
      snapshot={snapshot}
      actions={
        <Button
          type="button"
          $variant="secondary"
          onClick={() => onShowDiagram(id)}
          aria-label={devtoolsCopy.machines.showDiagram(id)}
        >
          {devtoolsCopy.tabs.diagram}
        </Button>
      }
    />
  );
}
