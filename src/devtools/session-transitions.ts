import { isMachineSnapshot, type AnyActorRef, type InspectionEvent } from 'xstate';
import { actorName } from './actor-names.ts';
import type { JournalExport } from './journal-types.ts';
import { replay, type ReplayOptions } from './replay.ts';
import { activeStateIds, microstepCoverage } from './transition-keys.ts';

// Which transitions and states each machine of a session has taken, for the
// developer panel's diagram overlay. The journal records events, not
// transitions, so the session is replayed from its journal (replay.ts, no
// network) and XState's own `@xstate.microstep` reports of the replay are
// collected, named as the generated-path coverage names them
// (transition-keys.ts). The panel loads this module only when the overlay is
// switched on; the journal in the entry bundle records nothing more for it.

export type Taken = { states: string[]; transitions: string[] };

/** By journal name ('portal', 'wallet', …): what that machine did in the recorded session. */
export type TakenByMachine = Record<string, Taken>;

export function takenInJournal(
  recording: JournalExport,
  options: Omit<ReplayOptions, 'inspect'> = {},
): TakenByMachine {
  const taken = new Map<string, { states: Set<string>; transitions: Set<string> }>();
  const of = (ref: unknown) => {
    const name = actorName(ref as AnyActorRef);
    const entry = taken.get(name) ?? { states: new Set<string>(), transitions: new Set<string>() };
    taken.set(name, entry);
    return entry;
  };
  const inspect = (event: InspectionEvent) => {
    if (event.type === '@xstate.microstep') {
      const { states, transitions } = microstepCoverage(event);
      const entry = of(event.actorRef);
      for (const id of states) entry.states.add(id);
      for (const key of transitions) entry.transitions.add(key);
    } else if (event.type === '@xstate.snapshot' && isMachineSnapshot(event.snapshot)) {
      // The states a machine starts in are entered without a microstep.
      const entry = of(event.actorRef);
      for (const id of activeStateIds(event.snapshot)) entry.states.add(id);
    }
  };
  const { portal } = replay(recording, { ...options, inspect });
  portal.stop();
  return Object.fromEntries(
    [...taken].map(([name, { states, transitions }]) => [
      name,
      { states: [...states], transitions: [...transitions] },
    ]),
  );
}
