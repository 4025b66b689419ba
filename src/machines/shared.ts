import { enqueueActions, type ActorSystem, type AnyActorRef, type EventObject } from 'xstate';
import type { AuthUser } from '../domain/auth.ts';
import { authCopy } from '../copy/index.ts';
import { describeError } from './error-words.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the system's registry type is irrelevant here
type AnySystem = ActorSystem<any>;

// What every machine shares: how it shows a toast, how it reports a fact to
// the root, how it words a failure and waits before a retry, and the stand-in
// for actors that src/app/provide-portal.ts (or a test) provides.

export type ToastVariant = 'default' | 'destructive';

/** What a toast's button may ask for; the root routes each one to the machine that handles it. */
export type ToastAction = { type: 'wallet.switchNetwork' } | { type: 'wallet.useLocalWallet' };

export type ToastRequest = {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** An optional button; pressing it has the root send `event` to the machine that showed the toast. */
  action?: { label: string; event: ToastAction };
  /** Overrides the toast machine's default duration (the welcome toast's 6000 ms). */
  durationMs?: number;
  /** Show only if no other toast is on screen (the welcome must not hide what a user just did). */
  onlyIfIdle?: boolean;
};

/** What every child that follows the session is told by its parent when the user changes. */
export type SessionChanged = { type: 'session.changed'; user: AuthUser | null };

/** What every child that follows the wallet is told by its parent when the account or chain changes. */
export type WalletChanged = { type: 'wallet.changed'; address: string | null; chainId: number | null };

/** A child's wish for a toast, reported to the root, which tells the toast actor. */
export type ToastRequested = { type: 'toast.requested'; toast: ToastRequest };

// Plain action functions that need only the actor system, so one definition
// fits every machine's setup(). Sending to another actor from an action is
// what sendTo does too; the receiver queues the event in its own mailbox.

// showToast and report are built-in sends (enqueued, delivered once the sender's step is done),
// not custom actions that call `send`: the receiver then never runs its own step inside the
// sender's action (XState warns about built-in actions resolved there). XState's own types for a
// standalone `enqueueActions` do not fit each machine's `setup`, so each is typed as the plain
// action it stands for; XState still runs it as the built-in it is.

/** The type a machine's `setup({ actions })` sees for an action with these params. */
type SystemAction<Params> = (args: { system: AnySystem }, params: Params) => void;

/**
 * Reports `toast.requested` to the root (system id `portal`), when there is one: a toast goes
 * through the root's protocol like every other fact, so no child needs to know the toast actor.
 */
export const showToast = enqueueActions(({ system, enqueue }, toast: ToastRequest) => {
  const portal = (system as AnySystem).get('portal') as AnyActorRef | undefined;
  if (portal) enqueue.sendTo(portal, { type: 'toast.requested', toast } satisfies ToastRequested);
}) as unknown as SystemAction<ToastRequest>;

/**
 * The `report` action of a child: sends one of the child's facts to the root (system id `portal`),
 * when there is one. Each child binds it to the union of facts it exports, so a fact with a wrong
 * payload does not compile, and the root's event type is the union of those unions.
 */
export function reportFact<Fact extends EventObject>(): SystemAction<Fact> {
  return enqueueActions(({ system, enqueue }, fact: Fact) => {
    const portal = (system as AnySystem).get('portal') as AnyActorRef | undefined;
    if (portal) enqueue.sendTo(portal, fact);
  }) as unknown as SystemAction<Fact>;
}

/** Placeholder body for an actor declared in setup() and provided by the composition root or a test. */
export function notProvided(name: string): () => never {
  return () => {
    throw new Error(
      `The ${name} actor was not provided; src/app/provide-portal.ts provides it from the services.`,
    );
  };
}

/**
 * The words for a failure: what the service's error says (see error-words.ts), else `fallback`.
 * Without a fallback a failure that says nothing gives undefined, and the toast shows its title alone.
 */
export function messageOf(error: unknown, fallback: string): string;
export function messageOf(error: unknown): string | undefined;
export function messageOf(error: unknown, fallback?: string): string | undefined {
  return describeError(error) ?? fallback;
}

/**
 * A failed request's toast, as an invoke's onError names it: its title, and `words` for the error
 * (by default the service's words, else the generic 'An unexpected error occurred.').
 */
export const failedToast = (
  title: string,
  words = (error: unknown) => messageOf(error, authCopy.unexpectedError),
) =>
  ({
    type: 'showToast',
    params: ({ event }: { event: { error: unknown } }) => ({
      title,
      description: words(event.error),
      variant: 'destructive' as const,
    }),
  }) as const;

/** The wait before retry number `attempt` (1-based): 1, 2, 5, then every 10 s. */
export function backoffMs(attempt: number): number {
  return BACKOFF_MS[Math.min(Math.max(attempt, 1), BACKOFF_MS.length) - 1] ?? 10_000;
}

const BACKOFF_MS = [1000, 2000, 5000, 10_000] as const;
