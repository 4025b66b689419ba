import { describe, expect } from 'vitest';
import type { EventObject } from 'xstate';
import { sendCopy, tokenCopy } from '../../src/copy/index.ts';
import type { AuthUser } from '../../src/domain/auth.ts';
import {
  sendBusyTag,
  sendMachine,
  type SendContext,
  type SendFact,
} from '../../src/machines/send/send.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import type { Hex } from '../../src/domain/token.ts';
import {
  TokenServiceError,
  type PreparedTransfer,
  type SignedTransfer,
  type TransferResult,
} from '../../src/services/token/types.ts';
import { errorOf, outputOf, reversed } from '../support/model/recorders.ts';
import { describeModel, type ModelStep, type Recorded } from '../support/model/index.ts';

const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HASH = `0x${'cd'.repeat(32)}` as const;
const LATER = `0x${'ef'.repeat(32)}` as const;
const user: AuthUser = {
  id: 'user-1',
  email: 'ada@example.test',
  emailConfirmedAt: null,
  web3Address: null,
  metadata: {},
};
// xstate/graph prints every event with JSON.stringify, which refuses bigints. The machine never
// reads the amounts, so the model's actor outputs carry them as text.
const jsonSafe = <T>(value: T): T =>
  JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))) as T;
const prepared = jsonSafe<PreparedTransfer>({
  from: WALLET,
  to: OTHER,
  raw: 10n ** 18n,
  amount: '1',
  decimals: 18,
});
const signed: SignedTransfer = { serialized: '0x02f8b1827a69', hash: HASH };
const result = jsonSafe<TransferResult>({
  hash: HASH,
  from: WALLET,
  to: OTHER,
  raw: 10n ** 18n,
  blockNumber: 3n,
});

type Snapshot = ReturnType<typeof sendMachine.transition>;
type Submit = EventObject & {
  recipient: string;
  amount: string;
  privateKey?: string;
  balance?: string | null;
};

const destructive = (toast: { title: string; description: string }): ToastRequest => ({
  ...toast,
  variant: 'destructive',
});

const submit = (fields: Partial<{ recipient: string; amount: string; privateKey: string }> = {}) => ({
  type: 'send.submit',
  recipient: OTHER,
  amount: '1',
  privateKey: KEY,
  ...fields,
});
const withWallet = (fields: Partial<{ amount: string; balance: string | null }> = {}) => ({
  type: 'send.submitWithWallet',
  recipient: OTHER,
  amount: '1',
  balance: '5',
  ...fields,
});

/** The fields the form refuses before anything is signed (docs/product.md#send-form-order), with the words. */
const fieldRefusals: Record<string, string> = {
  '0.0000000000000000001': sendCopy.belowMinimum(sendCopy.minimumAmount),
  // The wallet path also checks the balance the page shows ('5').
  '6': tokenCopy.insufficientTokenBalanceOf('5', '6'),
};

/** The same form as the transfer that may have been sent: same wallet, recipient and amount however written. */
function repeats(context: SendContext, submitted: Submit): boolean {
  const { unresolved } = context;
  return (
    unresolved !== null &&
    unresolved.from.toLowerCase() === (context.walletAddress ?? '').toLowerCase() &&
    unresolved.recipient.toLowerCase() === submitted.recipient.trim().toLowerCase() &&
    Number(unresolved.amount) === Number(submitted.amount)
  );
}

/** What the form says to a submit, in the order of docs/product.md#send-form-order; null when it goes on. */
function refusalOf(context: SendContext, submitted: Submit): ToastRequest | null {
  if (context.walletAddress === null) return destructive(sendCopy.walletNotConnected);
  if (submitted.recipient.trim() === '' || submitted.amount.trim() === '')
    return destructive(sendCopy.missingInformation);
  if (repeats(context, submitted))
    return context.unresolved?.hash === null ? destructive(sendCopy.walletMaybeSentAgain) : null;
  if (submitted.type === 'send.submit' && submitted.privateKey?.trim() === '')
    return destructive(sendCopy.privateKeyRequired);
  if (!context.tokenConfigured) return destructive(sendCopy.configurationError);
  const words = fieldRefusals[submitted.amount];
  return words === undefined ? null : destructive({ title: sendCopy.invalidTransfer, description: words });
}

