import {
  createActor,
  fromPromise,
  StateMachine,
  type AnyActorLogic,
  type AnyActorRef,
  type AnyStateMachine,
  type EventObject,
  type InspectionEvent,
} from 'xstate';
import { botsMachine } from '../machines/bots/bots.machine.ts';
import { faucetMachine } from '../machines/faucet/faucet.machine.ts';
import { portalMachine } from '../machines/portal/portal.machine.ts';
import { tradingMachine } from '../machines/trading/trading.machine.ts';
import { actorName, findActor } from './actor-names.ts';
import { createJournal } from './journal.ts';
import type { JournalEntry, JournalExport, JournalValue } from './journal-types.ts';
import { canonicalJson, fromJournalValue, type Revivers } from './journal-revive.ts';
import { machineSnapshots, type MachineSnapshot } from './machine-snapshots.ts';
import { ReplayClock } from './replay-clock.ts';

// Rebuilds the portal's actor system from a journal, without any network.
//
// The portal machine is started as src/main.tsx starts it, but every service
// actor (each fromPromise / fromCallback a machine declares: sign-in, balances,
// the auth change stream, the notification feed, the theme store, …) is a
// stand-in that does nothing by itself. The recording then supplies, in its
// order, everything that came from outside the statecharts:
//
// - events from outside the system (source null: a view's send) are sent to
//   their target again;
// - a promise actor settles where the recording shows it settling: its
//   `xstate.promise.resolve` / `reject` entry (the same value its parent then
//   receives as `xstate.done.actor.<id>` / `xstate.error.actor.<id>`) is sent
//   to the stand-in running under that name — parent and invoke id, e.g.
//   'auth/signIn'; only one runs under a name at a time, so order matches the rest;
// - what a callback actor sent back (source 'auth/authChanges', …) is sent to
//   its parent again, and a callback's failure fails its stand-in;
// - a timer (`xstate.after.*`) fires where the recording shows its event: time
//   follows the entries' `at` on a ReplayClock (replay-clock.ts);
// - a machine a promise actor resolved with (the Trading and Bots tabs' roots,
//   which `loadTrading` / `loadBots` load with their tab) is recorded by its id,
//   `{ $logic: 'trading' }` (journal-value.ts), and revived as the replay's own
//   copy of that machine (`logics`), its service actors stand-ins as the
//   portal's are. The composition root provides those machines' actors only,
//   so the copy behaves as the loaded one did.
//
// Everything else — what the machines send each other, the actors they start,
// their toasts and reports — is not replayed but happens again, and the replay
// checks it: it records itself with the same journal and compares each entry
// it produces with the recording's (target, source, redacted event). The
// first difference stops it with a ReplayError naming the entry, so a replay
// either rebuilds the session faithfully or says where it could not.
//
// Redacted values stay redacted: a password or private key replays as
// '[redacted]', which changes nothing, since every answer that depended on it
// comes from the recording.
//
// Limits:
// - A truncated journal (the bounded journal dropped its oldest entries, or it
//   was cleared) has lost the start of the session and is refused.
// - An event from outside that arrived in the middle of the system's own
//   processing (a send from inside a snapshot subscription) cannot be put back
//   at that point; the replay then stops at the first entry that differs.
// - Two timers due within a millisecond of each other fire in due order, which
//   may differ from the recording's; the replay then stops there too.
// - Only machines are rebuilt; a service actor's own state is its recorded outcome.

export type ReplayOptions = {
  /** The portal's machine; its service actors are replaced by the recording. Default: the portal. */
  machine?: AnyStateMachine;
  /**
   * The machines a recording may hold as `{ $logic: id }` (a loader's output), by id; their service
   * actors are replaced as the portal's are. Default: the Trading and Bots tabs' roots.
   */
  logics?: Readonly<Record<string, AnyStateMachine>>;
  /**
   * Sees every inspection event of the replayed system, after the replay's journal has named the
   * actors (actor-names.ts), e.g. to collect the transitions a session took (session-transitions.ts).
   */
  inspect?: (event: InspectionEvent) => void;
};

export type ReplayResult = {
  /** The rebuilt portal, still running (offline: nothing answers it but the caller). Stop it when done. */
  portal: AnyActorRef;
  /** Every machine's final state, by journal name ('portal', 'auth', …); see machine-snapshots.ts. */
  snapshots: Record<string, MachineSnapshot>;
  /** The replay's own journal: the recording's entries again, with the replayed inputs' sources null. */
  journal: JournalExport;
  /** Entries sent in from the recording, entries the machines produced again, timers fired. */
  counts: { injected: number; reproduced: number; timers: number };
};

