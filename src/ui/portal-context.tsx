import { useSelector } from '@xstate/react';
import { createContext, useContext, type ReactNode } from 'react';
import type { Actor, ActorRefFrom, AnyActorRef, SnapshotFrom } from 'xstate';
import type { authMachine } from '../machines/auth.machine.ts';
import type { balancesMachine } from '../machines/balances.machine.ts';
import type { dialogsMachine } from '../machines/dialogs.machine.ts';
import type { notificationsMachine } from '../machines/notifications.machine.ts';
import type { portalMachine } from '../machines/portal.machine.ts';
import type { profileMachine } from '../machines/profile.machine.ts';
import type { sendMachine } from '../machines/send.machine.ts';
import type { tabMachine } from '../machines/tab.machine.ts';
import type { themeMachine } from '../machines/theme.machine.ts';
import type { toastMachine } from '../machines/toast.machine.ts';
import type { transactionsMachine } from '../machines/transactions.machine.ts';
import type { walletMachine } from '../machines/wallet.machine.ts';
import type { webhooksMachine } from '../machines/webhooks.machine.ts';

// How views reach the statecharts: the portal actor comes from the
// composition root through context; a view picks one child by its system id
// and reads only the slice it renders (useSelector re-renders on that slice
// alone), and sends events to that child.

export type PortalActor = Actor<typeof portalMachine>;

export type Children = {
  auth: ActorRefFrom<typeof authMachine>;
  balances: ActorRefFrom<typeof balancesMachine>;
  dialogs: ActorRefFrom<typeof dialogsMachine>;
  notifications: ActorRefFrom<typeof notificationsMachine>;
  profile: ActorRefFrom<typeof profileMachine>;
  send: ActorRefFrom<typeof sendMachine>;
  tab: ActorRefFrom<typeof tabMachine>;
  theme: ActorRefFrom<typeof themeMachine>;
  toast: ActorRefFrom<typeof toastMachine>;
  transactions: ActorRefFrom<typeof transactionsMachine>;
  wallet: ActorRefFrom<typeof walletMachine>;
  webhooks: ActorRefFrom<typeof webhooksMachine>;
};

const PortalContext = createContext<PortalActor | null>(null);

export function PortalProvider({ portal, children }: { portal: PortalActor; children: ReactNode }) {
  return <PortalContext.Provider value={portal}>{children}</PortalContext.Provider>;
}

export function usePortal(): PortalActor {
  const portal = useContext(PortalContext);
  if (!portal) throw new Error('usePortal needs a <PortalProvider> above it');
  return portal;
}

/** The child with this system id; the root starts every child with it, so it always exists. */
export function useChild<K extends keyof Children>(id: K): Children[K] {
  const child = usePortal().system.get(id) as Children[K] | undefined;
  if (!child) throw new Error(`The portal has no ${id} actor`);
  return child;
}

/** Reads one slice of a child's snapshot; the view re-renders only when that slice changes. */
export function useChildSelector<K extends keyof Children, T>(
  id: K,
  selector: (snapshot: SnapshotFrom<Children[K]>) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  // useSelector cannot infer a snapshot type through the indexed Children[K]; the selector's
  // own parameter type is what keeps callers honest.
  return useSelector(useChild(id) as AnyActorRef, selector as (snapshot: unknown) => T, compare);
}

/** Reads one slice of the root's snapshot (user, profile, wallet address, unread count). */
export function usePortalSelector<T>(selector: (snapshot: SnapshotFrom<PortalActor>) => T): T {
  return useSelector(usePortal(), selector);
}
