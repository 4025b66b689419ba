import { useCallback, useSyncExternalStore } from 'react';
import type { AnyActorRef, AnyStateMachine } from 'xstate';
import { usePortal, usePortalSelector } from '../../ui/portal-context.tsx';
import { findActor } from '../actor-names.ts';
import type { MachineId, MachineSnapshot } from './types.ts';

// The panel reads the running actor system the way views do, but for any
// machine by its journal name, and the whole snapshot (a panel shows it all).

/**
 * The running actor this journal name stands for (`portal`: the root), if any. Read through the
 * root's snapshot, so the panel follows the session's children and the tabs' actors as they start
 * and stop.
 */
export function useLiveActor(id: MachineId): AnyActorRef | undefined {
  const portal = usePortal();
  return usePortalSelector(() => findActor(portal, id));
}

/** The machine definition behind a running actor (for its diagram). */
export function machineOf(actor: AnyActorRef | undefined): AnyStateMachine | null {
  const logic = (actor as { logic?: unknown } | undefined)?.logic;
  return logic && typeof logic === 'object' && 'root' in logic ? (logic as AnyStateMachine) : null;
}

const noop = () => undefined;

/** The actor's current snapshot, re-rendering on every change; null when no such actor runs. */
export function useLiveSnapshot(id: MachineId): MachineSnapshot | null {
  const actor = useLiveActor(id);
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!actor) return noop;
      const subscription = actor.subscribe({ next: onChange, error: onChange, complete: onChange });
      return () => subscription.unsubscribe();
    },
    [actor],
  );
  return useSyncExternalStore(subscribe, () => (actor ? (actor.getSnapshot() as MachineSnapshot) : null));
}