export class ReplayError extends Error {
  override readonly name = 'ReplayError';
  /** The recorded entry the replay stopped at; null when the journal was refused as a whole. */
  readonly seq: number | null;
  constructor(message: string, seq: number | null = null) {
    super(message);
    this.seq = seq;
  }
}

/** The stand-in for every service actor: it never settles by itself, and ignores what it is told. */
const recordedOutcome = fromPromise<unknown, unknown>(() => new Promise<never>(() => undefined));

const isStandIn = (ref: AnyActorRef) => (ref as { logic?: unknown }).logic === recordedOutcome;

function withRecordedActors(machine: AnyStateMachine): AnyStateMachine {
  const declared = machine.implementations.actors as Record<string, unknown>;
  const actors: Record<string, AnyActorLogic> = {};
  for (const [src, logic] of Object.entries(declared))
    actors[src] =
      logic instanceof StateMachine ? withRecordedActors(logic as AnyStateMachine) : recordedOutcome;
  return machine.provide({ actors } as Parameters<AnyStateMachine['provide']>[0]);
}

function describe(entry: JournalEntry): string {
  return `${entry.event.type} → ${entry.target} (from ${entry.source ?? 'outside'})`;
}

function refuse(reason: string): never {
  throw new ReplayError(`This journal cannot be replayed: ${reason}`);
}

/** The recording's entries, once it is known to hold a whole session from the portal's start. */
function checkRecording(recording: JournalExport): [JournalEntry, ...JournalEntry[]] {
  if (recording?.format !== 'ddex-journal' || recording.version !== 1 || !Array.isArray(recording.entries))
    refuse('it is not a DDEX journal (format "ddex-journal", version 1).');
  if (recording.truncated)
    refuse(
      'it is truncated — its oldest entries were dropped (the journal is bounded, or it was cleared), ' +
        'so the start of the session is missing. Record a shorter session or raise the journal limit.',
    );
  const [first, ...rest] = recording.entries;
  if (!first) refuse('it has no entries.');
  recording.entries.forEach((entry, index) => {
    if (entry.seq !== index + 1) refuse(`entry ${index + 1} has seq ${entry.seq}: entries are missing.`);
  });
  if (first.event.type !== 'xstate.init' || first.source !== null)
    refuse(`it does not begin with the portal's start (its first entry is ${describe(first)}).`);
  return [first, ...rest];
}

const isSettlement = (type: string) => type === 'xstate.promise.resolve' || type === 'xstate.promise.reject';

/** The machines whose code loads on demand and whose logic the journal therefore carries by id. */
const LOADED_LOGICS: Readonly<Record<string, AnyStateMachine>> = {
  trading: tradingMachine,
  bots: botsMachine,
  faucet: faucetMachine,
};

/**
 * `{ $logic: id }` revived as the machine `logics` holds under that id, with recorded actors; built
 * once per id, however often its tab is opened.
 */
function logicReviver(logics: Readonly<Record<string, AnyStateMachine>>, at: () => JournalEntry): Revivers {
  const revived = new Map<string, AnyStateMachine>();
  return {
    $logic: (id) => {
      const name = typeof id === 'string' ? id : null;
      const known = name !== null && Object.hasOwn(logics, name) ? logics[name] : undefined;
      if (name === null || !known) {
        const entry = at();
        const what = name === null ? 'actor logic that is no machine' : `the machine '${name}'`;
        throw new ReplayError(
          `Entry ${entry.seq} (${describe(entry)}) holds ${what}, which the replay cannot rebuild ` +
            `(it knows: ${Object.keys(logics).join(', ') || 'none'}).`,
          entry.seq,
        );
      }
      let logic = revived.get(name);
      if (!logic) revived.set(name, (logic = withRecordedActors(known)));
      return logic;
    },
  };
}