const lostAnswer = new TokenServiceError(
  { code: 'sent-but-unchecked', failure: { code: 'rpc-unavailable', status: null } },
  { hash: HASH },
);
/** No receipt in time: the same form then checks the hash. */
const notConfirmed = new TokenServiceError({ code: 'not-confirmed', seconds: 120 }, { hash: HASH });
const notConfirmedToast = destructive({
  title: sendCopy.transferNotConfirmed,
  description: `${tokenCopy.notConfirmed(120)} ${sendCopy.checksInsteadOfResending}`,
});
const mayHaveBeenSent = destructive({
  title: sendCopy.mayHaveBeenSent,
  description: `${sendCopy.mayHaveBeenSentDescription(HASH)} ${sendCopy.checksInsteadOfResending}`,
});

/** The failures the paths give each step, and the toast each must end with. */
const failures = {
  prepareTransfer: [
    {
      error: new TokenServiceError({ code: 'key-mismatch' }),
      toast: destructive({
        title: sendCopy.invalidTransfer,
        description: `${sendCopy.keyMismatch} ${sendCopy.keyCleared}`,
      }),
    },
    // A failure that quotes the key never shows it.
    {
      also: true,
      error: new Error(`cannot parse ${KEY.slice(2).toUpperCase()}`),
      toast: destructive({
        title: sendCopy.transferFailed,
        description: `cannot parse [redacted] ${sendCopy.keyCleared}`,
      }),
    },
  ],
  signTransfer: [
    {
      error: new TokenServiceError({ code: 'unknown' }),
      toast: destructive({
        title: sendCopy.transferFailed,
        description: `${tokenCopy.unknown} ${sendCopy.keyCleared}`,
      }),
    },
    // Whatever a step throws, the user reads words, never nothing.
    {
      also: true,
      error: 'boom',
      toast: destructive({
        title: sendCopy.transferFailed,
        description: `${tokenCopy.unknown} ${sendCopy.keyCleared}`,
      }),
    },
  ],
  broadcastTransfer: [
    {
      error: new TokenServiceError({ code: 'insufficient-funds-for-gas' }),
      toast: destructive({
        title: sendCopy.transferFailed,
        description: `${tokenCopy.insufficientFundsForGas} ${sendCopy.keyCleared}`,
      }),
    },
    { error: lostAnswer, toast: mayHaveBeenSent },
    // Mined and failed: nothing moved, so nothing is left to check, and the key was long gone.
    {
      also: true,
      error: new TokenServiceError({ code: 'reverted' }, { hash: HASH }),
      toast: destructive({ title: sendCopy.transferFailed, description: tokenCopy.reverted }),
    },
    { also: true, error: notConfirmed, toast: notConfirmedToast },
  ],
  confirmTransfer: [
    { error: lostAnswer, toast: mayHaveBeenSent },
    {
      error: new TokenServiceError({ code: 'reverted' }, { hash: HASH }),
      toast: destructive({ title: sendCopy.transferFailed, description: tokenCopy.reverted }),
    },
    {
      error: new TokenServiceError({ code: 'unknown' }, { hash: HASH, replaced: true }),
      toast: destructive({ title: sendCopy.transferFailed, description: sendCopy.replacedOnChain(HASH) }),
    },
    { also: true, error: notConfirmed, toast: notConfirmedToast },
    {
      also: true,
      error: 'boom',
      toast: destructive({
        title: sendCopy.transferFailed,
        description: `${tokenCopy.unknown} ${sendCopy.keyCleared}`,
      }),
    },
    // Replaced, by whatever says so.
    {
      also: true,
      error: { replaced: true, hash: HASH },
      toast: destructive({ title: sendCopy.transferFailed, description: sendCopy.replacedOnChain(HASH) }),
    },
  ],
};
type Step = keyof typeof failures;
const failureOf = (event: EventObject) =>
  failures[event.type.replace('xstate.error.actor.', '') as Step]?.find((f) => f.error === errorOf(event));
/**
 * The failures of a step for one model: the paths meet one payload per branch, so the failures
 * marked `also` (a second one of a branch) get a model of their own.
 */
