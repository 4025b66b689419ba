import { expect } from 'vitest';
import type { AnyEventObject, SnapshotFrom } from 'xstate';
import { sendCopy, tokenCopy, walletCopy } from '../../src/copy/index.ts';
import type { TokenProblem } from '../../src/domain/errors.ts';
import type { WalletError } from '../../src/domain/wallet.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { walletSendMachine, walletSendTags } from '../../src/machines/send/wallet-send.machine.ts';
import { TokenServiceError } from '../../src/services/token/types.ts';
import { describeModel, inState, type ModelStep } from '../support/model/index.ts';

// 'Send with wallet' (docs/product.md#send-with-wallet): the generated paths, each step checked for
// the toast it shows (with the words of the failure the path chose), what each request is asked
// and the outcome the send machine is left with.

type Snapshot = SnapshotFrom<typeof walletSendMachine>;

const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = `0x${'cd'.repeat(32)}` as const;
const SEPOLIA = 11155111;
const input = { from: WALLET, to: OTHER, amount: '1' };
// xstate/graph prints events with JSON.stringify, which refuses bigints; the machine never reads them.
const prepared = { from: WALLET, to: OTHER, raw: '1000000000000000000', amount: '1', decimals: 18 };
const call = { from: WALLET, to: TOKEN, data: '0xa9059cbb' };

const destructive = (title: string, description: string): ToastRequest => ({
  title,
  description,
  variant: 'destructive',
});

/** The chain's checks refused the transfer: 'Invalid Transfer' for what was entered, else 'Transfer Failed'. */
type Refusal = { error: unknown; title: string; words: string };
const entered = (problem: TokenProblem, words: string): Refusal => ({
  error: new TokenServiceError(problem),
  title: sendCopy.invalidTransfer,
  words,
});
const failed = (problem: TokenProblem, words: string): Refusal => ({
  error: new TokenServiceError(problem),
  title: sendCopy.transferFailed,
  words,
});
const refusals: Refusal[] = [
  entered({ code: 'insufficient-token-balance', figures: null }, tokenCopy.insufficientTokenBalance),
  entered(
    { code: 'insufficient-token-balance', figures: { balance: '0.5', needed: '1' } },
    tokenCopy.insufficientTokenBalanceOf('0.5', '1'),
  ),
  // The form checked the recipient's shape: a refused well-formed one has a mistyped checksum.
  entered({ code: 'invalid-recipient' }, sendCopy.badChecksum),
  entered({ code: 'zero-recipient' }, tokenCopy.zeroRecipient),
  entered({ code: 'invalid-receiver' }, tokenCopy.invalidReceiver),
  entered({ code: 'invalid-amount' }, tokenCopy.invalidAmount),
  entered({ code: 'zero-amount' }, tokenCopy.zeroAmount),
  entered({ code: 'too-many-decimals', decimals: 6 }, tokenCopy.tooManyDecimals(6)),
  entered({ code: 'amount-too-large' }, tokenCopy.amountTooLarge),
  failed({ code: 'insufficient-funds-for-gas' }, tokenCopy.insufficientFundsForGas),
  failed({ code: 'wrong-chain', actual: 1, expected: SEPOLIA }, tokenCopy.wrongChain(1, SEPOLIA)),
  failed({ code: 'chain-mismatch' }, tokenCopy.chainMismatch),
  failed({ code: 'refused', revertReason: null }, tokenCopy.refused),
  failed({ code: 'refused', revertReason: 'Pausable: paused' }, `${tokenCopy.refused} Pausable: paused`),
  failed({ code: 'rpc-unavailable', status: null }, tokenCopy.rpcUnavailable),
  failed({ code: 'rpc-unavailable', status: 503 }, tokenCopy.rpcUnavailableStatus(503)),
  failed({ code: 'no-token-contract' }, tokenCopy.noTokenContract),
  failed({ code: 'unknown' }, tokenCopy.unknown),
  failed({ code: 'key-mismatch' }, sendCopy.keyMismatch),
  // Not the token service's failure at all, with nothing usable said.
  { error: 'timeout', title: sendCopy.transferFailed, words: tokenCopy.unknown },
  { error: null, title: sendCopy.transferFailed, words: tokenCopy.unknown },
  { error: undefined, title: sendCopy.transferFailed, words: tokenCopy.unknown },
];

