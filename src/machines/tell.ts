import {
  sendTo,
  type AnyActorRef,
  type EventObject,
  type MachineContext,
  type ParameterizedObject,
  type SendExpr,
} from 'xstate';

// XState's `sendTo('<id>', event)` cannot check the event: an id names no type, so any object
// compiles. A machine that sends to its children by id builds its `tell` here from a map of each
// child's id to the events that child takes (its machine's event type), and a misspelt type or a
// wrong payload then fails to compile (tests/types/sends.ts holds such sends).

/** Each child id of a machine, with the union of events that child takes. */
export type Inbox = Record<string, EventObject>;

/**
 * The typed `sendTo` by id of a machine with this context, these events and these children.
 * `tell(id, event)` or `tell(id, ({ context, event }, params) => event)`, as sendTo takes them.
 */
export function tellerOf<
  TContext extends MachineContext,
  TEvent extends EventObject,
  TInbox extends Inbox,
>() {
  return <
    K extends keyof TInbox & string,
    TExpressionEvent extends TEvent = TEvent,
    TParams extends ParameterizedObject['params'] | undefined = undefined,
  >(
    id: K,
    event: TInbox[K] | SendExpr<TContext, TExpressionEvent, TParams, TInbox[K], TEvent>,
    // The check is this function's signature: sendTo itself is given the untyped ref an id stands for.
  ) => sendTo<TContext, TExpressionEvent, TParams, AnyActorRef, TEvent>(id, event);
}
