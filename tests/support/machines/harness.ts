import {
  createActor,
  fromCallback,
  setup,
  SimulatedClock,
  type ActorRefFrom,
  type AnyActorLogic,
  type AnyActorRef,
  type AnyStateMachine,
  type EventObject,
  type InputFrom,
  type InspectionEvent,
  type SnapshotFrom,
} from 'xstate';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import { deferredActor, settle, type Call } from '../deferred-actor.ts';

// machineHarness: the one way a machine test starts (docs/testing.md). The machine runs as the child
// of a stand-in root that has the portal's system id, so what it reports to the root (`showToast`,
// `report`) and to its parent (`tellParent`) arrives where the real root would hear it and is
// recorded there: the machine's own actions run unchanged. Every actor it invokes, down through the
// machines it invokes, is a stand-in the test answers: a promise actor's call waits for `answer` or
// `fail`, a callback actor (named in `callbacks`) waits for `emit`. Time is a simulated clock.

/** One start of a callback actor: its input, whether it was stopped, and its own way back. */
export type CallbackRun = { input: unknown; stopped: boolean; emit(event: EventObject): void };

/** A callback actor's stand-in: what it was started with, and a way to send its events back. */
export type CallbackStandIn = {
  /** Every start, in order (a feed started again for another user is a second run). */
  runs: CallbackRun[];
  /** How many times the actor was started, and how many of those were stopped. */
  started: number;
  stopped: number;
  /** The input of the latest start. */
  input: unknown;
  /** The events the machine sent to it (`sendTo` the actor), in order. */
  received: EventObject[];
  /** Sends an event back to the machine, as the real actor's `sendBack` would. */
  emit(event: EventObject): void;
};

export type HarnessOptions<TMachine extends AnyStateMachine> = {
  input?: InputFrom<TMachine>;
  /** Actors to run as they are, by name (a child machine's own as `child.name`). */
  actors?: Record<string, AnyActorLogic>;
  /** Names of callback actors (`fromCallback`), which get a stand-in the test emits through. */
  callbacks?: string[];
  /** Actions the app provides in place of a placeholder (a logger), by name. */
  actions?: Record<string, unknown>;
  /** Run the machine as the root itself (the portal machine), rather than under the stand-in. */
  asRoot?: boolean;
};

const SUBJECT = 'subject';

/** Every actor of `machine` and of the machines it invokes, replaced by a stand-in unless given. */
function standIns(
  machine: AnyStateMachine,
  prefix: string,
  options: { actors: Record<string, AnyActorLogic>; callbacks: Set<string> },
  calls: Map<string, Call<unknown>[]>,
  callbacks: Map<string, CallbackStandIn>,
): AnyStateMachine {
  const provided: Record<string, AnyActorLogic> = {};
  for (const [name, logic] of Object.entries(machine.implementations.actors)) {
    const path = `${prefix}${name}`;
    const given = options.actors[path];
    if (given) provided[name] = given;
    else if ('root' in (logic as object))
      provided[name] = standIns(logic as AnyStateMachine, `${path}.`, options, calls, callbacks);
    else if (options.callbacks.has(path)) provided[name] = callbackStandIn(path, callbacks);
    else {
      const list: Call<unknown>[] = [];
      calls.set(path, list);
      provided[name] = deferredActor(list);
    }
  }
  return machine.provide({ actors: provided });
}

function callbackStandIn(path: string, callbacks: Map<string, CallbackStandIn>): AnyActorLogic {
  let sendBack: ((event: EventObject) => void) | null = null;
  const standIn: CallbackStandIn = {
    runs: [],
    started: 0,
    stopped: 0,
    input: undefined,
    received: [],
    emit(event) {
      if (!sendBack) throw new Error(`the '${path}' actor is not running`);
      sendBack(event);
    },
  };
  callbacks.set(path, standIn);
  return fromCallback(({ input, sendBack: back, receive }) => {
    const run: CallbackRun = {
      input,
      stopped: false,
      emit(event) {
        if (run.stopped) throw new Error(`this run of '${path}' was stopped`);
        back(event);
      },
    };
    standIn.runs.push(run);
    standIn.started += 1;
    standIn.input = input;
    sendBack = back;
    receive((event) => void standIn.received.push(event));
    return () => {
      run.stopped = true;
      standIn.stopped += 1;
      if (sendBack === back) sendBack = null;
    };
  });
}

