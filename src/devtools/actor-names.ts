import type { AnyActorRef } from 'xstate';

// How the journal names an actor, and how a replay finds the actor a name
// stands for. Session ids ('x:12') change from run to run, so they are never
// used: an actor with a system id is named by it ('portal', 'auth', 'toast'),
// and any other actor by its parent's name and its own id, which for an
// invoked actor is the invoke's id ('auth/signIn', 'notifications/notificationFeed').
// The same name in a recording and in its replay is the same actor, as long
// as at most one child of a parent runs under one id at a time (XState's own
// rule for invoked children). A root without a system id is named by its id.

type Named = AnyActorRef & { systemId?: string };

const names = new WeakMap<object, string>();

export function actorName(ref: AnyActorRef): string {
  const known = names.get(ref);
  if (known !== undefined) return known;
  const { systemId } = ref as Named;
  const name = systemId ?? (ref._parent ? `${actorName(ref._parent)}/${ref.id}` : ref.id);
  names.set(ref, name);
  return name;
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
