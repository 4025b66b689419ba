import { useSelector as useXStateSelector } from '@xstate/react';
import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { Actor, AnyActorRef, SnapshotFrom } from 'xstate';
import type { Profile } from '../domain/profile.ts';
import type {
  PORTAL_CHILDREN,
  PortalContext as PortalMachineContext,
  SESSION_CHILDREN,
  TabsAvailable,
  portalMachine,
} from '../machines/portal/portal.machine.ts';

// How views reach the statecharts: the portal actor comes from the
// composition root through context; a view picks one child by its system id
// and reads only the slice it renders (useSelector re-renders on that slice
// alone), and sends events to that child. The session's children (profile,
// notifications, transactions) exist only while a user is signed in, so their
// hooks say "none" when nobody is.
//
// The first screen's HTML is rendered at build time from a portal that never started
// (src/app/boot.ts). Hydration must render exactly that, although the live portal has moved on
// since (a stored dark theme, a wallet found, a session read): until hydration is done each read
// goes to the same actor of such a portal, and React renders the live snapshots right after.
// Reads are @xstate/react's useSelector, on the actor that is to be read.

export type PortalActor = Actor<typeof portalMachine>;

/** Every child of the portal, by id, as its actor ref (the root's `types.children`). */
type Children = SnapshotFrom<PortalActor>['children'];

/** The actor ref of the portal's child `K`. */
export type ChildRef<K extends PortalChild | SessionChild> = NonNullable<Children[K]>;

type PortalChild = (typeof PORTAL_CHILDREN)[number];
type SessionChild = (typeof SESSION_CHILDREN)[number];

/** An actor of the prerendered portal by the live actor it stands for, or undefined. */
type PrerenderedOf = (actor: AnyActorRef) => AnyActorRef | undefined;

const PortalContext = createContext<{
  portal: PortalActor;
  hydrated: boolean;
  prerenderedOf: PrerenderedOf;
} | null>(null);

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

const nothingToWatch = () => () => {};
/** React reads the server snapshot while it hydrates (and in renderToString), the other one after. */
const afterHydration = () => true;
const duringHydration = () => false;

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
  // Until React has hydrated the HTML, views read the prerendered portal; then the live one, which
  // re-renders every view that reads something that has changed since (a stored dark theme, a
  // wallet found, a session read).
  const hydrated = useSyncExternalStore(nothingToWatch, afterHydration, duringHydration);
  const pairs = useMemo(
    // Built once, at hydration: an actor started since (a session's) has no twin and reads itself.
    () => (prerendered ? pairActors(portal, prerendered, new Map()) : null),
    [portal, prerendered],
  );
  const value = useMemo(
    () => ({ portal, hydrated, prerenderedOf: (actor: AnyActorRef) => pairs?.get(actor) }),
    [portal, hydrated, pairs],
  );
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

/**
 * The actor a view reads: while the page hydrates, the prerendered twin of `actor` (React must
 * render exactly the HTML it hydrates), then `actor` itself; an actor without a twin reads itself.
 */
function useReadable<A extends AnyActorRef | undefined>(actor: A): A {
  const { prerenderedOf, hydrated } = usePortalContext();
  return hydrated || !actor ? actor : ((prerenderedOf(actor) as A | undefined) ?? actor);
}

/**
 * One slice of an actor's snapshot (undefined actor: of undefined), re-rendering only when the
 * slice changes by `compare`: @xstate/react's useSelector, on the prerendered twin while the page
 * hydrates.
 */
export function useSelector<A extends AnyActorRef, T>(
  actor: A | undefined,
  selector: (snapshot: ReturnType<A['getSnapshot']> | undefined) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useXStateSelector(useReadable(actor), selector, compare);
}

/** As useSelector, for an actor that is always there. */
function useSelectorOf<A extends AnyActorRef, T>(
  actor: A,
  selector: (snapshot: ReturnType<A['getSnapshot']>) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  // @xstate/react types the snapshot by a conditional TypeScript cannot resolve for a generic ref.
  return useXStateSelector(useReadable(actor), selector as (snapshot: unknown) => T, compare);
}

/** A child that lives as long as the portal; the root starts each with the portal. */
export function useChild<K extends PortalChild>(id: K): ChildRef<K> {
  const child = usePortal().getSnapshot().children[id];
  if (!child) throw new Error(`The portal has no ${id} actor`);
  return child;
}

/** Reads one slice of a child's snapshot; the view re-renders only when that slice changes. */
export function useChildSelector<K extends PortalChild, T>(
  id: K,
  selector: (snapshot: ReturnType<ChildRef<K>['getSnapshot']>) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelectorOf(useChild(id), selector, compare);
}

/** A child of the signed-in session, or undefined while nobody is signed in. */
export function useSessionChild<K extends SessionChild>(id: K): ChildRef<K> | undefined {
  const child = usePortalSelector((snapshot) => snapshot.children[id]);
  return child ?? undefined;
}

/** Reads one slice of a session child's snapshot; `signedOut` while nobody is signed in. */
export function useSessionSelector<K extends SessionChild, T>(
  id: K,
  selector: (snapshot: ReturnType<ChildRef<K>['getSnapshot']>) => T,
  signedOut: T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelector(
    useSessionChild(id),
    (snapshot) => (snapshot === undefined ? signedOut : selector(snapshot)),
    compare,
  );
}

/** Reads one slice of the root's snapshot (user, wallet address, loading). */
export function usePortalSelector<T>(selector: (snapshot: SnapshotFrom<PortalActor>) => T): T {
  return useSelectorOf(usePortal(), selector);
}

/** The signed-in user's profile, read from its one home (the profile machine); null until loaded. */
export function useProfile(): Profile | null {
  return useSessionSelector('profile', (snapshot) => snapshot.context.profile, null);
}

/** The DEX Trading tab's root actor (src/machines/trading/trading.machine.ts). */
export type TradingActor = NonNullable<PortalMachineContext['trading']>;

/** The Trading Bots tab's actor (src/machines/bots/bots.machine.ts). */
export type BotsActor = NonNullable<PortalMachineContext['bots']>;

/**
 * The Trading or Bots tab's actor while its tab is shown (the root spawns it once the tab's code has
 * loaded: portal.tabs.ts); null until then, and `failed` when that code could not be fetched.
 */
export function useTabActor<K extends keyof TabsAvailable>(
  tab: K,
): { actor: PortalMachineContext[K]; failed: boolean } {
  const actor = usePortalSelector((snapshot) => snapshot.context[tab]);
  const failed = usePortalSelector((snapshot) =>
    tab === 'trading'
      ? snapshot.matches({ tabActors: { trading: 'failed' } })
      : snapshot.matches({ tabActors: { bots: 'failed' } }),
  );
  return { actor, failed };
}
