import type { AnyActorRef } from 'xstate';
import { actorName, childName } from './actor-names.ts';
import type { JournalValue } from './journal-types.ts';
import { redact } from './redact.ts';

// Every machine's state in an actor system, as comparable data: the root and
// each machine below it (service actors are no machines and are left out),
// by journal name ('portal', 'auth', …). Values and contexts go through the
// journal's redaction, so a secret held mid-flight shows as '[redacted]' in a
// live system and in its replay alike, and two systems compare with toEqual.

export type MachineSnapshot = { value: JournalValue; context: JournalValue; status: string };

type Inspectable = {
  status?: unknown;
  value?: unknown;
  context?: unknown;
  children?: Record<string, AnyActorRef | undefined>;
};

export function machineSnapshots(root: AnyActorRef): Record<string, MachineSnapshot> {
  const out: Record<string, MachineSnapshot> = {};
  const visit = (ref: AnyActorRef, name: string) => {
    const snapshot = ref.getSnapshot() as Inspectable;
    if (!('value' in snapshot) || !('context' in snapshot)) return;
    out[name] = {
      value: redact(snapshot.value),
      context: redact(snapshot.context),
      status: String(snapshot.status),
    };
    for (const child of Object.values(snapshot.children ?? {}))
      if (child) visit(child, childName(name, child));
  };
  visit(root, actorName(root));
  return out;
}
