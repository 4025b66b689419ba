import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { Actor, ActorRefFrom, AnyActorRef, SnapshotFrom } from 'xstate';
import type { Profile } from '../domain/profile.ts';
import type { PORTAL_CHILDREN, SESSION_CHILDREN, portalMachine } from '../machines/portal.machine.ts';

// How views reach the statecharts: the portal actor comes from the
// composition root through context; a view picks one child by its system id
// and reads only the slice it renders (useSelector re-renders on that slice
// alone), and sends events to that child. The session's children (profile,
// notifications, transactions) exist only while a user is signed in, so their
// hooks say "none" when nobody is.
//
// The first screen's HTML is rendered at build time from a portal that never started
// (src/app/boot.ts). Hydration must render exactly that, although the live portal has moved on
// since (a stored dark theme, a wallet found, a session read): each read takes its "server
// snapshot" from the same actor of such a portal, and React renders the live snapshots right after.

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

/** An actor of the prerendered portal by the live actor it stands for, or undefined. */
type PrerenderedOf = (actor: AnyActorRef) => AnyActorRef | undefined;

const PortalContext = createContext<{ portal: PortalActor; prerenderedOf: PrerenderedOf } | null>(null);

/** Pairs each actor of `live` with the one at the same place in `prerendered`, by child id. */
function pairActors(live: AnyActorRef, prerendered: AnyActorRef, pairs: Map<AnyActorRef, AnyActorRef>) {
  pairs.set(live, prerendered);
  const twins: Record<string, AnyActorRef | undefined> = prerendered.getSnapshot().children ?? {};
  const children: Record<string, AnyActorRef | undefined> = live.getSnapshot().children ?? {};
  for (const [id, child] of Object.entries(children)) {
    const twin = twins[id];
    if (child && twin) pairActors(child, twin, pairs);
  }
  return pairs;
}

/**
 * `prerendered`: when the page hydrates HTML, the never-started portal it was rendered from
 * (src/app/boot.ts `prerenderedPortal`). Without it (the build's prerender itself, or a page
 * rendered from scratch), an actor is its own server snapshot.
 */
export function PortalProvider({
  portal,
  prerendered = null,
  children,
}: {
  portal: PortalActor;
  prerendered?: PortalActor | null;
  children: ReactNode;
}) {
  const value = useMemo(() => {
    // Built once, at hydration: an actor started since (a session's) has no twin and reads itself.
    const pairs = prerendered ? pairActors(portal, prerendered, new Map()) : null;
    return { portal, prerenderedOf: (actor: AnyActorRef) => pairs?.get(actor) };
  }, [portal, prerendered]);
  return <PortalContext.Provider value={value}>{children}</PortalContext.Provider>;
}

function usePortalContext() {
  const value = useContext(PortalContext);
  if (!value) throw new Error('usePortal needs a <PortalProvider> above it');
  return value;
}

export function usePortal(): PortalActor {
  return usePortalContext().portal;
}

function snapshotOf(actor: AnyActorRef | undefined): unknown {
  const snapshot = actor?.getSnapshot() as { status?: string; error?: unknown } | undefined;
  // As @xstate/react does: a failed actor's error goes to the nearest error boundary.
  if (snapshot?.status === 'error') throw snapshot.error;
  return snapshot;
}

/**
 * One slice of an actor's snapshot (undefined actor: of undefined), re-rendering only when the
 * slice changes by `compare`; hydration reads the prerendered portal's snapshot of the same actor.
 * It is @xstate/react's useSelector (use-sync-external-store's withSelector) on React's own
 * useSyncExternalStore, which takes that server snapshot, in less of the entry's budget.
 */
export function useSelector<T>(
  actor: AnyActorRef | undefined,
  selector: (snapshot: unknown) => T,
  compare: (a: T, b: T) => boolean = Object.is,
): T {
  const { prerenderedOf } = usePortalContext();
  const subscribe = useCallback(
    (changed: () => void) => {
      if (!actor) return () => {};
      const { unsubscribe } = actor.subscribe({ next: changed, error: changed });
      return unsubscribe;
    },
    [actor],
  );
  const [getSelection, getServerSelection] = useMemo(() => {
    /**
     * Selects from `read()` again only for another snapshot, and keeps the slice it gave last while
     * the new one compares equal: React re-renders when the value it gets is another one.
     */
    const memo = (read: () => unknown) => {
      let last: { snapshot: unknown; value: T } | undefined;
      return () => {
        const snapshot = read();
        if (last && last.snapshot === snapshot) return last.value;
        const value = selector(snapshot);
        last = { snapshot, value: last && compare(last.value, value) ? last.value : value };
        return last.value;
      };
    };
    return [memo(() => snapshotOf(actor)), memo(() => snapshotOf(actor && (prerenderedOf(actor) ?? actor)))];
  }, [actor, prerenderedOf, selector, compare]);
  return useSyncExternalStore(subscribe, getSelection, getServerSelection);
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
  // No snapshot type can be inferred through the indexed Children[K]; the selector's own
  // parameter type is what keeps callers honest.
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
  return useSelector(usePortal(), selector as (snapshot: unknown) => T);
}

/** The signed-in user's profile, read from its one home (the profile machine); null until loaded. */
export function useProfile(): Profile | null {
  return useSessionSelector('profile', (snapshot) => snapshot.context.profile, null);
}
