import { expect } from 'vitest';
import type { AnyEventObject, SnapshotFrom } from 'xstate';
import { authCopy, profileCopy, walletCopy, walletProofCopy } from '../../src/copy/index.ts';
import type { WalletNonce, WalletProof } from '../../src/domain/wallet.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { walletProofMachine, type WalletProofFact } from '../../src/machines/profile/wallet-proof.machine.ts';
import { profileRow } from '../support/fixtures.ts';
import { describeModel, inState, type ModelStep } from '../support/model/index.ts';

// Proving the connected wallet before the profile links it (docs/product.md#wallet-sync): the
// generated paths, each step checked for what each request is asked, what the profile machine is
// told, and the one toast a failure shows, worded for the refusal the path chose.

type Snapshot = SnapshotFrom<typeof walletProofMachine>;

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const LINKED = profileRow(
  { id: 'u-1', email: 'ada@example.com' },
  { wallet_address: ALICE, wallet_verified_at: '2026-03-03T00:00:00Z' },
);
const NONCE: WalletNonce = { nonce: 'Abc123def456ghi789', expiresAt: '2026-03-03T00:10:00Z' };
const PROOF: WalletProof = { message: 'signed', signature: `0x${'ab'.repeat(65)}` };

/** As the supabase service reports a function's refusal or a request that got no answer. */
const backend = (code: string | null, message: string) => ({
  name: 'BackendError',
  message,
  code,
  status: null,
});

type Toasted = { error: unknown; toast: ToastRequest };
const notLinked = (description: string): ToastRequest => ({
  title: walletProofCopy.notLinked,
  description,
  variant: 'destructive',
});
const syncError = (description: string): ToastRequest => ({
  title: profileCopy.databaseSyncError,
  description,
  variant: 'destructive',
});

/** link-wallet's answers to a nonce request or a proof: a refusal says why, anything else is the backend's. */
const backendFailures: Toasted[] = [
  { error: backend('wallet_taken', 'taken'), toast: notLinked(walletProofCopy.refused.wallet_taken) },
  { error: backend('network_error', 'Failed to fetch'), toast: syncError('Failed to fetch') },
  { error: backend('proof_expired', 'expired'), toast: notLinked(walletProofCopy.refused.proof_expired) },
  { error: backend(null, ' '), toast: syncError(authCopy.unexpectedError) },
  { error: backend('proof_replayed', 'replayed'), toast: notLinked(walletProofCopy.refused.proof_replayed) },
  {
    error: backend('toString', 'Edge Function returned 500'),
    toast: syncError('Edge Function returned 500'),
  },
];

/** The wallet's answers to the signature request (or the message's), all 'Wallet Not Linked'. */
const signingFailures: Toasted[] = [
  { error: { code: 'rejected', message: null }, toast: notLinked(walletProofCopy.declined) },
  { error: { code: 'pending', message: null }, toast: notLinked(walletCopy.switchPending) },
  { error: { code: 'not-installed', message: null }, toast: notLinked(walletCopy.notInstalled) },
  { error: { code: 'unknown', message: 'Ledger: device locked' }, toast: notLinked('Ledger: device locked') },
  { error: { code: 'unknown', message: null }, toast: notLinked(walletProofCopy.walletFailed) },
  {
    error: new Error('The page is not served over https.'),
    toast: notLinked('The page is not served over https.'),
  },
  { error: { code: 'wrong-chain', message: null }, toast: notLinked(walletProofCopy.walletFailed) },
  { error: 42, toast: notLinked(walletProofCopy.walletFailed) },
];

type Step = ModelStep<typeof walletProofMachine>;

function checkStep(
  event: AnyEventObject,
  { toasts, facts: told, inputOf }: Step,
  failures: { backend: Toasted; signing: Toasted },
) {
  const expected: { toasts: ToastRequest[]; told: WalletProofFact[] } = { toasts: [], told: [] };
  switch (event.type) {
    case 'xstate.done.actor.requestWalletNonce':
      // The wallet signs a message carrying the nonce, expiring with it, for the same address.
      expect(inputOf('signProof')).toEqual({
        address: ALICE,
        nonce: NONCE.nonce,
        expiresAt: NONCE.expiresAt,
        statement: walletProofCopy.statement,
      });
      break;
    case 'xstate.done.actor.signProof':
      // The signed proof goes to link-wallet, and the profile hears that it is on its way.
      expect(inputOf('linkWallet')).toEqual(PROOF);
      expected.told.push({ type: 'walletProof.verifying' });
      break;
    case 'xstate.error.actor.requestWalletNonce':
    case 'xstate.error.actor.linkWallet':
      expected.toasts.push(failures.backend.toast);
      break;
    case 'xstate.error.actor.signProof':
      expected.toasts.push(failures.signing.toast);
      break;
  }
  expect(toasts, `the toasts after ${event.type}`).toEqual(expected.toasts);
  expect(told, `what the profile was told after ${event.type}`).toEqual(expected.told);
}

function everyStep(s: Snapshot, step: Step, failures: { backend: Toasted; signing: Toasted }) {
  const event = step.events.at(-1);
  // A nonce for this user's connected address comes first.
  if (!step.before) expect(step.inputOf('requestWalletNonce')).toEqual({ address: ALICE });
  else if (event) checkStep(event, step, failures);
  // The signature is held only while link-wallet checks it.
  expect(s.context.proof).toEqual(inState(s, 'verifying') ? PROOF : null);
  // It ends with the linked profile, or with nothing after the toast that said why.
  if (inState(s, 'done')) {
    expect(s.status).toBe('done');
    expect(s.output).toEqual(event?.type === 'xstate.done.actor.linkWallet' ? { profile: LINKED } : null);
  }
}

// One model per pair of failures; the paths take one answer from each request.
const cases = backendFailures.map((backendFailure, index) => ({
  backend: backendFailure,
  signing: signingFailures[index] as Toasted,
}));
cases.push(
  ...signingFailures
    .slice(cases.length)
    .map((signing) => ({ backend: backendFailures[0] as Toasted, signing })),
);

for (const failures of cases) {
  describeModel({
    name: 'wallet-proof',
    machine: walletProofMachine,
    input: { address: ALICE },
    events: {
      'xstate.done.actor.requestWalletNonce': [
        { type: 'xstate.done.actor.requestWalletNonce', output: NONCE },
      ],
      'xstate.error.actor.requestWalletNonce': [
        { type: 'xstate.error.actor.requestWalletNonce', error: failures.backend.error },
      ],
      'xstate.done.actor.signProof': [{ type: 'xstate.done.actor.signProof', output: PROOF }],
      'xstate.error.actor.signProof': [
        { type: 'xstate.error.actor.signProof', error: failures.signing.error },
      ],
      'xstate.done.actor.linkWallet': [{ type: 'xstate.done.actor.linkWallet', output: LINKED }],
      'xstate.error.actor.linkWallet': [
        { type: 'xstate.error.actor.linkWallet', error: failures.backend.error },
      ],
    },
    states: { '*': (s, step) => everyStep(s, step, failures) },
  });
}
