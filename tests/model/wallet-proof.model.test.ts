import { beforeEach, expect } from 'vitest';
import { profileCopy, walletProofCopy } from '../../src/copy/index.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { walletProofMachine, type WalletProofFact } from '../../src/machines/wallet-proof.machine.ts';
import { profileRow } from '../support/fixtures.ts';
import { describeModel } from './support/index.ts';

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const LINKED = profileRow(
  { id: 'u-1', email: 'ada@example.com' },
  { wallet_address: ALICE, wallet_verified_at: '2026-03-03T00:00:00Z' },
);
const SIGNATURE = `0x${'ab'.repeat(65)}`;

/** As the supabase service reports a function's refusal or a request that got no answer. */
const backend = (code: string | null, message: string) => ({
  name: 'BackendError',
  message,
  code,
  status: null,
});

const toasts: ToastRequest[] = [];
const told: WalletProofFact[] = [];

beforeEach(() => {
  toasts.length = 0;
  told.length = 0;
});

describeModel({
  name: 'wallet-proof',
  machine: walletProofMachine,
  input: { address: ALICE },
  deferredActors: ['requestWalletNonce', 'signProof', 'linkWallet'],
  provide: {
    actions: {
      showToast: (_, params) => void toasts.push(params),
      tellParent: (_, fact) => void told.push(fact),
    },
  },
  events: {
    'xstate.done.actor.requestWalletNonce': [
      {
        type: 'xstate.done.actor.requestWalletNonce',
        output: { nonce: 'Abc123def456ghi789', expiresAt: '2026-03-03T00:10:00Z' },
      },
    ],
    'xstate.error.actor.requestWalletNonce': [
      { type: 'xstate.error.actor.requestWalletNonce', error: backend('wallet_taken', 'taken') },
      { type: 'xstate.error.actor.requestWalletNonce', error: backend('network_error', 'Failed to fetch') },
    ],
    'xstate.done.actor.signProof': [
      { type: 'xstate.done.actor.signProof', output: { message: 'signed', signature: SIGNATURE } },
    ],
    'xstate.error.actor.signProof': [
      { type: 'xstate.error.actor.signProof', error: { code: 'rejected', message: null } },
    ],
    'xstate.done.actor.linkWallet': [{ type: 'xstate.done.actor.linkWallet', output: LINKED }],
    'xstate.error.actor.linkWallet': [
      { type: 'xstate.error.actor.linkWallet', error: backend('proof_expired', 'expired') },
      { type: 'xstate.error.actor.linkWallet', error: backend('link_failed', 'Linking failed') },
    ],
  },
  states: {
    signing: (s) => expect(s.context.nonce?.nonce).toBe('Abc123def456ghi789'),
    // The profile machine hears that the proof is on its way: from now on it lets it end.
    verifying: (s) => {
      expect(s.context.proof?.signature).toBe(SIGNATURE);
      expect(told).toEqual([{ type: 'walletProof.verifying' }]);
    },
    // It ends with the linked profile and no toast, or with nothing and exactly one toast that says why.
    done: (s) => {
      expect(s.status).toBe('done');
      expect(s.context.proof).toBeNull();
      if (s.output) {
        expect(s.output).toEqual({ profile: LINKED });
        expect(toasts).toEqual([]);
      } else {
        expect(toasts).toHaveLength(1);
        expect([walletProofCopy.notLinked, profileCopy.databaseSyncError]).toContain(toasts[0]?.title);
        expect(toasts[0]).toMatchObject({ variant: 'destructive', description: expect.any(String) });
      }
    },
  },
});