export function machineHarness<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: HarnessOptions<TMachine> = {},
) {
  const calls = new Map<string, Call<unknown>[]>();
  const callbacks = new Map<string, CallbackStandIn>();
  const withActions = options.actions
    ? machine.provide({ actions: options.actions } as Parameters<TMachine['provide']>[0])
    : machine;
  const subject = standIns(
    withActions,
    '',
    { actors: options.actors ?? {}, callbacks: new Set(options.callbacks ?? []) },
    calls,
    callbacks,
  );
  const toasts: ToastRequest[] = [];
  const facts: EventObject[] = [];
  const inspected: InspectionEvent[] = [];
  const clock = new SimulatedClock();
  const inspect = (event: InspectionEvent) => void inspected.push(event);

  const hear = (event: EventObject) => {
    if (event.type === 'toast.requested') toasts.push((event as unknown as { toast: ToastRequest }).toast);
    else if (!event.type.startsWith('xstate.')) facts.push(event);
  };
  const standInRoot = setup({ actors: { subject } }).createMachine({
    invoke: { id: SUBJECT, src: 'subject', input: () => options.input },
    on: { '*': { actions: ({ event }) => hear(event) } },
  });
  const root = options.asRoot
    ? createActor(subject, { input: options.input, clock, inspect, systemId: 'portal' })
    : createActor(standInRoot, { clock, inspect, systemId: 'portal' });
  root.start();
  const ref = (options.asRoot ? root : root.getSnapshot().children[SUBJECT]) as AnyActorRef;

  const callsOf = <Output = unknown, Input = unknown>(name: string): Call<Output, Input>[] => {
    const list = calls.get(name);
    if (!list) throw new Error(`the machine invokes no promise actor '${name}'`);
    return list as Call<Output, Input>[];
  };
  const latest = (name: string): Call<unknown> => {
    const call = callsOf(name).at(-1);
    if (!call) throw new Error(`'${name}' was not called`);
    return call;
  };

  return {
    /** The machine under test (a child of the stand-in root, or the root itself). */
    actor: ref as ActorRefFrom<TMachine>,
    clock,
    snapshot: () => ref.getSnapshot() as SnapshotFrom<TMachine>,
    send: (event: EventObject) => ref.send(event),
    /** The toasts the machine asked the root for, in order. */
    toasts,
    /** The facts the machine reported to the root or told its parent, in order. */
    facts,
    /** Everything the system's inspection saw (events, snapshots, actors). */
    inspected,
    /** The recorded calls of a promise actor (`child.name` for a child machine's own). */
    calls: callsOf,
    /** The latest call's input. */
    inputOf: <Input = unknown>(name: string) => latest(name).input as Input,
    /** The callback actor's stand-in (named in `callbacks`). */
    callback(name: string): CallbackStandIn {
      const standIn = callbacks.get(name);
      if (!standIn) throw new Error(`'${name}' is not among the harness's callbacks`);
      return standIn;
    },
    /** Resolves the latest call of `name` and lets the machine take the answer. */
    async answer(name: string, output?: unknown): Promise<void> {
      latest(name).resolve(output);
      await settle();
    },
    /** Rejects the latest call of `name` and lets the machine take the failure. */
    async fail(name: string, error: unknown): Promise<void> {
      latest(name).reject(error);
      await settle();
    },
    /** Moves the simulated clock on and lets the machine take what fired. */
    async wait(ms: number): Promise<void> {
      clock.increment(ms);
      await settle();
    },
    settle,
    stop: () => root.stop(),
  };
}

export type MachineHarness<TMachine extends AnyStateMachine> = ReturnType<typeof machineHarness<TMachine>>;
