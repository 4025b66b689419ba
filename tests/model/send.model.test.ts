import { expect } from 'vitest';
import { sendCopy } from '../../src/copy/index.ts';
import type { AuthUser } from '../../src/domain/auth.ts';
import { sendBusyTag, sendMachine, type SendFact } from '../../src/machines/send.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import {
  TokenServiceError,
  type PreparedTransfer,
  type SignedTransfer,
  type TransferResult,
} from '../../src/services/token/types.ts';
import { describeModel } from './support/index.ts';

const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HASH = `0x${'cd'.repeat(32)}` as const;
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

const toastTitles = new Set<string>([
  sendCopy.walletNotConnected.title,
  sendCopy.missingInformation.title,
  sendCopy.privateKeyRequired.title,
  sendCopy.configurationError.title,
  sendCopy.invalidTransfer,
  sendCopy.transferFailed,
  sendCopy.transferSubmitted,
  sendCopy.transferCancelled,
  sendCopy.mayHaveBeenSent,
  sendCopy.transferNotConfirmed,
]);

let toasts: ToastRequest[] = [];
let reports: SendFact[] = [];
/** The hashes handed to the history outbox, and how often its rows were abandoned. */
let queued: (string | null)[] = [];
let abandoned = 0;

const provide = {
  actions: {
    showToast: (_: unknown, params: ToastRequest) => void toasts.push(params),
    report: (_: unknown, params: SendFact) => void reports.push(params),
    queueHistory: ({ context }: { context: { lastHash: string | null } }) =>
      void queued.push(context.lastHash),
    abandonHistory: () => void (abandoned += 1),
  },
};

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
const lostAnswer = new TokenServiceError(
  { code: 'sent-but-unchecked', failure: { code: 'rpc-unavailable', status: null } },
  { hash: HASH },
);

const states = {
  '*': (snapshot: ReturnType<typeof sendMachine.transition>) => {
    const { context } = snapshot;
    // The key is held only until it has signed, and never as text.
    if (!snapshot.matches({ sending: 'unsigned' })) expect(context.privateKey).toBeNull();
    expect(JSON.stringify(context, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      KEY.slice(2),
    );
    for (const toast of toasts) expect(toastTitles).toContain(toast.title);
    for (const event of reports) expect(event).toEqual({ type: 'send.transferSubmitted', hash: HASH });
    // Only a signed-in user's confirmed transfer goes to the outbox; it is abandoned when they leave.
    for (const hash of queued) expect(hash).toBe(HASH);
    if (queued.length > 0) expect(context.userId).toBe(user.id);
    if (abandoned > 0) expect(context.userId).toBeNull();
    toasts = [];
    reports = [];
    queued = [];
    abandoned = 0;
  },
  editing: (snapshot: ReturnType<typeof sendMachine.transition>) => {
    expect(snapshot.hasTag(sendBusyTag)).toBe(false);
    expect(snapshot.context).toMatchObject({ privateKey: null, prepared: null, signed: null });
  },
  sending: (snapshot: ReturnType<typeof sendMachine.transition>) => {
    expect(snapshot.hasTag(sendBusyTag)).toBe(true);
    expect(snapshot.context.walletAddress).not.toBeNull();
  },
  'sending.unsigned': (snapshot: ReturnType<typeof sendMachine.transition>) =>
    expect(snapshot.context.privateKey?.reveal()).toBe(KEY),
  'sending.unsigned.signing': (snapshot: ReturnType<typeof sendMachine.transition>) =>
    expect(snapshot.context.prepared).toEqual(prepared),
  'sending.broadcasting': (snapshot: ReturnType<typeof sendMachine.transition>) =>
    expect(snapshot.context.signed).toEqual(signed),
  'sending.unsigned.preparing': (snapshot: ReturnType<typeof sendMachine.transition>) =>
    // An unresolved transfer is never in the way of a new one but by its form; no hash, never checked.
    expect(snapshot.context.unresolved?.hash ?? HASH).toBe(HASH),
  'sending.checking': (snapshot: ReturnType<typeof sendMachine.transition>) => {
    // Nothing is signed again: the check is of the transaction that may have gone out.
    expect(snapshot.context.unresolved?.hash).toBe(HASH);
    expect(snapshot.context.signed).toBeNull();
  },
  'sending.withWallet': (snapshot: ReturnType<typeof sendMachine.transition>) =>
    expect(snapshot.context.privateKey).toBeNull(),
};

// With a token contract: the whole send, its failures, and the cancellations.
describeModel({
  name: 'send',
  machine: sendMachine,
  input: { tokenConfigured: true },
  deferredActors: [
    'prepareTransfer',
    'signTransfer',
    'broadcastTransfer',
    'confirmTransfer',
    'walletSend',
    'historyOutbox',
  ],
  provide,
  events: {
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
    'xstate.error.actor.prepareTransfer': [
      { type: 'xstate.error.actor.prepareTransfer', error: new TokenServiceError({ code: 'key-mismatch' }) },
    ],
    'xstate.done.actor.signTransfer': [{ type: 'xstate.done.actor.signTransfer', output: signed }],
    'xstate.error.actor.signTransfer': [
      { type: 'xstate.error.actor.signTransfer', error: new TokenServiceError({ code: 'unknown' }) },
    ],
    'xstate.done.actor.broadcastTransfer': [{ type: 'xstate.done.actor.broadcastTransfer', output: result }],
    'xstate.error.actor.broadcastTransfer': [
      {
        type: 'xstate.error.actor.broadcastTransfer',
        error: new TokenServiceError({ code: 'insufficient-funds-for-gas' }),
      },
      { type: 'xstate.error.actor.broadcastTransfer', error: lostAnswer },
    ],
    'xstate.done.actor.confirmTransfer': [{ type: 'xstate.done.actor.confirmTransfer', output: result }],
    'xstate.error.actor.confirmTransfer': [
      { type: 'xstate.error.actor.confirmTransfer', error: lostAnswer },
      {
        type: 'xstate.error.actor.confirmTransfer',
        error: new TokenServiceError({ code: 'reverted' }, { hash: HASH }),
      },
      {
        type: 'xstate.error.actor.confirmTransfer',
        error: new TokenServiceError({ code: 'unknown' }, { hash: HASH, replaced: true }),
      },
    ],
    'xstate.done.actor.walletSend': [
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'confirmed', hash: HASH } },
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'unconfirmed', hash: HASH } },
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'maybeSent' } },
      { type: 'xstate.done.actor.walletSend', output: { outcome: 'stopped' } },
    ],
    // The outbox's word that a transfer has left it, saved or not (its own model covers how).
    'historyOutbox.settled': [{ type: 'historyOutbox.settled', hashes: [HASH] }],
  },
  states,
});

// Without one: the last check of docs/product.md#send-form-order, the only way a submit ends.
describeModel({
  name: 'send',
  machine: sendMachine,
  input: { tokenConfigured: false },
  provide,
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
