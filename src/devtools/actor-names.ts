import type { AnyActorRef, InspectionEvent } from 'xstate';

// How the journal names an actor, and how a replay finds the actor a name
// stands for. Session ids ('x:12') change from run to run, so they are never
// used: an actor with a system id is named by it ('portal', 'auth', 'toast'),
// and any other actor by its parent's name and its own id, which for an
// invoked actor is the invoke's id ('auth/signIn', 'notifications/notificationFeed').
// The same name in a recording and in its replay is the same actor, as long
// as at most one child of a parent runs under one id at a time (XState's own
// rule for invoked children). A root without a system id is named by its id.
//
// XState's public API does not say who an actor's parent is, except once: the
// inspection event of its start (`xstate.init`) has the parent as its source.
// So a child is named when that event passes `noteActor`, which the journal
// calls for every inspection event before it records one; an actor always
// starts before anything is sent to it or by it. Walking down from a root
// (machineSnapshots, findActor) needs no such record: a snapshot's `children`
// are keyed by the child's id.

type Named = { id: string; systemId?: string };

const names = new WeakMap<object, string>();

/** The name of `child` of the actor named `parent` (null for a root). */
export function childName(parent: string | null, child: AnyActorRef): string {
  const { id, systemId } = child as Named;
  return systemId ?? (parent === null ? id : `${parent}/${id}`);
}

/** Names an actor as it starts; pass every inspection event of the system, in order. */
export function noteActor(event: InspectionEvent): void {
  if (event.type !== '@xstate.event' || event.event.type !== 'xstate.init') return;
  const ref = event.actorRef as AnyActorRef;
  if (names.has(ref)) return;
  const parent = event.sourceRef as AnyActorRef | undefined;
  names.set(ref, childName(parent ? actorName(parent) : null, ref));
}

/** The journal name of an actor whose start went through `noteActor`; any other is named as a root. */
export function actorName(ref: AnyActorRef): string {
  return names.get(ref) ?? childName(null, ref);
}

/** The running actor of `root`'s system that `name` stands for; undefined when none runs now. */
export function findActor(root: AnyActorRef, name: string): AnyActorRef | undefined {
  const [first = '', ...path] = name.split('/');
  let ref =
    (root.system.get(first) as AnyActorRef | undefined) ?? (first === actorName(root) ? root : undefined);
  for (const id of path) {
    const children = (
      ref?.getSnapshot() as { children?: Record<string, AnyActorRef | undefined> } | undefined
    )?.children;
    ref = children?.[id];
  }
  return ref;
}