/**
 * The wallet's failures while it sends. Some prove nothing was broadcast (the form is kept as it
 * was); the others can come after the broadcast, so the toast says the transfer may have been sent.
 */
type WalletFailure = { error: unknown; words: string; maybeSent: boolean };
const walletFailures: WalletFailure[] = [
  { error: { code: 'wrong-chain', message: null }, words: sendCopy.walletWrongChain, maybeSent: false },
  { error: { code: 'not-installed', message: null }, words: walletCopy.notInstalled, maybeSent: false },
  { error: { code: 'pending', message: null }, words: walletCopy.switchPending, maybeSent: false },
  { error: { code: 'unknown', message: 'boom' }, words: 'boom', maybeSent: true },
  { error: { code: 'unknown', message: null }, words: sendCopy.walletSendFailed, maybeSent: true },
  { error: { code: 'invalid-answer', message: null }, words: walletCopy.invalidAnswer, maybeSent: true },
  { error: { code: 'unrecognized-chain', message: null }, words: sendCopy.walletWrongChain, maybeSent: true },
  { error: { code: 'no-account', message: null }, words: walletCopy.noAccount, maybeSent: true },
  // Not the wallet's own failure (a relay that timed out): its message.
  { error: new Error('relay timed out'), words: 'relay timed out', maybeSent: true },
  // Nothing usable said at all: a bare reason, or nothing.
  { error: 'disconnected', words: tokenCopy.unknown, maybeSent: true },
  { error: null, words: tokenCopy.unknown, maybeSent: true },
] satisfies { error: WalletError | Error | string | null; words: string; maybeSent: boolean }[];

/** No receipt in time, or none could be asked for: it may still be mined. */
type Unconfirmed = { error: unknown; words: string };
const unconfirmed: Unconfirmed[] = [
  {
    error: new TokenServiceError({ code: 'not-confirmed', seconds: 120 }, { hash: HASH }),
    words: tokenCopy.notConfirmed(120),
  },
  {
    error: new TokenServiceError(
      { code: 'sent-but-unchecked', failure: { code: 'rpc-unavailable', status: 502 } },
      { hash: HASH },
    ),
    words: `${tokenCopy.sentButUnchecked} ${tokenCopy.rpcUnavailableStatus(502)}`,
  },
  { error: new Error(''), words: tokenCopy.unknown },
];

const reverted = new TokenServiceError({ code: 'reverted' }, { hash: HASH });
const rejected: WalletError = { code: 'rejected', message: null };

type Step = ModelStep<typeof walletSendMachine>;

type Case = { refusal: Refusal; wallet: WalletFailure; unconfirmed: Unconfirmed };

