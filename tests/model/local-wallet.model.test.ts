import { expect } from 'vitest';
import type { AnyEventObject, SnapshotFrom } from 'xstate';
import { localWalletCopy } from '../../src/copy/local-wallet.ts';
import type { LocalWalletAsk } from '../../src/domain/local-wallet.ts';
import {
  localWalletMachine,
  type LocalWalletAnswer,
} from '../../src/machines/local-wallet/local-wallet.machine.ts';
import { sealKey } from '../../src/machines/send/send-key.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { ALICE } from '../support/machines/fixtures.ts';
import { describeModel, inState, type ModelStep } from '../support/model/index.ts';

// The local test wallet's chart: every ask waits in order for the person's answer, which goes back
// to the wallet for that ask alone; the key is shown only while revealed, and only sealed; a
// replacement is confirmed first, and one that fails says so.

type Snapshot = SnapshotFrom<typeof localWalletMachine>;

const SIGN: LocalWalletAsk = { id: 1, request: { kind: 'sign', message: 'localhost wants you to sign in' } };
const SEND: LocalWalletAsk = {
  id: 2,
  request: { kind: 'transaction', to: ALICE, valueEth: '0.5', data: null },
};
const KEY = `0x${'ab'.repeat(32)}`;

function checkStep(
  event: AnyEventObject,
  from: Snapshot,
  to: Snapshot,
  step: ModelStep<typeof localWalletMachine>,
) {
  const answers = step.sentTo('approvals').map(({ params }) => params as LocalWalletAnswer);
  const toasts: ToastRequest[] = [];
  switch (event.type) {
    case 'localWallet.asked':
      // Asked in order; the dialog shows the first.
      expect(to.context.pending).toEqual([
        ...from.context.pending,
        { id: event['id'], request: event['request'] },
      ]);
      break;
    case 'localWallet.approve':
    case 'localWallet.reject': {
      const first = from.context.pending[0];
      if (inState(from, 'approval.asking') && first) {
        // The answer is for the ask in the dialog, and the next one moves up.
        expect(answers).toEqual([
          { type: 'localWallet.answer', id: first.id, approved: event.type === 'localWallet.approve' },
        ]);
        expect(to.context.pending).toEqual(from.context.pending.slice(1));
      } else {
        expect(answers).toEqual([]);
      }
      break;
    }
    case 'xstate.done.actor.readKey':
      expect(to.context.revealedKey?.reveal()).toBe(KEY);
      break;
    case 'xstate.error.actor.replaceWallet':
      toasts.push({
        title: localWalletCopy.replaceFailed,
        description: 'storage is full',
        variant: 'destructive',
      });
      break;
    default:
      if (event.type !== 'localWallet.asked') expect(answers).toEqual([]);
  }
  expect(step.toasts).toEqual(toasts);
}

describeModel({
  name: 'local-wallet',
  machine: localWalletMachine,
  input: { address: ALICE },
  callbacks: ['approvals'],
  // Asks can pile up without end: two waiting stand for any more, and the one in the dialog matters.
  serializeState: (s) =>
    JSON.stringify([s.value, Math.min(s.context.pending.length, 2), s.context.pending[0]?.id ?? null]),
  events: {
    'localWallet.asked': [
      { type: 'localWallet.asked', ...SIGN },
      { type: 'localWallet.asked', ...SEND },
    ],
    'xstate.done.actor.readKey': [{ type: 'xstate.done.actor.readKey', output: sealKey(KEY) }],
    'xstate.error.actor.readKey': [{ type: 'xstate.error.actor.readKey', error: new Error('no key') }],
    'xstate.error.actor.replaceWallet': [
      { type: 'xstate.error.actor.replaceWallet', error: new Error('storage is full') },
    ],
  },
  states: {
    '*': (s, step) => {
      const event = step.events.at(-1);
      if (step.before && event) checkStep(event, step.before, s, step);
      // The dialog is open exactly while something is asked.
      expect(inState(s, 'approval.asking')).toBe(s.context.pending.length > 0);
      // The key is held, sealed, only while it is shown.
      expect(s.context.revealedKey !== null).toBe(inState(s, 'menu.revealed'));
      expect(JSON.stringify(s.context)).not.toContain(KEY);
    },
  },
});
