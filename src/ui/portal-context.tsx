import { useSelector } from '@xstate/react';
import { createContext, useContext, type ReactNode } from 'react';
import type { Actor, ActorRefFrom, AnyActorRef, SnapshotFrom } from 'xstate';
import type { Profile } from '../domain/profile.ts';
import type { PORTAL_CHILDREN, SESSION_CHILDREN, portalMachine } from '../machines/portal.machine.ts';

// How views reach the statecharts: the portal actor comes from the
// composition root through context; a view picks one child by its system id
// and reads only the slice it renders (useSelector re-renders on that slice
// alone), and sends events to that child. The session's children (profile,
// notifications, transactions) exist only while a user is signed in, so their
// hooks say "none" when nobody is.

export type PortalActor = Actor<typeof portalMachine>;

type PortalActors = NonNullable<Parameters<typeof portalMachine.provide>[0]['actors']>;

/** Every child of the portal, by system id, as its actor ref. */
export type Children = {
  [K in (typeof PORTAL_CHILDREN)[number] | (typeof SESSION_CHILDREN)[number]]: ActorRefFrom<
    NonNullable<PortalActors[K]>
  >;
};

type PortalChild = (typeof PORTAL_CHILDREN)[number];
type SessionChild = (typeof SESSION_CHILDREN)[number];

const PortalContext = createContext<PortalActor | null>(null);

export function PortalProvider({ portal, children }: { portal: PortalActor; children: ReactNode }) {
  return <PortalContext.Provider value={portal}>{children}</PortalContext.Provider>;
}

export function usePortal(): PortalActor {
  const portal = useContext(PortalContext);
  if (!portal) throw new Error('usePortal needs a <PortalProvider> above it');
  return portal;
}

/** A child that lives as long as the portal; the root starts each with its system id. */
export function useChild<K extends PortalChild>(id: K): Children[K] {
  const child = usePortal().system.get(id) as Children[K] | undefined;
  if (!child) throw new Error(`The portal has no ${id} actor`);
  return child;
}

/** Reads one slice of a child's snapshot; the view re-renders only when that slice changes. */
export function useChildSelector<K extends PortalChild, T>(
  id: K,
  selector: (snapshot: SnapshotFrom<Children[K]>) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  // useSelector cannot infer a snapshot type through the indexed Children[K]; the selector's
  // own parameter type is what keeps callers honest.
  return useSelector(useChild(id) as AnyActorRef, selector as (snapshot: unknown) => T, compare);
}

/** A child of the signed-in session, or undefined while nobody is signed in. */
export function useSessionChild<K extends SessionChild>(id: K): Children[K] | undefined {
  return usePortalSelector((snapshot) => snapshot.children[id]) as Children[K] | undefined;
}

/** Reads one slice of a session child's snapshot; `signedOut` while nobody is signed in. */
export function useSessionSelector<K extends SessionChild, T>(
  id: K,
  selector: (snapshot: SnapshotFrom<Children[K]>) => T,
  signedOut: T,
  compare?: (a: T, b: T) => boolean,
): T {
  const child = useSessionChild(id) as AnyActorRef | undefined;
  return useSelector(
    child,
    (snapshot: unknown) => (snapshot === undefined ? signedOut : (selector as (s: unknown) => T)(snapshot)),
    compare,
  );
}

/** Reads one slice of the root's snapshot (user, wallet address, loading). */
export function usePortalSelector<T>(selector: (snapshot: SnapshotFrom<PortalActor>) => T): T {
  return useSelector(usePortal(), selector);
}

/** The signed-in user's profile, read from its one home (the profile machine); null until loaded. */
export function useProfile(): Profile | null {
  return useSessionSelector('profile', (snapshot) => snapshot.context.profile, null);
}