/** Checks one step: `event` led to `to` with these toasts. */
function checkStep(event: AnyEventObject, to: Snapshot, { toasts, inputOf }: Step, chosen: Case) {
  const expected: ToastRequest[] = [];
  switch (event.type) {
    case 'xstate.done.actor.prepareWalletTransfer':
      // The wallet is asked to send the call the checks prepared, and the user to confirm it there.
      expect(to.hasTag(walletSendTags.waiting)).toBe(true);
      expect(inputOf('requestWalletTransfer')).toEqual(call);
      expected.push(sendCopy.walletPrompt);
      break;
    case 'xstate.error.actor.prepareWalletTransfer':
      expected.push(destructive(chosen.refusal.title, chosen.refusal.words));
      break;
    case 'xstate.done.actor.requestWalletTransfer':
      // Broadcast: the hash is shown, and the receipt is awaited for it.
      expect(to.hasTag(walletSendTags.pending)).toBe(true);
      expect(to.context.hash).toBe(HASH);
      expect(inputOf('confirmTransfer')).toEqual({ hash: HASH, serialized: null });
      expected.push({
        title: sendCopy.transferPending,
        description: sendCopy.transferPendingDescription(HASH),
      });
      break;
    case 'xstate.error.actor.requestWalletTransfer': {
      const error = event['error'];
      if (error === rejected) expected.push(sendCopy.walletRejected);
      else if (chosen.wallet.maybeSent)
        expected.push(
          destructive(sendCopy.mayHaveBeenSent, `${chosen.wallet.words} ${sendCopy.walletMaybeSent}`),
        );
      else expected.push(destructive(sendCopy.transferFailed, chosen.wallet.words));
      expect(to.output).toEqual({
        outcome: chosen.wallet.maybeSent && error !== rejected ? 'maybeSent' : 'stopped',
      });
      break;
    }
    case 'xstate.done.actor.confirmTransfer':
      expected.push({
        title: sendCopy.transferSubmitted,
        description: sendCopy.transferSubmittedDescription(HASH),
      });
      expect(to.output).toEqual({ outcome: 'confirmed', hash: HASH });
      break;
    case 'xstate.error.actor.confirmTransfer':
      if (event['error'] === reverted) {
        // Mined and failed: nothing moved, the form is kept.
        expected.push(
          destructive(sendCopy.transferFailed, `${tokenCopy.reverted} ${sendCopy.transactionHash(HASH)}`),
        );
        expect(to.output).toEqual({ outcome: 'stopped' });
      } else {
        expected.push(
          destructive(
            sendCopy.transferNotConfirmed,
            `${chosen.unconfirmed.words} ${sendCopy.checksInsteadOfResending}`,
          ),
        );
        expect(to.output).toEqual({ outcome: 'unconfirmed', hash: HASH });
      }
      break;
  }
  expect(toasts, `the toasts after ${event.type}`).toEqual(expected);
}

function everyStep(s: Snapshot, step: Step, chosen: Case) {
  const event = step.events.at(-1);
  if (!step.before) {
    // The chain's checks come first, for the transfer as the form gave it.
    expect(step.inputOf('prepareWalletTransfer')).toEqual(input);
    expect(step.toasts).toEqual([]);
  } else if (event) checkStep(event, s, step, chosen);
  // Only a broadcast transfer has a hash, and the form is told the outcome once it ends.
  expect(s.context.hash !== null).toBe(
    inState(s, 'pending') || (inState(s, 'done') && s.context.hash !== null),
  );
  if (!inState(s, 'done')) expect(s.context.outcome).toEqual({ outcome: 'stopped' });
}

// One model per answer the path can get from each request; the first also holds the rejection
// and the revert, which have toasts of their own.
const cases: Case[] = refusals.map((refusal, index) => ({
  refusal,
  wallet: walletFailures[index % walletFailures.length] as WalletFailure,
  unconfirmed: unconfirmed[index % unconfirmed.length] as Unconfirmed,
}));

for (const [index, chosen] of cases.entries()) {
  describeModel({
    name: 'wallet-send',
    machine: walletSendMachine,
    input,
    events: {
      'xstate.done.actor.prepareWalletTransfer': [
        { type: 'xstate.done.actor.prepareWalletTransfer', output: { prepared, call } },
      ],
      'xstate.error.actor.prepareWalletTransfer': [
        { type: 'xstate.error.actor.prepareWalletTransfer', error: chosen.refusal.error },
      ],
      'xstate.done.actor.requestWalletTransfer': [
        { type: 'xstate.done.actor.requestWalletTransfer', output: HASH },
      ],
      'xstate.error.actor.requestWalletTransfer': [
        ...(index === 0 ? [{ type: 'xstate.error.actor.requestWalletTransfer', error: rejected }] : []),
        { type: 'xstate.error.actor.requestWalletTransfer', error: chosen.wallet.error },
      ],
      'xstate.done.actor.confirmTransfer': [
        {
          type: 'xstate.done.actor.confirmTransfer',
          output: { hash: HASH, from: WALLET, to: OTHER, raw: '1', blockNumber: '3' },
        },
      ],
      'xstate.error.actor.confirmTransfer': [
        ...(index === 0 ? [{ type: 'xstate.error.actor.confirmTransfer', error: reverted }] : []),
        { type: 'xstate.error.actor.confirmTransfer', error: chosen.unconfirmed.error },
      ],
    },
    states: { '*': (s, step) => everyStep(s, step, chosen) },
  });
}
