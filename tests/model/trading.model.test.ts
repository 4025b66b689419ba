import { beforeEach, expect } from 'vitest';
import { createMachine, type AnyActorRef, type AnyEventObject, type SnapshotFrom } from 'xstate';
import {
  tradingMachine,
  type TradingEmitted,
  type TradingEvent,
} from '../../src/machines/trading.machine.ts';
import { eventRecorder, withBigIntJson } from './recorders.ts';
import { describeModel } from './support/index.ts';

// The Trading tab's root on its own: its children are recorders, and every step checks that the
// fact or page event the path sent reached the swap form as it was, that the market heard nothing,
// and that only a swap mined is announced to the portal.

type Snapshot = SnapshotFrom<typeof tradingMachine>;
type TradingActors = NonNullable<Parameters<typeof tradingMachine.provide>[0]['actors']>;

const E18 = 10n ** 18n;
const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const HASH = `0x${'cd'.repeat(32)}` as const;
const input = { expectedChainId: 31337, signedIn: false, account: WALLET, chainId: 31337 };

const delivered: { to: string; event: AnyEventObject }[] = [];
const recordingChild = (to: string) =>
  createMachine({
    types: {} as { context: { input: unknown }; input: unknown },
    context: ({ input: given }) => ({ input: given }),
    entry: ({ context }) => void delivered.push({ to, event: { type: 'started', input: context.input } }),
    on: { '*': { actions: ({ event }) => void delivered.push({ to, event }) } },
  });

/**
 * What the root emits for the composition root (its `actor.on` listeners), heard through the
 * system's inspection as the emit actions run, as eventRecorder hears the events.
 */
function emittedRecorder() {
  const watched = new WeakSet<AnyActorRef['system']>();
  let emitted: TradingEmitted[] = [];
  return {
    take(snapshot: Snapshot): TradingEmitted[] {
      for (const child of Object.values(snapshot.children) as AnyActorRef[]) {
        const { system } = child;
        if (watched.has(system)) continue;
        watched.add(system);
        system.inspect((inspection) => {
          if (inspection.type !== '@xstate.action' || inspection.action.type !== 'xstate.emit') return;
          if (inspection.actorRef.sessionId !== inspection.rootId) return;
          emitted.push((inspection.action.params as { event: TradingEmitted }).event);
        });
      }
      const taken = emitted;
      emitted = [];
      return taken;
    },
  };
}

const received = eventRecorder();
const announced = emittedRecorder();
let latest: Snapshot | null = null;

beforeEach(() => {
  if (latest) {
    received.take(latest);
    announced.take(latest);
  }
  delivered.length = 0;
  latest = null;
});

function everyStep(snapshot: Snapshot) {
  const first = latest === null;
  latest = snapshot;
  const events = received.take(snapshot) as TradingEvent[];
  const told = delivered.splice(0);
  const announcements = announced.take(snapshot);
  if (first) {
    // Both children start with the tab; the swap form with the wallet and session it was given.
    expect(told).toEqual([
      { to: 'market', event: { type: 'started', input: undefined } },
      { to: 'swap', event: { type: 'started', input } },
    ]);
    return;
  }
  const forwarded = events.filter((event) => event.type !== 'swap.confirmed');
  expect(told).toEqual(forwarded.map((event) => ({ to: 'swap', event })));
  // A swap mined reaches the portal with the amounts the receipt reports.
  expect(announcements).toEqual(
    events.flatMap((event) =>
      event.type === 'swap.confirmed'
        ? [
            {
              type: 'trading.swapConfirmed',
              hash: event.hash,
              side: event.side,
              amountIn: event.amountIn,
              amountOut: event.amountOut,
            },
          ]
        : [],
    ),
  );
}

withBigIntJson(() =>
  describeModel({
    name: 'trading',
    machine: tradingMachine,
    input,
    provide: {
      // The root only sends to its children and reads nothing back, so recorders stand in for them.
      actors: { market: recordingChild('market'), swap: recordingChild('swap') } as unknown as TradingActors,
    },
    events: {
      'market.block': [{ type: 'market.block', blockNumber: 6n }],
      'wallet.changed': [{ type: 'wallet.changed', address: null, chainId: null }],
      'session.changed': [{ type: 'session.changed', signedIn: true }],
      'swap.confirmed': [
        { type: 'swap.confirmed', hash: HASH, side: 'sell', amountIn: 50n * E18, amountOut: E18 / 40n },
      ],
    },
    states: { '*': everyStep },
  }),
);
