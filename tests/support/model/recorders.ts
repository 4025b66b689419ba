import type { AnyEventObject, EventObject } from 'xstate';

// Helpers the model tests share for their payloads and events. What a step did (its toasts, facts,
// the events the machine took, an actor's input) is not recorded by the tests: describeModel hands
// every `states` assertion a `ModelStep` read from the machine's harness (support/step.ts).

/** The `error` of a failed actor's event (`xstate.error.actor.*`), for the words a toast must show. */
export function errorOf(event: EventObject): unknown {
  return 'error' in event ? event.error : undefined;
}

/** The `output` of a finished actor's event (`xstate.done.actor.*`). */
export function outputOf(event: EventObject): unknown {
  return 'output' in event ? event.output : undefined;
}

/**
 * The payloads of how actor `id` ends, for `describeModel`'s `events`: an `xstate.done.actor.<id>`
 * for each output, then an `xstate.error.actor.<id>` for each error.
 */
export function endings(
  id: string,
  { done = [], error = [] }: { done?: readonly unknown[]; error?: readonly unknown[] },
): Record<string, AnyEventObject[]> {
  const doneType = `xstate.done.actor.${id}`;
  const errorType = `xstate.error.actor.${id}`;
  const events: Record<string, AnyEventObject[]> = {};
  if (done.length > 0) events[doneType] = done.map((output) => ({ type: doneType, output }));
  if (error.length > 0) events[errorType] = error.map((cause) => ({ type: errorType, error: cause }));
  return events;
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
