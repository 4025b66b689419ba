import { expect } from 'vitest';
import { faucetCopy } from '../../src/copy/faucet.ts';
import { claimTime } from '../../src/machines/faucet/faucet-toasts.ts';
import { faucetMachine } from '../../src/machines/faucet/faucet.machine.ts';
import { FaucetError } from '../../src/services/faucet/types.ts';
import { describeModel } from '../support/model/index.ts';

// The faucet's chart: the press, the human check (loaded, then passed, failed or cancelled), the
// claim with the check's token and its one toast, and a paid claim's transfer awaited before the
// root hears `faucet.claimed`. Every step checks what the machine showed and reported.

const TOKEN = '10000000-aaaa-bbbb-cccc-000000000001';
const PAID = { txHash: `0x${'ab'.repeat(32)}`, amount: '100', nextClaimAt: '2026-12-06T10:00:00.000Z' };
const NEXT = '2026-12-07T09:30:00.000Z';

type Snapshot = ReturnType<typeof faucetMachine.transition>;

describeModel({
  name: 'faucet',
  machine: faucetMachine,
  events: {
    'faucet.humanChecked': [{ type: 'faucet.humanChecked', token: TOKEN }],
    'xstate.done.actor.loadHumanCheck': [
      { type: 'xstate.done.actor.loadHumanCheck', output: { kind: 'local' } },
    ],
    'xstate.error.actor.loadHumanCheck': [
      { type: 'xstate.error.actor.loadHumanCheck', error: new Error('blocked') },
    ],
    'xstate.done.actor.claimFaucet': [{ type: 'xstate.done.actor.claimFaucet', output: PAID }],
    'xstate.error.actor.claimFaucet': [
      {
        type: 'xstate.error.actor.claimFaucet',
        error: new FaucetError('too_soon', { detail: '429', nextClaimAt: NEXT }),
      },
    ],
    'xstate.done.actor.confirmClaim': [{ type: 'xstate.done.actor.confirmClaim', output: {} }],
    'xstate.error.actor.confirmClaim': [
      { type: 'xstate.error.actor.confirmClaim', error: new Error('timed out') },
    ],
  },
  states: {
    '*': (snapshot: Snapshot, { events, shown, told }) => {
      const last = events.at(-1)?.type;
      // Each toast belongs to one answer; the root hears of a claim only once its transfer is awaited.
      const toasts: unknown[] = [];
      if (last === 'xstate.error.actor.loadHumanCheck')
        toasts.push({ ...faucetCopy.humanCheckUnavailable, variant: 'destructive' });
      if (last === 'faucet.humanCheckError')
        toasts.push({ ...faucetCopy.humanCheckFailed, variant: 'destructive' });
      if (last === 'xstate.done.actor.claimFaucet') toasts.push(faucetCopy.paid(PAID.amount));
      if (last === 'xstate.error.actor.claimFaucet')
        toasts.push({ ...faucetCopy.tooSoon(claimTime(NEXT)), variant: 'destructive' });
      expect(shown.map(({ params }) => params)).toEqual(toasts);
      const claimed = last === 'xstate.done.actor.confirmClaim' || last === 'xstate.error.actor.confirmClaim';
      expect(told.map(({ params }) => params)).toEqual(claimed ? [{ type: 'faucet.claimed' }] : []);
      // The check's token lives only while the claim that spends it runs.
      expect(snapshot.context.captchaToken).toBe(snapshot.matches('claiming') ? TOKEN : null);
      expect(snapshot.context.txHash).toBe(snapshot.matches('confirming') ? PAID.txHash : null);
      expect(snapshot.hasTag('busy')).toBe(snapshot.matches('claiming') || snapshot.matches('confirming'));
    },
    'checking.ready': (snapshot: Snapshot) => expect(snapshot.context.widget).toEqual({ kind: 'local' }),
    claiming: (_snapshot: Snapshot, { inputOf }) =>
      expect(inputOf('claimFaucet')).toEqual({ captchaToken: TOKEN }),
    confirming: (_snapshot: Snapshot, { inputOf }) =>
      expect(inputOf('confirmClaim')).toEqual({ txHash: PAID.txHash }),
  },
});
