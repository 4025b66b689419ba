import { devtoolsCopy } from './devtools.copy.ts';
import { statePaths, toInlineJson } from './format.ts';
import { SnapshotView } from './SnapshotView.tsx';
import type { MachineId, MachineSnapshot } from './types.ts';
import { useLiveSnapshot } from './use-live-snapshot.ts';

// A machine as a replay rebuilt it, next to what the live one is in now.

export function ReplayedMachine({ id, snapshot }: { id: MachineId; snapshot: MachineSnapshot }) {
  const live = useLiveSnapshot(id);
  const same = live !== null && toInlineJson(live.value) === toInlineJson(snapshot.value);
  const note = same
    ? devtoolsCopy.replay.sameAsLive
    : devtoolsCopy.replay.differsFromLive(
        live ? statePaths(live.value).join(', ') : devtoolsCopy.machines.missing,
      );
  return <SnapshotView name={id} snapshot={snapshot} badge={devtoolsCopy.replay.replayedBadge} note={note} />;
}