export function replay(
  recording: JournalExport,
  { machine = portalMachine, logics = LOADED_LOGICS, inspect: watch }: ReplayOptions = {},
): ReplayResult {
  const [start, ...entries] = checkRecording(recording);
  let current: JournalEntry = start;
  const revivers = logicReviver(logics, () => current);
  const revive = (value: JournalValue) => fromJournalValue(value, revivers);
  const clock = new ReplayClock();
  const own = createJournal({ limit: Infinity, now: () => clock.now() });
  /** Names of the stand-ins the replay has started (a callback or promise actor in the recording). */
  const standIns = new Set<string>();
  const produced: JournalEntry[] = [];
  let matched = 0;
  const counts = { injected: 0, reproduced: 0, timers: 0 };
  const failures: unknown[] = [];

  own.journal.subscribe((entry) => produced.push(entry));
  const inspect = (event: InspectionEvent) => {
    // The journal goes first: it names each actor as it starts (actor-names.ts).
    own.inspect(event);
    watch?.(event);
    const ref = event.actorRef as AnyActorRef;
    if (event.type === '@xstate.event' && event.event.type === 'xstate.init' && isStandIn(ref))
      standIns.add(actorName(ref));
  };

  const portal = createActor(withRecordedActors(machine), {
    systemId: start.target,
    input: revive(start.event.input ?? null),
    clock,
    inspect,
  });
  portal.subscribe({ error: (error) => void failures.push(error) });

  const diverged = (entry: JournalEntry, what: string) =>
    new ReplayError(
      `The replay differs from the recording at entry ${entry.seq} (${describe(entry)}): ${what}`,
      entry.seq,
    );

  const actor = (name: string, entry: JournalEntry): AnyActorRef => {
    const found = findActor(portal, name);
    if (!found) throw diverged(entry, `no actor named ${name} runs in the replay.`);
    return found;
  };

  /** Delivers a recorded input; the entry its delivery produces is the input itself, not something to compare. */
  const inject = (entry: JournalEntry, deliver: () => void, type = entry.event.type) => {
    clock.advanceTo(entry.at);
    const mark = produced.length;
    deliver();
    const delivered = produced[mark];
    if (delivered && delivered.event.type !== type)
      throw diverged(entry, `delivering it produced ${describe(delivered)} first.`);
    if (delivered) produced.splice(mark, 1);
    counts.injected += 1;
  };

  /** A recorded entry the machines must produce again, in this place. */
  const reproduce = (entry: JournalEntry) => {
    while (matched >= produced.length && clock.fireNext()) counts.timers += 1;
    const next = produced[matched];
    if (!next) throw diverged(entry, 'the replay did not produce it.');
    if (
      next.target !== entry.target ||
      next.source !== entry.source ||
      canonicalJson(next.event) !== canonicalJson(entry.event)
    )
      throw diverged(entry, `the replay produced ${describe(next)} instead: ${canonicalJson(next.event)}`);
    matched += 1;
    counts.reproduced += 1;
  };

  const step = (entry: JournalEntry) => {
    const { source, target, event } = entry;
    const send = (name: string, value: JournalValue) => () =>
      actor(name, entry).send(revive(value) as EventObject);
    if (source === null) {
      // A view's send to an actor that has stopped since reached nobody, live and here alike.
      const receiver = findActor(portal, target);
      return inject(entry, () => receiver?.send(revive(event) as EventObject));
    }
    if (!standIns.has(source)) return reproduce(entry);
    if (isSettlement(event.type)) return inject(entry, send(source, event));
    const outcome = /^xstate\.(done|error)\.actor\./.exec(event.type)?.[1];
    if (outcome) {
      // Normally the parent's copy of a settlement already replayed; a callback's failure has none.
      const standIn = findActor(portal, source);
      if (standIn?.getSnapshot().status === 'active') {
        const type = outcome === 'done' ? 'xstate.promise.resolve' : 'xstate.promise.reject';
        const data = (outcome === 'done' ? event.output : event.error) ?? null;
        inject(entry, send(source, { type, data }), type);
      }
      return reproduce(entry);
    }
    actor(source, entry);
    return inject(entry, send(target, event));
  };

  try {
    inject(start, () => portal.start());
    for (const entry of entries) {
      current = entry;
      step(entry);
      if (failures.length > 0) throw diverged(entry, `the portal failed: ${String(failures[0])}`);
    }
    const extra = produced[matched];
    if (extra)
      throw new ReplayError(`The replay produced ${describe(extra)} after the recording's last entry.`, null);
  } catch (error) {
    portal.stop();
    throw error;
  }

  return { portal, snapshots: machineSnapshots(portal), journal: own.journal.export(), counts };
}
