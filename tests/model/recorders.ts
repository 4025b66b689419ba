import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';

// What the model tests of the send, profile, notifications, transactions, webhooks and outbox
// machines record, so that their `states` assertions can compare what a step did (a toast, a fact,
// an actor's input) with what its event asked for.

/** One call of a recorded action: its params and the event whose transition ran it. */
export type Recorded<Params> = { params: Params; event: EventObject };

/**
 * Stands in for an action such as `showToast` or `report`. `take()` hands over what was recorded
 * since the last take: the `'*'` assertion, which runs first on every step, takes the step's calls,
 * and the assertions of the state reached read them from there.
 */
export function actionRecorder<Params>() {
  let calls: Recorded<Params>[] = [];
  return {
    action: ({ event }: { event: EventObject }, params: Params): void => {
      calls.push({ params, event });
    },
    take(): Recorded<Params>[] {
      const taken = calls;
      calls = [];
      return taken;
    },
  };
}

/** The input the running invocation `id` was given (a promise actor's snapshot keeps it). */
export function inputOf(snapshot: AnyMachineSnapshot, id: string): unknown {
  const child: unknown = snapshot.children[id];
  if (typeof child !== 'object' || child === null || !('getSnapshot' in child))
    throw new Error(`no actor '${id}' is running`);
  const childSnapshot = (child as { getSnapshot: () => unknown }).getSnapshot();
  return (childSnapshot as { input?: unknown }).input;
}

/** The `error` of a failed actor's event (`xstate.error.actor.*`), for the words a toast must show. */
export function errorOf(event: EventObject): unknown {
  return 'error' in event ? event.error : undefined;
}

/** The `output` of a finished actor's event (`xstate.done.actor.*`). */
export function outputOf(event: EventObject): unknown {
  return 'output' in event ? event.output : undefined;
}

/**
 * The events the actor under test received, step by step: what the path sent, an actor's answer,
 * a timer. The `'*'` assertion takes a step's events to check what the step did with them. It
 * listens through the actor system's inspection, reached from a running child, so a machine with
 * a child from its start (a feed, an outbox, a reader) is heard from its first step on.
 */
export function eventRecorder() {
  const watched = new WeakSet<AnyActorRef['system']>();
  let events: EventObject[] = [];
  return {
    take(snapshot: AnyMachineSnapshot): EventObject[] {
      for (const child of Object.values(snapshot.children) as AnyActorRef[]) {
        const { system } = child;
        if (watched.has(system)) continue;
        watched.add(system);
        system.inspect((inspection) => {
          if (inspection.type === '@xstate.event' && inspection.actorRef.sessionId === inspection.rootId)
            events.push(inspection.event);
        });
      }
      const taken = events;
      events = [];
      return taken;
    },
  };
}

/**
 * The payloads with each event's list reversed. The paths take one payload per transition (the
 * first that reaches it), so a second model with the lists reversed meets the others: a row
 * created rather than read, a user signing out rather than in.
 */
export function reversed(
  events: Record<string, readonly AnyEventObject[]>,
): Record<string, AnyEventObject[]> {
  return Object.fromEntries(
    Object.entries(events).map(([type, payloads]) => [type, [...payloads].reverse()]),
  );
}

/**
 * Runs `build` (a `describeModel` call) with bigints written as JSON text ('5n'). xstate/graph
 * describes each generated path with JSON.stringify of its events and of the context, which
 * refuses bigints; the DEX machines carry amounts as bigints in both. The paths are built while
 * the tests are collected, so the stand-in is gone again before any test runs.
 */
export function withBigIntJson(build: () => void): void {
  const prototype = BigInt.prototype as { toJSON?: () => string };
  const had = Object.getOwnPropertyDescriptor(prototype, 'toJSON');
  Object.defineProperty(prototype, 'toJSON', {
    configurable: true,
    writable: true,
    value(this: bigint) {
      return `${this.toString()}n`;
    },
  });
  try {
    build();
  } finally {
    if (had) Object.defineProperty(prototype, 'toJSON', had);
    else delete prototype.toJSON;
  }
}
