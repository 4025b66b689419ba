import { authUser } from '../support/fixtures.ts';
import { beforeEach, expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  tradingMachine,
  type TradingEvent,
  type TradingFact,
} from '../../src/machines/trading/trading.machine.ts';
import { E18, HASH } from '../support/machines/fixtures.ts';
import { recordingChild, type Delivery } from '../support/portal-stubs.ts';
import { WALLET } from '../support/transfer-fixtures.ts';
import { withBigIntJson } from '../support/model/recorders.ts';
import { describeModel, type ModelStep } from '../support/model/index.ts';

// The Trading tab's root on its own: its children are recorders, and every step checks that the
// fact or page event the path sent reached the swap form as it was, that the market heard nothing,
// and that only a swap mined and its saved row are reported to the portal.

type Snapshot = SnapshotFrom<typeof tradingMachine>;

const input = { expectedChainId: 31337, signedIn: false, account: WALLET, chainId: 31337 };

/** What the children were started with and told, in order. */
const delivered: Delivery[] = [];
beforeEach(() => {
  delivered.length = 0;
});

function everyStep(_: Snapshot, step: ModelStep<typeof tradingMachine>) {
  const events = step.events as TradingEvent[];
  const announcements = step.facts as TradingFact[];
  const told = delivered.splice(0);
  if (!step.before) {
    // Both children start with the tab; the swap form with the wallet and session it was given.
    expect(told).toEqual([
      { to: 'market', event: { type: 'started', input: undefined } },
      { to: 'swap', event: { type: 'started', input } },
    ]);
    return;
  }
  const forwarded = events.filter(
    (event) => event.type !== 'swap.confirmed' && event.type !== 'swap.recorded',
  );
  expect(told).toEqual(forwarded.map((event) => ({ to: 'swap', event })));
  // A swap mined reaches the portal with the amounts the receipt reports, and its saved row by hash.
  expect(announcements).toEqual(
    events.flatMap((event): TradingFact[] => {
      if (event.type === 'swap.confirmed') {
        const { hash, side, amountIn, amountOut } = event;
        return [{ type: 'trading.swapConfirmed', hash, side, amountIn, amountOut }];
      }
      return event.type === 'swap.recorded' ? [{ type: 'trading.swapRecorded', hash: event.hash }] : [];
    }),
  );
}

withBigIntJson(() =>
  describeModel({
    name: 'trading',
    machine: tradingMachine,
    input,
    // The root only sends to its children and reads nothing back, so recorders stand in for them.
    actors: { market: recordingChild('market', delivered), swap: recordingChild('swap', delivered) },
    events: {
      'market.block': [{ type: 'market.block', blockNumber: 6n }],
      'wallet.changed': [{ type: 'wallet.changed', address: null, chainId: null }],
      'session.changed': [{ type: 'session.changed', user: authUser('alice') }],
      'swap.confirmed': [
        { type: 'swap.confirmed', hash: HASH, side: 'sell', amountIn: 50n * E18, amountOut: E18 / 40n },
      ],
      'swap.recorded': [{ type: 'swap.recorded', hash: HASH }],
    },
    states: { '*': everyStep },
  }),
);
