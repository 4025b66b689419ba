import type {
  AnyActorRef,
  AnyMachineSnapshot,
  AnyStateMachine,
  EventObject,
  InspectionEvent,
  SnapshotFrom,
} from 'xstate';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import type { MachineHarness } from '../machines/harness.ts';

// What one step of a path did, as the harness saw it: describeModel hands a `ModelStep` to every
// `states` assertion, so a model test needs no recorders of its own. Everything is read from the
// harness's record of the system's inspection (`h.inspected`), from where the last step ended.

/** Something the machine did, with the event it was taking when it did it. */
export type Recorded<Params> = { params: Params; event: EventObject };

/**
 * What a step must have done with one event it took: the event, the snapshots the step began and
 * ended in, and the toasts the machine itself showed in the step (a model's `afterEvent`).
 */
export type EventAssertion<TSnapshot> = (
  event: EventObject,
  previous: TSnapshot,
  snapshot: TSnapshot,
  shown: Recorded<ToastRequest>[],
) => void;

export type ModelStep<TMachine extends AnyStateMachine = AnyStateMachine> = {
  /** The snapshot the step began in; undefined on the first step (the start). */
  before: SnapshotFrom<TMachine> | undefined;
  /**
   * The events the machine took in this step, in order: what the path sent, an actor's answer, a
   * timer, and what the machine sent itself or its children sent it (not the start's xstate.init).
   */
  events: EventObject[];
  /** The toasts the root was asked for in this step (by the machine or an actor it runs). */
  toasts: ToastRequest[];
  /** The facts the root heard in this step (`report`, or `tellParent` to the stand-in root). */
  facts: EventObject[];
  /** The toasts the machine itself asked for, each with the event it was taking (xstate.init at start). */
  shown: Recorded<ToastRequest>[];
  /** The facts the machine itself sent the root, each with the event it was taking. */
  told: Recorded<EventObject>[];
  /** What the machine sent its child (or spawned actor) `id` in this step, in order. */
  sentTo(id: string): Recorded<EventObject>[];
  /** The params of the machine's own action `type` (e.g. `logFailure`) each time it ran in this step. */
  actions<Params = unknown>(type: string): Recorded<Params>[];
  /** The input of the running child `id` (a promise, callback or machine); throws if none runs. */
  inputOf<Input = unknown>(id: string): Input;
  /** The harness the path runs on: its calls, callback stand-ins, clock. */
  harness: MachineHarness<TMachine>;
};

type Pending = { to: AnyActorRef; event: EventObject } | { action: string; params: unknown };

/**
 * Reads the harness's inspection record step by step. `next(before)` returns what happened since
 * the previous call; the first call covers the start.
 */
export function stepReader<TMachine extends AnyStateMachine>(h: MachineHarness<TMachine>, asRoot: boolean) {
  const subject = h.actor as AnyActorRef;
  // The actor with the portal's system id: the stand-in root, or the machine when it is the root.
  const portal = (asRoot ? subject : subject.system.get('portal')) as AnyActorRef;
  let cursor = 0;

  return function next(before: SnapshotFrom<TMachine> | undefined): ModelStep<TMachine> {
    const events: EventObject[] = [];
    const toasts: ToastRequest[] = [];
    const facts: EventObject[] = [];
    const shown: Recorded<ToastRequest>[] = [];
    const told: Recorded<EventObject>[] = [];
    const sent: (Recorded<EventObject> & { to: AnyActorRef })[] = [];
    const actions: (Recorded<unknown> & { type: string })[] = [];
    // What the machine did while taking an event; XState reports the event with the snapshot it
    // led to, after the sends it deferred to the end of that step.
    let pending: Pending[] = [];

    const inspected = h.inspected.slice(cursor) as InspectionEvent[];
    cursor = h.inspected.length;
    for (const inspection of inspected) {
      if (inspection.type === '@xstate.event') {
        const { sourceRef, actorRef, event } = inspection;
        const toRoot = actorRef === portal && sourceRef !== undefined && !event.type.startsWith('xstate.');
        if (toRoot && event.type === 'toast.requested')
          toasts.push((event as EventObject & { toast: ToastRequest }).toast);
        else if (toRoot) facts.push(event);
        if (sourceRef === subject) pending.push({ to: actorRef as AnyActorRef, event });
      } else if (inspection.type === '@xstate.action' && inspection.actorRef === subject) {
        pending.push({ action: inspection.action.type, params: inspection.action.params });
      } else if (inspection.type === '@xstate.snapshot' && inspection.actorRef === subject) {
        const { event } = inspection;
        if (event.type !== 'xstate.init') events.push(event);
        for (const done of pending) {
          if ('action' in done) {
            actions.push({ type: done.action, params: done.params, event });
          } else if (done.to !== portal || done.event.type.startsWith('xstate.')) {
            sent.push({ to: done.to, params: done.event, event });
          } else if (done.event.type === 'toast.requested') {
            shown.push({ params: (done.event as EventObject & { toast: ToastRequest }).toast, event });
          } else {
            told.push({ params: done.event, event });
          }
        }
        pending = [];
      }
    }

    const snapshot = h.snapshot() as AnyMachineSnapshot;
    const recorded = <Params>({ params, event }: Recorded<Params>): Recorded<Params> => ({ params, event });
    return {
      before,
      events,
      toasts,
      facts,
      shown,
      told,
      sentTo: (id) => sent.filter(({ to }) => to.id === id).map(recorded),
      actions: <Params>(type: string) =>
        actions
          .filter((action) => action.type === type)
          .map((action) => recorded(action as Recorded<Params>)),
      inputOf: <Input>(id: string) => {
        const child = (snapshot.children as Record<string, AnyActorRef | undefined>)[id];
        if (!child) throw new Error(`no actor '${id}' is running`);
        return (child.getSnapshot() as { input?: Input }).input as Input;
      },
      harness: h,
    };
  };
}