function errorEvents(step: Step, also = false) {
  const chosen = failures[step].filter((failure) => ('also' in failure && failure.also) === also);
  return (chosen.length > 0 ? chosen : failures[step]).map(({ error }) => ({
    type: `xstate.error.actor.${step}`,
    error,
  }));
}

type SendStep = ModelStep<typeof sendMachine>;
/** What the send machine tells its history outbox. */
type OutboxMessage = { type: string; hash?: string | null };

/** What a step did: its toasts, the facts the root heard, and what the history outbox was told. */
const recordsOf = ({ shown, told, sentTo }: SendStep) => ({
  shown,
  reported: told as Recorded<SendFact>[],
  toOutbox: sentTo('historyOutbox') as Recorded<OutboxMessage>[],
});

/** The outbox and the wallet's send are modelled on their own: here they end as the paths say. */
const promises = ['walletSend', 'historyOutbox'];

const sameAccount = (a: string | null, b: string | null) =>
  (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

/** What every step must leave true, and what the step's toasts, facts and outbox messages must be. */
function everyStep(snapshot: Snapshot, step: SendStep): void {
  const { before, events: stepEvents } = step;
  const { shown, reported, toOutbox } = recordsOf(step);
  const { context } = snapshot;
  // The key is held only until it has signed, and never as text.
  if (!snapshot.matches({ sending: 'unsigned' })) expect(context.privateKey).toBeNull();
  expect(JSON.stringify(context)).not.toContain(KEY.slice(2));
  expect(snapshot.hasTag(sendBusyTag)).toBe(snapshot.matches('sending'));
  // The form starts empty, knowing no wallet and no user yet.
  if (!before) {
    expect(context).toMatchObject({
      walletAddress: null,
      chainId: null,
      userId: null,
      sentBy: null,
      recipient: '',
      amount: '',
      privateKey: null,
      prepared: null,
      signed: null,
      lastHash: null,
      unresolved: null,
    });
    return;
  }
  const previous = before.context;

  for (const { params, event } of shown) {
    if (event.type === 'send.submit' || event.type === 'send.submitWithWallet') {
      // A refused submit says why, and the form keeps what was typed.
      expect(params).toEqual(refusalOf(previous, event as Submit));
      expect(context).toMatchObject({
        recipient: (event as Submit).recipient,
        amount: (event as Submit).amount,
      });
    } else if (event.type === 'wallet.changed') {
      expect(params).toEqual({
        title: sendCopy.transferCancelled,
        description: sendCopy.cancelledWalletChanged,
      });
    } else if (event.type === 'session.changed') {
      expect(params).toEqual({
        title: sendCopy.transferCancelled,
        description: sendCopy.cancelledSessionChanged,
      });
    } else if (event.type.startsWith('xstate.done.actor.')) {
      expect(params).toEqual({
        title: sendCopy.transferSubmitted,
        description: sendCopy.transferSubmittedDescription(HASH),
      });
    } else {
      expect(params).toEqual(failureOf(event)?.toast);
      // A failure keeps the form for another try.
      expect(context).toMatchObject({ recipient: previous.recipient, amount: previous.amount });
    }
  }

  // A transfer that went out is reported once it has left the outbox (a visitor's at once): each
  // hash the outbox settles, in its order.
  const settledBy = reported.find(({ event }) => event.type === 'historyOutbox.settled')?.event;
  expect(reported.map(({ params }) => params)).toEqual(
    settledBy
      ? (settledBy as EventObject & { hashes: string[] }).hashes.map((hash) => ({
          type: 'send.transferSubmitted',
          hash,
        }))
      : reported.map(() => ({ type: 'send.transferSubmitted', hash: HASH })),
  );
  for (const { params, event } of toOutbox) {
    if (params.type === 'historyOutbox.add') {
      // Only a signed-in user's confirmed transfer is queued, under the user who sent it.
      expect(params.hash).toBe(HASH);
      expect(context.userId).not.toBeNull();
      expect(previous.sentBy ?? context.userId).toBe(context.userId);
    } else {
      // Signing out or switching accounts abandons the rows waiting.
      expect(event.type).toBe('session.changed');
      expect(previous.userId).not.toBeNull();
      expect(context.userId).not.toBe(previous.userId);
    }
  }
  for (const event of stepEvents) afterEvent(event, before, snapshot, step);
}

/** What a step must have done with the event it took (docs/product.md#send-form-order, #send-steps). */
function afterEvent(event: EventObject, previous: Snapshot, snapshot: Snapshot, step: SendStep): void {
  const { shown, reported, toOutbox } = recordsOf(step);
  const { context } = snapshot;
  switch (event.type) {
    case 'send.submit':
    case 'send.submitWithWallet': {
      const submitted = event as Submit;
      if (previous.matches('sending')) {
        // Busy: a press changes nothing.
        expect(snapshot.value).toEqual(previous.value);
        expect(context).toEqual(previous.context);
        break;
      }
      // The form keeps what was typed, whatever comes of it.
      expect(context).toMatchObject({ recipient: submitted.recipient, amount: submitted.amount });
      const refusal = refusalOf(previous.context, submitted);
      if (refusal !== null) {
        expect(snapshot.value).toBe('editing');
        expect(shown.map((toast) => toast.params)).toEqual([refusal]);
      } else if (repeats(previous.context, submitted)) {
        // The same form again: that transaction is checked, nothing is signed.
        expect(snapshot.matches({ sending: 'checking' })).toBe(true);
      } else {
        expect(shown).toEqual([]);
        expect(
          snapshot.matches(
            event.type === 'send.submit' ? { sending: { unsigned: 'preparing' } } : { sending: 'withWallet' },
          ),
        ).toBe(true);
      }
      // Warned once: the next press of that form sends it.
      if (refusal?.title === sendCopy.walletMaybeSentAgain.title) expect(context.unresolved).toBeNull();
      break;
    }
    case 'wallet.changed': {
      const { address, chainId } = event as EventObject & { address: string | null; chainId: number | null };
      // The machine always knows the connected wallet.
      expect(context).toMatchObject({ walletAddress: address, chainId });
      const moved =
        !sameAccount(address, previous.context.walletAddress) || chainId !== previous.context.chainId;
      // Nothing left the machine yet: a send for another wallet or network is stopped, not finished.
      const stops = moved && previous.matches({ sending: 'unsigned' });
      expect(snapshot.value === 'editing' && !previous.matches('editing')).toBe(stops);
      expect(shown).toHaveLength(stops ? 1 : 0);
      break;
    }
    case 'session.changed': {
      const { user: next } = event as EventObject & { user: AuthUser | null };
      expect(context.userId).toBe(next?.id ?? null);
      // Signing out or switching accounts abandons what waits for the history, and stops a send
      // not yet signed; signing in as a visitor does neither.
      const lost = previous.context.userId !== null && next?.id !== previous.context.userId;
      expect(toOutbox.map(({ params }) => params.type)).toEqual(lost ? ['historyOutbox.abandon'] : []);
      const stops = lost && previous.matches({ sending: 'unsigned' });
      expect(snapshot.value === 'editing' && !previous.matches('editing')).toBe(stops);
      expect(shown).toHaveLength(stops ? 1 : 0);
      break;
    }
    case 'historyOutbox.settled':
      // Each transfer that has left the outbox is reported, in its order.
      expect(reported.map(({ params }) => params)).toEqual(
        (event as EventObject & { hashes: string[] }).hashes.map((hash) => ({
          type: 'send.transferSubmitted',
          hash,
        })),
      );
      break;
    case 'xstate.done.actor.walletSend': {
      // The wallet's outcome: confirmed is submitted; no receipt keeps its hash to check; a failure
      // that may have sent it keeps the form to warn about; stopped leaves things as they were.
      const output = outputOf(event) as { outcome: string; hash?: Hex };
      const sent = {
        from: previous.context.walletAddress,
        recipient: previous.context.recipient,
        amount: previous.context.amount,
      };
      if (output.outcome === 'confirmed')
        expect(context).toMatchObject({ recipient: '', lastHash: output.hash });
      else
        expect(context).toMatchObject({
          recipient: previous.context.recipient,
          amount: previous.context.amount,
        });
      if (output.outcome === 'unconfirmed')
        expect(context.unresolved).toEqual({ hash: output.hash, serialized: null, ...sent });
      if (output.outcome === 'maybeSent')
        expect(context.unresolved).toEqual({ hash: null, serialized: null, ...sent });
      if (output.outcome === 'stopped') expect(context.unresolved).toEqual(previous.context.unresolved);
      break;
    }
    case 'xstate.error.actor.broadcastTransfer': {
      // An answer lost after the hash was known: this form now checks that transaction.
      const unresolved =
        failureOf(event)?.toast.title === sendCopy.transferFailed
          ? previous.context.unresolved
          : {
              hash: HASH,
              serialized: signed.serialized,
              from: previous.context.walletAddress,
              recipient: previous.context.recipient,
              amount: previous.context.amount,
            };
      expect(context.unresolved).toEqual(unresolved);
      break;
    }
    case 'xstate.error.actor.confirmTransfer': {
      // Still unknown: it stays to be checked again; replaced, reverted or refused: a new send may go.
      const stillUnknown = failureOf(event)?.toast.description?.endsWith(sendCopy.checksInsteadOfResending);
      expect(context.unresolved).toEqual(stillUnknown ? previous.context.unresolved : null);
      break;
    }
    default:
  }
}

const states = {
  '*': everyStep,
  editing: (snapshot: Snapshot, step: SendStep) => {
    const { before } = step;
    const { reported, toOutbox } = recordsOf(step);
    const { context } = snapshot;
    expect(context).toMatchObject({ privateKey: null, prepared: null, signed: null });
    if (!before?.matches('sending')) return;
    // Every send began with a recipient: an empty one now means the transfer went out.
    if (context.recipient === '') {
      // A success clears the form, so a second press cannot repeat it, and nothing is left to check.
      expect(context).toMatchObject({ amount: '', lastHash: HASH, unresolved: null });
      // A signed-in user's transfer is queued for its row (unless another account sent it); a
      // visitor's is reported at once.
      const queues = context.userId !== null && (context.sentBy ?? context.userId) === context.userId;
      expect(toOutbox.map(({ params }) => params)).toEqual(
        queues ? [{ type: 'historyOutbox.add', hash: HASH }] : [],
      );
      expect(reported).toHaveLength(queues ? 0 : 1);
    } else {
      // Stopped or failed: nothing went out that could be reported, and the form is kept.
      expect(reported).toEqual([]);
      expect(context).toMatchObject({ recipient: before.context.recipient, amount: before.context.amount });
    }
  },
  sending: (snapshot: Snapshot, { before }: SendStep) => {
    expect(snapshot.context.walletAddress).not.toBeNull();
    // Who sent it is who was signed in when it began.
    if (before?.matches('editing')) expect(snapshot.context.sentBy).toBe(before.context.userId);
  },
  'sending.unsigned': (snapshot: Snapshot, { before }: SendStep) => {
    expect(snapshot.context.privateKey?.reveal()).toBe(KEY);
    expect(String(snapshot.context.privateKey)).toBe('[private key]');
    // Still the wallet and account it began with (the same account in another letter case is no change).
    if (before?.matches('sending')) {
      expect(sameAccount(snapshot.context.walletAddress, before.context.walletAddress)).toBe(true);
      expect(snapshot.context.chainId).toBe(before.context.chainId);
    }
  },
  // Prepared with the form and the connected wallet, the key handed over sealed.
  'sending.unsigned.preparing': (snapshot: Snapshot, { inputOf }: SendStep) => {
    const input = inputOf('prepareTransfer') as { privateKey: { reveal: () => string } };
    expect(input).toEqual({
      privateKey: expect.anything(),
      to: snapshot.context.recipient,
      amount: snapshot.context.amount,
      expectedFrom: snapshot.context.walletAddress,
    });
    expect(input.privateKey.reveal()).toBe(KEY);
    expect(snapshot.context.recipient).toBe(OTHER);
  },
  // Signed as prepared; a transfer that may have gone out from this wallet lends it its nonce.
  'sending.unsigned.signing': (snapshot: Snapshot, { inputOf }: SendStep) => {
    const { context } = snapshot;
    expect(context.prepared).toEqual(prepared);
    const input = inputOf('signTransfer') as { privateKey: { reveal: () => string } };
    const replaces =
      context.unresolved !== null && sameAccount(context.unresolved.from, context.walletAddress)
        ? context.unresolved.serialized
        : null;
    expect(input).toEqual({
      privateKey: expect.anything(),
      prepared: replaces === null ? prepared : { ...prepared, replaces },
    });
    expect(input.privateKey.reveal()).toBe(KEY);
  },
  'sending.broadcasting': (snapshot: Snapshot, { inputOf }: SendStep) => {
    expect(snapshot.context.signed).toEqual(signed);
    expect(inputOf('broadcastTransfer')).toEqual({ serialized: signed.serialized });
  },
  // Nothing is signed again: the check is of the transaction that may have gone out.
  'sending.checking': (snapshot: Snapshot, { inputOf }: SendStep) => {
    const { unresolved } = snapshot.context;
    expect(unresolved?.hash).toBe(HASH);
    expect(snapshot.context.signed).toBeNull();
    expect(inputOf('confirmTransfer')).toEqual(
      unresolved?.serialized === null
        ? { hash: HASH, serialized: null }
        : { hash: HASH, serialized: unresolved?.serialized, from: unresolved?.from },
    );
  },
  'sending.withWallet': (snapshot: Snapshot, { inputOf }: SendStep) => {
    expect(snapshot.context.privateKey).toBeNull();
    expect(inputOf('walletSend')).toEqual({
      from: snapshot.context.walletAddress,
      to: OTHER,
      amount: snapshot.context.amount,
    });
  },
};

/** With a token contract: the whole send, its failures, and the cancellations. */
function withContract(also: boolean) {
  // The second model also takes every list in reverse, to meet each transition's other payloads.
  const payloads = {
    'send.submit': [
      submit(),
      submit({ recipient: '' }),
      submit({ privateKey: '' }),
      submit({ amount: '0.0000000000000000001' }),
    ],
    'send.submitWithWallet': [withWallet(), withWallet({ amount: '' }), withWallet({ amount: '6' })],
    'wallet.changed': [
      { type: 'wallet.changed', address: WALLET, chainId: 31337 },
      { type: 'wallet.changed', address: OTHER, chainId: 31337 },
    ],
    'session.changed': [
      { type: 'session.changed', user },
      { type: 'session.changed', user: null },
    ],
    'xstate.done.actor.prepareTransfer': [{ type: 'xstate.done.actor.prepareTransfer', output: prepared }],
    'xstate.error.actor.prepareTransfer': errorEvents('prepareTransfer', also),
    'xstate.done.actor.signTransfer': [{ type: 'xstate.done.actor.signTransfer', output: signed }],
    'xstate.error.actor.signTransfer': errorEvents('signTransfer', also),
    'xstate.done.actor.broadcastTransfer': [{ type: 'xstate.done.actor.broadcastTransfer', output: result }],
    'xstate.error.actor.broadcastTransfer': errorEvents('broadcastTransfer', also),
    'xstate.done.actor.confirmTransfer': [{ type: 'xstate.done.actor.confirmTransfer', output: result }],
    'xstate.error.actor.confirmTransfer': errorEvents('confirmTransfer', also),
    'xstate.done.actor.walletSend': [
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'confirmed', hash: HASH } },
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'unconfirmed', hash: HASH } },
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'maybeSent' } },
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'stopped' } },
    ],
    // The outbox's word that transfers have left it, saved or not (its own model covers how).
    'historyOutbox.settled': [{ type: 'historyOutbox.settled', hashes: [HASH, LATER] }],
  };
  describeModel({
    name: 'send',
    machine: sendMachine,
    input: { tokenConfigured: true },
    promises,
    events: also ? reversed(payloads) : payloads,
    states,
  });
}

withContract(false);
// The second failure of a branch: words for what is no error, a timeout, a revert after signing.
// (A describe of its own, so that its paths are not named as the first model's.)
describe('the second failure of each branch', () => withContract(true));

// Without one: the last check of docs/product.md#send-form-order, the only way a submit ends.
describeModel({
  name: 'send',
  machine: sendMachine,
  input: { tokenConfigured: false },
  promises,
  events: {
    'send.submit': [submit()],
    'send.submitWithWallet': [withWallet()],
    'wallet.changed': [{ type: 'wallet.changed', address: WALLET, chainId: 31337 }],
    'session.changed': [{ type: 'session.changed', user: null }],
    'historyOutbox.settled': [{ type: 'historyOutbox.settled', hashes: [HASH] }],
  },
  states: {
    ...states,
    sending: () => expect.fail('a send began without a token contract'),
  },
});
