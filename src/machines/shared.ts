import type { ActorSystem, AnyActorRef, EventObject } from 'xstate';
import { describeError } from './error-words.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the system's registry type is irrelevant here
type AnySystem = ActorSystem<any>;

// What every machine shares: how it shows a toast, how it reports a fact to
// the root, and the stand-in for actors that src/main.tsx (or a test) provides.

export type ToastVariant = 'default' | 'destructive';

export type ToastRequest = {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** An optional button; pressing it sends `event` to the machine that showed the toast. */
  action?: { label: string; event: EventObject };
  /** Overrides the toast machine's default duration (the welcome toast's 6000 ms). */
  durationMs?: number;
  /** Show only if no other toast is on screen (the welcome must not hide what a user just did). */
  onlyIfIdle?: boolean;
};

// Plain action functions that need only the actor system, so one definition
// fits every machine's setup(). Sending to another actor from an action is
// what sendTo does too; the receiver queues the event in its own mailbox.

/** Sends `toast.show` to the actor with system id `toast`, when the system has one. */
export function showToast({ system }: { system: AnySystem }, params: ToastRequest): void {
  (system.get('toast') as AnyActorRef | undefined)?.send({ type: 'toast.show', toast: params });
}

/** Sends a fact to the root (system id `portal`), which routes it; see README.md. */
export function report({ system }: { system: AnySystem }, params: EventObject): void {
  (system.get('portal') as AnyActorRef | undefined)?.send(params);
}

/** Placeholder body for an actor declared in setup() and provided by the composition root or a test. */
export function notProvided(name: string): () => never {
  return () => {
    throw new Error(`The ${name} actor was not provided; src/main.tsx provides it from the services.`);
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

/** The wait before retry number `attempt` (1-based): 1, 2, 5, then every 10 s. */
export function backoffMs(attempt: number): number {
  return BACKOFF_MS[Math.min(Math.max(attempt, 1), BACKOFF_MS.length) - 1] ?? 10_000;
}

const BACKOFF_MS = [1000, 2000, 5000, 10_000] as const;
