import type { AnyActorRef, InspectionEvent } from 'xstate';
import { actorName, noteActor } from './actor-names.ts';
import type { Journal, JournalEntry, JournalExport } from './journal-types.ts';
import { redact } from './redact.ts';

// The portal's event journal (docs/architecture.md#event-journal-replay-and-inspection):
// every event that reaches the actor system, appended as it is delivered, through XState's
// inspection API — pass `inspect` to createActor:
//
//   const recorder = createJournal();
//   const portal = createActor(machine, { systemId: 'portal', input, inspect: recorder.inspect });
//
// Each `@xstate.event` becomes an entry: its target and source by name (see
// actor-names.ts: a system id, else `parent/id`), the time, and the event
// redacted (redact.ts) — a password or private key never reaches an entry.
// The journal is bounded: it keeps the newest `limit` entries and says so
// (`truncated`) once it has dropped one.
//
// Sources. XState reports the sender of most events itself: a parent for the
// `xstate.init` of a child, the child for its `xstate.done.actor.*`, a
// callback actor for what it sends back (named like any actor without a
// system id, e.g. 'auth/authChanges'), the actor itself for its own timers
// (`xstate.after.*`) and promise results (`xstate.promise.resolve`). It
// reports no sender for `actor.send(…)`, which is how a view talks to the
// portal but also how the machines' own `showToast` / `report` actions and the
// root's routing reach other actors. Those are told apart here: while an actor
// executes its actions (between XState's `@xstate.action` for it and the
// `@xstate.snapshot` that ends its step), a send without a sender comes from
// that actor; any other comes from outside the system (source null).
// A send made synchronously from a snapshot subscriber of an actor, while that
// actor notifies its subscribers, would be taken for that actor's own: views
// send from event handlers, never from inside a subscription notification.

export type JournalOptions = {
  /** How many entries are kept; the oldest go first. */
  limit?: number;
  /** Milliseconds; `at` counts from the journal's creation. A test passes its SimulatedClock's `now`. */
  now?: () => number;
};

export type JournalRecorder = {
  journal: Journal;
  /** XState's `inspect` option for the portal's createActor. */
  inspect: (event: InspectionEvent) => void;
};

type Snapshotted = { getSnapshot(): { status?: string } };

const isActive = (ref: AnyActorRef) => (ref as Snapshotted).getSnapshot().status === 'active';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** The actors executing actions right now, innermost last (sends nest: an action's send runs the receiver at once). */
function createActingStack() {
  const stack: AnyActorRef[] = [];
  return {
    enter(ref: AnyActorRef) {
      if (stack.at(-1) !== ref) stack.push(ref);
    },
    leave(ref: AnyActorRef) {
      const at = stack.lastIndexOf(ref);
      if (at !== -1) stack.length = at;
    },
    current(): AnyActorRef | null {
      // A step that ended in an error emits no snapshot: such an actor is no longer acting.
      while (stack.length > 0 && !isActive(stack[stack.length - 1] as AnyActorRef)) stack.pop();
      return stack.at(-1) ?? null;
    },
  };
}

export function createJournal({
  limit = 2000,
  now = () => performance.now(),
}: JournalOptions = {}): JournalRecorder {
  const startedAt = new Date().toISOString();
  const origin = now();
  const listeners = new Set<(entry: JournalEntry) => void>();
  const acting = createActingStack();
  let entries: JournalEntry[] = [];
  let view: readonly JournalEntry[] | null = null;
  let seq = 0;
  let truncated = false;

  function append(entry: JournalEntry) {
    entries.push(deepFreeze(entry));
    if (entries.length > limit) {
      entries.splice(0, entries.length - limit);
      truncated = true;
    }
    view = null;
    for (const listener of listeners) {
      try {
        listener(entry);
      } catch (error) {
        console.error('[journal] a listener failed:', error);
      }
    }
  }

  function record(event: Extract<InspectionEvent, { type: '@xstate.event' }>) {
    const sender = (event.sourceRef as AnyActorRef | undefined) ?? acting.current();
    append({
      seq: ++seq,
      at: Math.round((now() - origin) * 1000) / 1000,
      target: actorName(event.actorRef as AnyActorRef),
      source: sender ? actorName(sender) : null,
      event: redact(event.event) as JournalEntry['event'],
    });
  }

  const inspect = (event: InspectionEvent) => {
    // An inspector that throws would break the actor system it watches.
    try {
      noteActor(event);
      if (event.type === '@xstate.action') acting.enter(event.actorRef as AnyActorRef);
      else if (event.type === '@xstate.snapshot') acting.leave(event.actorRef as AnyActorRef);
      else if (event.type === '@xstate.event') record(event);
    } catch (error) {
      console.error('[journal] could not record an inspection event:', error);
    }
  };

  const journal: Journal = {
    entries: () => (view ??= Object.freeze([...entries])),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    export: (): JournalExport => ({
      format: 'ddex-journal',
      version: 1,
      startedAt,
      truncated,
      entries: [...entries],
    }),
    clear() {
      // What came before is gone: the journal no longer starts at the beginning.
      if (seq > 0) truncated = true;
      entries = [];
      view = null;
    },
  };

  return { journal, inspect };
}
