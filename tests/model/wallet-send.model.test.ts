import { beforeEach, expect } from 'vitest';
import { sendCopy } from '../../src/copy/index.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { walletSendMachine, walletSendTags } from '../../src/machines/wallet-send.machine.ts';
import { TokenServiceError } from '../../src/services/token/types.ts';
import { describeModel } from './support/index.ts';

const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = `0x${'cd'.repeat(32)}` as const;
// xstate/graph prints events with JSON.stringify, which refuses bigints; the machine never reads them.
const prepared = { from: WALLET, to: OTHER, raw: '1000000000000000000', amount: '1', decimals: 18 };
const call = { from: WALLET, to: TOKEN, data: '0xa9059cbb' };

const toasts: ToastRequest[] = [];
beforeEach(() => {
  toasts.length = 0;
});

describeModel({
  name: 'wallet-send',
  machine: walletSendMachine,
  input: { from: WALLET, to: OTHER, amount: '1' },
  deferredActors: ['prepareWalletTransfer', 'requestWalletTransfer', 'confirmTransfer'],
  provide: { actions: { showToast: (_, params) => void toasts.push(params) } },
  events: {
    'xstate.done.actor.prepareWalletTransfer': [
      { type: 'xstate.done.actor.prepareWalletTransfer', output: { prepared, call } },
    ],
    'xstate.error.actor.prepareWalletTransfer': [
      {
        type: 'xstate.error.actor.prepareWalletTransfer',
        error: new TokenServiceError({ code: 'insufficient-token-balance', figures: null }),
      },
    ],
    'xstate.done.actor.requestWalletTransfer': [
      { type: 'xstate.done.actor.requestWalletTransfer', output: HASH },
    ],
    'xstate.error.actor.requestWalletTransfer': [
      { type: 'xstate.error.actor.requestWalletTransfer', error: { code: 'rejected', message: null } },
      { type: 'xstate.error.actor.requestWalletTransfer', error: { code: 'wrong-chain', message: null } },
      { type: 'xstate.error.actor.requestWalletTransfer', error: { code: 'unknown', message: 'boom' } },
    ],
    'xstate.done.actor.confirmTransfer': [
      {
        type: 'xstate.done.actor.confirmTransfer',
        output: { hash: HASH, from: WALLET, to: OTHER, raw: '1', blockNumber: '3' },
      },
    ],
    'xstate.error.actor.confirmTransfer': [
      {
        type: 'xstate.error.actor.confirmTransfer',
        error: new TokenServiceError({ code: 'reverted' }, { hash: HASH }),
      },
      {
        type: 'xstate.error.actor.confirmTransfer',
        error: new TokenServiceError({ code: 'not-confirmed', seconds: 120 }, { hash: HASH }),
      },
    ],
  },
  states: {
    requesting: (s) => {
      expect(s.hasTag(walletSendTags.waiting)).toBe(true);
      expect(s.context.call).toEqual(call);
      expect(toasts.at(-1)).toEqual(sendCopy.walletPrompt);
    },
    pending: (s) => {
      expect(s.hasTag(walletSendTags.pending)).toBe(true);
      expect(toasts.at(-1)?.description).toBe(sendCopy.transferPendingDescription(HASH));
    },
    // Every way ends with one toast saying how, and an outcome that carries a hash only once sent.
    done: (s) => {
      expect(s.status).toBe('done');
      const last = toasts.at(-1)?.title;
      switch (s.output?.outcome) {
        case 'confirmed':
          expect(last).toBe(sendCopy.transferSubmitted);
          expect(s.output.hash).toBe(HASH);
          break;
        case 'unconfirmed':
          expect(last).toBe(sendCopy.transferNotConfirmed);
          expect(s.output.hash).toBe(HASH);
          break;
        case 'maybeSent':
          // The wallet may have broadcast it before failing: never worded as a failure.
          expect(last).toBe(sendCopy.mayHaveBeenSent);
          expect(toasts.at(-1)?.description).toContain(sendCopy.walletMaybeSent);
          break;
        default:
          expect([
            sendCopy.invalidTransfer,
            sendCopy.transferFailed,
            sendCopy.walletRejected.title,
          ]).toContain(last);
      }
    },
  },
});
