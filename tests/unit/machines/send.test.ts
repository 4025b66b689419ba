import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import type {
  ConfirmTransferRequest,
  WalletTransfer,
  WalletTransferCall,
} from '../../../src/domain/token.ts';
import { sendCopy, tokenCopy } from '../../../src/copy/index.ts';
import {
  sendBusyTag,
  sendMachine,
  type PrepareTransferInput,
  type RecordTransactionInput,
  type SealedKey,
  type SendFact,
  type SignTransferInput,
} from '../../../src/machines/send/send.machine.ts';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import { sealKey } from '../../../src/machines/send/send-key.ts';
import { sameAmount } from '../../../src/machines/send/send-unresolved.ts';
import {
  historyOutboxMachine,
  historyOutboxSavingTag,
} from '../../../src/machines/send/history-outbox.machine.ts';
import type { AuthUser } from '../../../src/domain/auth.ts';
import type { TokenProblem } from '../../../src/domain/errors.ts';
import {
  TokenServiceError,
  type BroadcastTransferRequest,
  type PreparedTransfer,
  type SignedTransfer,
  type TransferResult,
} from '../../../src/services/token/types.ts';
import { BackendError } from '../../../src/services/supabase/types.ts';
import { settle } from '../../support/deferred-actor.ts';
import { authUser } from '../../support/fixtures.ts';
import { machineHarness } from '../../support/machines/harness.ts';
import { minedAs, prepared, RECIPIENT, WALLET } from '../../support/transfer-fixtures.ts';

// A key as a person pastes it; its digits are what must never leak.
const KEY = '0xAC0974BEC39A17E36BA4A6B4D238FF944BACB478CBED5EFCAE784D7BF4F2FF80';
const KEY_DIGITS = KEY.slice(2).toLowerCase();
const HASH = `0x${'ab'.repeat(32)}` as const;
const result = minedAs(HASH, 7n);
const user = authUser('user-1', 'ada@example.test');
const signed: SignedTransfer = { serialized: '0x02f8b1827a69', hash: HASH };
const submit = (fields: Partial<{ recipient: string; amount: string; privateKey: string }> = {}) => ({
  type: 'send.submit' as const,
  recipient: RECIPIENT,
  amount: '12.5',
  privateKey: KEY,
  ...fields,
});

function setup({ tokenConfigured = true }: { tokenConfigured?: boolean } = {}) {
  const h = machineHarness(sendMachine, { input: { tokenConfigured } });
  const { actor, clock, toasts, inspected, snapshot, answer } = h;
  const reports = h.facts as SendFact[];
  const prepares = h.calls<PreparedTransfer, PrepareTransferInput>('prepareTransfer');
  const signs = h.calls<SignedTransfer, SignTransferInput>('signTransfer');
  const broadcasts = h.calls<TransferResult, BroadcastTransferRequest>('broadcastTransfer');
  const records = h.calls<unknown, RecordTransactionInput>('historyOutbox.recordTransaction');
  const confirms = h.calls<TransferResult, ConfirmTransferRequest>('confirmTransfer');
  const walletPrepares = h.calls<WalletTransfer, { from: string; to: string; amount: string }>(
    'walletSend.prepareWalletTransfer',
  );
  const walletRequests = h.calls<`0x${string}`, WalletTransferCall>('walletSend.requestWalletTransfer');
  const walletConfirms = h.calls<TransferResult, ConfirmTransferRequest>('walletSend.confirmTransfer');
  /** What the form reads: whether a history row is waiting to be saved. */
  const savingHistory = () =>
    (snapshot().children.historyOutbox as ActorRefFrom<typeof historyOutboxMachine> | undefined)
      ?.getSnapshot()
      .hasTag(historyOutboxSavingTag) ?? false;
  return {
    actor,
    clock,
    snapshot,
    answer,
    savingHistory,
    toasts,
    reports,
    inspected,
    prepares,
    signs,
    broadcasts,
    records,
    confirms,
    walletPrepares,
    walletRequests,
    walletConfirms,
  };
}

type Harness = ReturnType<typeof setup>;
const connect = ({ actor }: Harness, address: string = WALLET, chainId = 31337) =>
  actor.send({ type: 'wallet.changed', address, chainId });
const signIn = ({ actor }: Harness, who: AuthUser = user) =>
  actor.send({ type: 'session.changed', user: who });

/** Connected, submitted and answered up to (not including) the given step; 'sent': all three answered. */
async function runTo(h: Harness, step: 'preparing' | 'signing' | 'broadcasting' | 'sent') {
  h.actor.send(submit());
  if (step === 'preparing') return;
  await h.answer('prepareTransfer', prepared);
  if (step === 'signing') return;
  await h.answer('signTransfer', signed);
  if (step === 'broadcasting') return;
  await h.answer('broadcastTransfer', result);
}

/** Every string reachable from a value, through sealed keys too (by calling reveal). */
function reachableText(value: unknown, seen = new Set<unknown>()): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (typeof value !== 'object' || value === null || seen.has(value)) return '';
  seen.add(value);
  const sealed = value as Partial<SealedKey>;
  const parts = typeof sealed.reveal === 'function' ? [sealed.reveal()] : [];
  for (const name of Object.getOwnPropertyNames(value)) {
    parts.push(name, reachableText((value as Record<string, unknown>)[name], seen));
  }
  return parts.join('\n');
}

/** What a log, a journal or a devtools panel could print of a value. */
function printable(value: unknown): string {
  const json = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? '';
  return `${json}\n${inspect(value, { depth: 12, showHidden: true })}\n${String(value)}`;
}

const holdsKey = (text: string) => text.toLowerCase().includes(KEY_DIGITS);

/** The key is nowhere in the machine: not in context, not in any child's input or output. */
function expectKeyGone(h: Harness) {
  expect(h.snapshot().context.privateKey).toBeNull();
  expect(holdsKey(reachableText(h.actor.getPersistedSnapshot()))).toBe(false);
}

describe('send machine: the validation order (docs/product.md#send-form-order)', () => {
  it('asks for a wallet first, whatever else is missing', () => {
    const h = setup({ tokenConfigured: false });
    h.actor.send(submit({ recipient: '', amount: '', privateKey: '' }));
    h.actor.send(submit());
    expect(h.toasts).toEqual([
      { ...sendCopy.walletNotConnected, variant: 'destructive' },
      { ...sendCopy.walletNotConnected, variant: 'destructive' },
    ]);
    expect(h.snapshot().value).toBe('editing');
    expect(h.prepares).toHaveLength(0);
  });

  it('then needs both the recipient and the amount, before the key', () => {
    const h = setup();
    connect(h);
    for (const fields of [
      { recipient: '' },
      { amount: '' },
      { recipient: '  ', privateKey: '' },
      { amount: '\t' },
    ]) {
      h.actor.send(submit(fields));
    }
    expect(h.toasts).toEqual(Array(4).fill({ ...sendCopy.missingInformation, variant: 'destructive' }));
    expect(h.prepares).toHaveLength(0);
  });

  it('then needs the private key', () => {
    const h = setup();
    connect(h);
    h.actor.send(submit({ privateKey: '' }));
    h.actor.send(submit({ privateKey: '   ' }));
    expect(h.toasts).toEqual(Array(2).fill({ ...sendCopy.privateKeyRequired, variant: 'destructive' }));
    expect(h.prepares).toHaveLength(0);
  });

  it('stops with Configuration Error when no token contract is configured, sending nothing', () => {
    const h = setup({ tokenConfigured: false });
    connect(h);
    h.actor.send(submit());
    expect(h.toasts).toEqual([{ ...sendCopy.configurationError, variant: 'destructive' }]);
    expect(h.snapshot().value).toBe('editing');
    expect(h.prepares).toHaveLength(0);
    expectKeyGone(h);
  });

  it('keeps the fields as submitted, but never a refused key', () => {
    const h = setup();
    connect(h);
    h.actor.send(submit({ recipient: 'not yet', privateKey: '' }));
    expect(h.snapshot().context).toMatchObject({ recipient: 'not yet', amount: '12.5', privateKey: null });
    const noToken = setup({ tokenConfigured: false });
    connect(noToken);
    noToken.actor.send(submit());
    expect(noToken.snapshot().context).toMatchObject({
      recipient: RECIPIENT,
      amount: '12.5',
      privateKey: null,
    });
  });
});

describe('send machine: a transfer', () => {
  it('prepares with the form and the connected wallet, handing the key over sealed', () => {
    const h = setup();
    connect(h);
    h.actor.send(submit());
    expect(h.snapshot().value).toEqual({ sending: { unsigned: 'preparing' } });
    expect(h.snapshot().hasTag(sendBusyTag)).toBe(true);
    const input = h.prepares[0]?.input;
    expect(input).toMatchObject({ to: RECIPIENT, amount: '12.5', expectedFrom: WALLET });
    expect(input?.privateKey.reveal()).toBe(KEY);
    expect(holdsKey(printable(input))).toBe(false);
    expect(holdsKey(printable(h.snapshot().context))).toBe(false);
  });

  it('signs the prepared transfer, then swaps the key for the signed transaction in one transition', async () => {
    const h = setup();
    connect(h);
    await runTo(h, 'signing');
    expect(h.snapshot().value).toEqual({ sending: { unsigned: 'signing' } });
    expect(h.signs[0]?.input.prepared).toEqual(prepared);
    expect(h.signs[0]?.input.privateKey.reveal()).toBe(KEY);

    h.signs[0]?.resolve(signed);
    await settle();
    const step = h.inspected.find(
      (e) => e.type === '@xstate.microstep' && e.event.type === 'xstate.done.actor.signTransfer',
    );
    // The microstep of the done event: its snapshot is the one right after that single transition.
    const after =
      step?.type === '@xstate.microstep' ? (step.snapshot as ReturnType<typeof h.snapshot>) : null;
    expect(after?.context).toMatchObject({
      privateKey: null,
      signed,
    });
    expect(h.snapshot().value).toEqual({ sending: 'broadcasting' });
    expect(h.snapshot().hasTag(sendBusyTag)).toBe(true);
    expect(h.broadcasts[0]?.input).toEqual({ serialized: signed.serialized });
    expectKeyGone(h);
  });

  it('without a user: Transfer Submitted, reported, the form cleared, nothing recorded', async () => {
    const h = setup();
    connect(h);
    await runTo(h, 'sent');
    expect(h.snapshot().value).toBe('editing');
    expect(h.snapshot().hasTag(sendBusyTag)).toBe(false);
    expect(h.toasts).toEqual([
      { title: sendCopy.transferSubmitted, description: sendCopy.transferSubmittedDescription(HASH) },
    ]);
    expect(h.toasts[0]?.description).toContain(HASH.slice(0, 10));
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.records).toHaveLength(0);
    expect(h.snapshot().context).toMatchObject({
      lastHash: HASH,
      recipient: '',
      amount: '',
      prepared: null,
      signed: null,
    });
    expectKeyGone(h);
  });

  it('ignores submits while a transfer is under way', async () => {
    const h = setup();
    connect(h);
    h.actor.send(submit());
    h.actor.send(submit({ amount: '99' }));
    await runTo(h, 'signing');
    h.actor.send(submit({ amount: '99' }));
    expect(h.prepares).toHaveLength(1);
    expect(h.snapshot().context.amount).toBe('12.5');
  });

  it('sends again after a transfer', async () => {
    const h = setup();
    connect(h);
    await runTo(h, 'sent');
    h.actor.send(submit({ amount: '1' }));
    expect(h.prepares).toHaveLength(2);
    expect(h.prepares[1]?.input.amount).toBe('1');
  });
});

describe('send machine: failures keep the form, not the key', () => {
  type Stage = 'preparing' | 'signing' | 'broadcasting';
  const refusal = (problem: TokenProblem, hash?: `0x${string}`) => new TokenServiceError(problem, { hash });
  const cases: [string, Stage, unknown, ToastRequest][] = [
    [
      'a key of another wallet',
      'preparing',
      refusal({ code: 'key-mismatch' }),
      {
        title: sendCopy.invalidTransfer,
        description: `${sendCopy.keyMismatch} ${sendCopy.keyCleared}`,
        variant: 'destructive',
      },
    ],
    [
      'a malformed key',
      'preparing',
      refusal({ code: 'invalid-private-key-format' }),
      {
        title: sendCopy.invalidTransfer,
        description: `${tokenCopy.invalidPrivateKeyFormat} ${sendCopy.keyCleared}`,
        variant: 'destructive',
      },
    ],
    [
      // The form checked its shape, so the token service refused its EIP-55 checksum.
      'a recipient whose capital letters are not its checksum',
      'preparing',
      refusal({ code: 'invalid-recipient' }),
      {
        title: sendCopy.invalidTransfer,
        description: `${sendCopy.badChecksum} ${sendCopy.keyCleared}`,
        variant: 'destructive',
      },
    ],
    [
      'too many decimals',
      'preparing',
      refusal({ code: 'too-many-decimals', decimals: 18 }),
      {
        title: sendCopy.invalidTransfer,
        description: `${tokenCopy.tooManyDecimals(18)} ${sendCopy.keyCleared}`,
        variant: 'destructive',
      },
    ],
    [
      'an amount above the balance',
      'preparing',
      refusal({ code: 'insufficient-token-balance', figures: { balance: '1', needed: '12.5' } }),
      {
        title: sendCopy.invalidTransfer,
        description: `${tokenCopy.insufficientTokenBalanceOf('1', '12.5')} ${sendCopy.keyCleared}`,
        variant: 'destructive',
      },
    ],
    [
      'an unreachable node',
      'preparing',
      refusal({ code: 'rpc-unavailable', status: null }),
      {
        title: sendCopy.transferFailed,
        description: `${tokenCopy.rpcUnavailable} ${sendCopy.keyCleared}`,
        variant: 'destructive',
      },
    ],
    [
      'a failed signature',
      'signing',
      refusal({ code: 'unknown' }),
      {
        title: sendCopy.transferFailed,
        description: `${tokenCopy.unknown} ${sendCopy.keyCleared}`,
        variant: 'destructive',
      },
    ],
    [
      'no ETH for gas',
      'broadcasting',
      refusal({ code: 'insufficient-funds-for-gas' }),
      {
        title: sendCopy.transferFailed,
        description: `${tokenCopy.insufficientFundsForGas} ${sendCopy.keyCleared}`,
        variant: 'destructive',
      },
    ],
    [
      'a mined revert (sent: no retry hint)',
      'broadcasting',
      refusal({ code: 'reverted' }, HASH),
      { title: sendCopy.transferFailed, description: tokenCopy.reverted, variant: 'destructive' },
    ],
    [
      'a receipt that never came',
      'broadcasting',
      refusal({ code: 'not-confirmed', seconds: 120 }, HASH),
      {
        title: sendCopy.transferNotConfirmed,
        description: `${tokenCopy.notConfirmed(120)} ${sendCopy.checksInsteadOfResending}`,
        variant: 'destructive',
      },
    ],
    [
      'something that is not an error',
      'signing',
      'boom',
      {
        title: sendCopy.transferFailed,
        description: `${tokenCopy.unknown} ${sendCopy.keyCleared}`,
        variant: 'destructive',
      },
    ],
  ];

  it.each(cases)('%s', async (_, stage, error, toast) => {
    const h = setup();
    connect(h);
    signIn(h);
    await runTo(h, stage);
    const pending = { preparing: h.prepares, signing: h.signs, broadcasting: h.broadcasts }[stage];
    pending.at(-1)?.reject(error);
    await settle();
    expect(h.snapshot().value).toBe('editing');
    expect(h.toasts).toEqual([toast]);
    expect(h.reports).toEqual([]);
    expect(h.records).toHaveLength(0);
    expect(h.snapshot().context).toMatchObject({ recipient: RECIPIENT, amount: '12.5', lastHash: null });
    expectKeyGone(h);
  });

  it('never shows the key, even when a failure quotes it', async () => {
    const h = setup();
    connect(h);
    await runTo(h, 'signing');
    h.signs[0]?.reject(new Error(`cannot sign with ${KEY.toLowerCase()}`));
    await settle();
    expect(h.toasts[0]?.description).toBe(`cannot sign with 0x[redacted] ${sendCopy.keyCleared}`);
    expectKeyGone(h);
  });

  it('shows the failure of a key that is no key at all (any text is taken as typed)', async () => {
    const h = setup();
    connect(h);
    h.actor.send(submit({ privateKey: '(((( not a key ))))' }));
    h.prepares[0]?.reject(new TokenServiceError({ code: 'invalid-private-key-format' }));
    await settle();
    expect(h.toasts[0]?.description).toBe(`${tokenCopy.invalidPrivateKeyFormat} ${sendCopy.keyCleared}`);
    expect(h.snapshot().context.privateKey).toBeNull();
  });

  it('retries with a newly entered key after a failure', async () => {
    const h = setup();
    connect(h);
    await runTo(h, 'preparing');
    h.prepares[0]?.reject(new TokenServiceError({ code: 'rpc-unavailable', status: null }));
    await settle();
    h.actor.send(submit());
    expect(h.prepares).toHaveLength(2);
    expect(h.prepares[1]?.input.privateKey.reveal()).toBe(KEY);
  });
});

describe('send machine: the wallet or the session changing mid-send', () => {
  it('cancels before signing when the wallet switches account, forgetting the key', async () => {
    const h = setup();
    connect(h);
    await runTo(h, 'preparing');
    connect(h, RECIPIENT);
    expect(h.snapshot().value).toBe('editing');
    expect(h.toasts).toEqual([
      { title: sendCopy.transferCancelled, description: sendCopy.cancelledWalletChanged },
    ]);
    expect(h.snapshot().context).toMatchObject({
      walletAddress: RECIPIENT,
      recipient: RECIPIENT,
      amount: '12.5',
    });
    expectKeyGone(h);
    // The stale answer is ignored: nothing is signed.
    h.prepares[0]?.resolve(prepared);
    await settle();
    expect(h.signs).toHaveLength(0);
  });

  it('cancels while signing when the wallet changes network or disconnects', async () => {
    for (const change of [
      { address: WALLET, chainId: 1 },
      { address: null, chainId: null },
    ]) {
      const h = setup();
      connect(h);
      await runTo(h, 'signing');
      h.actor.send({ type: 'wallet.changed', ...change });
      expect(h.snapshot().value).toBe('editing');
      expect(h.toasts.at(-1)?.title).toBe(sendCopy.transferCancelled);
      h.signs[0]?.resolve(signed);
      await settle();
      expect(h.broadcasts).toHaveLength(0);
      expectKeyGone(h);
    }
  });

  it('carries on when the wallet reports the same account again (any letter case)', async () => {
    const h = setup();
    connect(h);
    await runTo(h, 'preparing');
    connect(h, WALLET.toLowerCase());
    expect(h.snapshot().value).toEqual({ sending: { unsigned: 'preparing' } });
    expect(h.snapshot().context.walletAddress).toBe(WALLET.toLowerCase());
    expect(h.toasts).toEqual([]);
  });

  it('cancels before broadcasting when the user signs out or another user signs in', async () => {
    for (const next of [null, { ...user, id: 'user-2' }]) {
      const h = setup();
      connect(h);
      signIn(h);
      await runTo(h, 'signing');
      h.actor.send({ type: 'session.changed', user: next });
      expect(h.snapshot().value).toBe('editing');
      expect(h.toasts).toEqual([
        { title: sendCopy.transferCancelled, description: sendCopy.cancelledSessionChanged },
      ]);
      expect(h.snapshot().context.userId).toBe(next?.id ?? null);
      expectKeyGone(h);
    }
  });

  it('carries on when a visitor signs in mid-send, and then records the transfer', async () => {
    const h = setup();
    connect(h);
    await runTo(h, 'preparing');
    signIn(h);
    expect(h.snapshot().value).toEqual({ sending: { unsigned: 'preparing' } });
    h.prepares[0]?.resolve(prepared);
    await settle();
    h.signs[0]?.resolve(signed);
    await settle();
    h.broadcasts[0]?.resolve(result);
    await settle();
    expect(h.records[0]?.input).toEqual({ hash: HASH });
  });

  it('finishes a broadcast under way whatever changes: the transaction is already out', async () => {
    const h = setup();
    connect(h);
    signIn(h);
    await runTo(h, 'broadcasting');
    connect(h, RECIPIENT);
    h.actor.send({ type: 'session.changed', user: null });
    expect(h.snapshot().value).toEqual({ sending: 'broadcasting' });
    h.broadcasts[0]?.resolve(result);
    await settle();
    // Signed out by then: nothing to record.
    expect(h.snapshot().value).toBe('editing');
    expect(h.records).toHaveLength(0);
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.snapshot().context.walletAddress).toBe(RECIPIENT);
  });

  it('learns the wallet and the session while editing', () => {
    const h = setup();
    connect(h);
    signIn(h);
    expect(h.snapshot().context).toMatchObject({ walletAddress: WALLET, chainId: 31337, userId: user.id });
    h.actor.send({ type: 'wallet.changed', address: null, chainId: null });
    h.actor.send({ type: 'session.changed', user: null });
    expect(h.snapshot().context).toMatchObject({ walletAddress: null, chainId: null, userId: null });
    expect(h.snapshot().value).toBe('editing');
    h.actor.send(submit());
    expect(h.toasts).toEqual([{ ...sendCopy.walletNotConnected, variant: 'destructive' }]);
  });
});

describe('send machine: the key in what the actor system sees', () => {
  /** Runs a success, a failure and a cancellation in one actor, recording every inspection event. */
  async function everything() {
    const h = setup();
    connect(h);
    signIn(h);
    await runTo(h, 'sent');
    h.records[0]?.resolve({ recorded: true });
    await settle();
    await runTo(h, 'signing');
    h.signs[1]?.reject(new TokenServiceError({ code: 'unknown' }));
    await settle();
    await runTo(h, 'preparing');
    connect(h, RECIPIENT);
    await settle();
    expect(h.reports).toHaveLength(1);
    expect(h.toasts.map((t) => t.title)).toEqual([
      sendCopy.transferSubmitted,
      sendCopy.transferFailed,
      sendCopy.transferCancelled,
    ]);
    return h;
  }

  it('is in no event other than send.submit', async () => {
    const h = await everything();
    const events = h.inspected.filter((e) => e.type === '@xstate.event');
    expect(events.filter((e) => e.event.type === 'send.submit')).toHaveLength(3);
    const others = events.filter((e) => e.event.type !== 'send.submit');
    expect(others.map((e) => e.event.type)).toEqual(
      expect.arrayContaining([
        'xstate.init',
        'xstate.done.actor.prepareTransfer',
        'xstate.done.actor.signTransfer',
        'xstate.error.actor.signTransfer',
        'wallet.changed',
      ]),
    );
    for (const { event } of others) expect(holdsKey(printable(event)), event.type).toBe(false);
    // The submit itself does carry it: the check above can see a key.
    expect(events.some((e) => e.event.type === 'send.submit' && holdsKey(printable(e.event)))).toBe(true);
  });

  /** A snapshot's own data (a machine's context, a promise's input and output), not its machine definition. */
  const ownState = (snapshot: unknown) => {
    const { context, value, input, output, error } = snapshot as Record<string, unknown>;
    return { context, value, input, output, error };
  };

  /**
   * An action's own data: an actor it starts, stops or sends to stands as its id. A ref reaches the
   * whole actor system, machine definitions included, so printing one is slow and says nothing of
   * the action; every actor's own input and state are checked through its own events.
   */
  function ownAction(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value;
    if ('sessionId' in value && 'send' in value) return `[actor ${(value as AnyActorRef).id}]`;
    if (Array.isArray(value)) return value.map(ownAction);
    if (Object.getPrototypeOf(value) !== Object.prototype) return value;
    return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, ownAction(field)]));
  }

  it('is in no action, snapshot or microstep either, except as the submit that caused it', async () => {
    const h = await everything();
    for (const e of h.inspected) {
      const exposed =
        e.type === '@xstate.action'
          ? ownAction(e.action)
          : e.type === '@xstate.snapshot' || e.type === '@xstate.microstep'
            ? { snapshot: ownState(e.snapshot), event: e.event.type === 'send.submit' ? null : e.event }
            : null;
      expect(holdsKey(printable(exposed)), e.type).toBe(false);
    }
  });

  it('reaches actors only sealed, and only the two that need it', async () => {
    const h = await everything();
    const holders = new Set<string>();
    for (const e of h.inspected) {
      if (e.type === '@xstate.event' && e.event.type === 'xstate.init' && holdsKey(reachableText(e.event))) {
        holders.add((e.actorRef as AnyActorRef).id);
      }
    }
    expect([...holders].sort()).toEqual(['prepareTransfer', 'signTransfer']);
  });

  it('prints as [private key] wherever a log or a journal writes it', () => {
    const key = sealKey(KEY);
    expect(JSON.stringify({ privateKey: key })).toBe('{"privateKey":"[private key]"}');
    expect(`${key}`).toBe('[private key]');
    expect(key.reveal()).toBe(KEY);
  });
});

describe('send machine: the fields, checked before anything is signed', () => {
  it.each([
    ['an amount below the minimum', { amount: '0' }, sendCopy.belowMinimum(sendCopy.minimumAmount)],
    [
      'an amount smaller than one unit',
      { amount: '0.0000000000000000001' },
      sendCopy.belowMinimum(sendCopy.minimumAmount),
    ],
    ['an amount with 19 decimals', { amount: '1.0000000000000000001' }, tokenCopy.tooManyDecimals(18)],
    ['an amount that is no number', { amount: '1e3' }, tokenCopy.invalidAmount],
    ['a recipient that is no address', { recipient: '0x1234' }, tokenCopy.invalidRecipient],
    ['the zero address', { recipient: `0x${'0'.repeat(40)}` }, tokenCopy.zeroRecipient],
  ])('refuses %s with Invalid Transfer, after the key is asked for', (_, fields, words) => {
    const h = setup();
    connect(h);
    h.actor.send(submit({ ...fields, privateKey: '' }));
    h.actor.send(submit(fields));
    expect(h.toasts).toEqual([
      { ...sendCopy.privateKeyRequired, variant: 'destructive' },
      { title: sendCopy.invalidTransfer, description: words, variant: 'destructive' },
    ]);
    expect(h.prepares).toHaveLength(0);
    expect(h.snapshot().value).toBe('editing');
    expect(h.snapshot().context).toMatchObject({ ...fields, privateKey: null });
  });

  it('takes the smallest amount, and trailing zeros beyond the decimals', () => {
    for (const amount of [sendCopy.minimumAmount, '1.50000000000000000000']) {
      const h = setup();
      connect(h);
      h.actor.send(submit({ amount }));
      expect(h.prepares).toHaveLength(1);
    }
  });
});

describe('send machine: never twice', () => {
  const lost = () =>
    new TokenServiceError(
      { code: 'sent-but-unchecked', failure: { code: 'rpc-unavailable', status: null } },
      { hash: HASH },
    );

  async function lostBroadcast() {
    const h = setup();
    connect(h);
    await runTo(h, 'broadcasting');
    h.broadcasts[0]?.reject(lost());
    await settle();
    return h;
  }

  it('a broadcast whose answer is lost names its hash and keeps the form', async () => {
    const h = await lostBroadcast();
    expect(h.snapshot().value).toBe('editing');
    expect(h.toasts).toEqual([
      {
        title: sendCopy.mayHaveBeenSent,
        description: `${sendCopy.mayHaveBeenSentDescription(HASH)} ${sendCopy.checksInsteadOfResending}`,
        variant: 'destructive',
      },
    ]);
    expect(h.snapshot().context).toMatchObject({ recipient: RECIPIENT, amount: '12.5', lastHash: null });
    expect(h.snapshot().context.unresolved).toEqual({
      hash: HASH,
      serialized: signed.serialized,
      from: WALLET,
      recipient: RECIPIENT,
      amount: '12.5',
    });
  });

  it('the same form again checks that transaction and signs nothing; found, it is submitted once', async () => {
    const h = await lostBroadcast();
    h.actor.send(submit({ recipient: ` ${RECIPIENT.toLowerCase()} ` }));
    expect(h.snapshot().value).toEqual({ sending: 'checking' });
    expect(h.snapshot().hasTag(sendBusyTag)).toBe(true);
    expect(h.prepares).toHaveLength(1);
    expect(h.confirms[0]?.input).toEqual({ hash: HASH, serialized: signed.serialized, from: WALLET });
    expectKeyGone(h);

    h.confirms[0]?.resolve(result);
    await settle();
    expect(h.snapshot().value).toBe('editing');
    expect(h.toasts.at(-1)).toEqual({
      title: sendCopy.transferSubmitted,
      description: sendCopy.transferSubmittedDescription(HASH),
    });
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.snapshot().context).toMatchObject({ unresolved: null, recipient: '', lastHash: HASH });
    // Now a new transfer of the same amount is a new send.
    h.actor.send(submit());
    expect(h.prepares).toHaveLength(2);
  });

  it('still unknown: it stays unresolved; reverted: a new send may go', async () => {
    const h = await lostBroadcast();
    h.actor.send(submit());
    h.confirms[0]?.reject(lost());
    await settle();
    expect(h.toasts.at(-1)?.title).toBe(sendCopy.mayHaveBeenSent);
    expect(h.snapshot().context.unresolved?.hash).toBe(HASH);

    h.actor.send(submit());
    h.confirms[1]?.reject(new TokenServiceError({ code: 'reverted' }, { hash: HASH }));
    await settle();
    expect(h.toasts.at(-1)).toEqual({
      title: sendCopy.transferFailed,
      description: tokenCopy.reverted,
      variant: 'destructive',
    });
    expect(h.snapshot().context.unresolved).toBeNull();
    h.actor.send(submit());
    expect(h.prepares).toHaveLength(2);
  });

  it('the same amount and recipient however written is the same form', () => {
    expect(sameAmount('0.75', '0.750')).toBe(true);
    expect(sameAmount('0.75', '.75')).toBe(true);
    expect(sameAmount(' 12.5 ', '12.50')).toBe(true);
    expect(sameAmount('0.75', '0.751')).toBe(false);
    expect(sameAmount('abc', 'abc')).toBe(true);
    expect(sameAmount('abc', '0')).toBe(false);
    // Text that is no amount equals only itself, however it is spaced.
    expect(sameAmount(' abc ', 'abc')).toBe(true);
    expect(sameAmount('abc', ' abc ')).toBe(true);
    expect(sameAmount('abc', 'abd')).toBe(false);
  });

  it('the same form typed with spaces around the recipient, either time, checks that transaction', async () => {
    const h = setup();
    connect(h);
    h.actor.send(submit({ recipient: ` ${RECIPIENT} ` }));
    h.prepares[0]?.resolve(prepared);
    await settle();
    h.signs[0]?.resolve(signed);
    await settle();
    h.broadcasts[0]?.reject(lost());
    await settle();
    expect(h.snapshot().context.unresolved?.recipient).toBe(` ${RECIPIENT} `);
    h.actor.send(submit());
    expect(h.snapshot().value).toEqual({ sending: 'checking' });
  });

  it('the same form written otherwise checks that transaction too', async () => {
    const h = await lostBroadcast();
    h.actor.send(submit({ recipient: RECIPIENT.toUpperCase().replace('0X', '0x'), amount: '12.500' }));
    expect(h.snapshot().value).toEqual({ sending: 'checking' });
    expect(h.prepares).toHaveLength(1);
  });

  it('checks an unresolved transfer without asking for the key, which it would not use', async () => {
    const h = await lostBroadcast();
    h.actor.send(submit({ privateKey: '' }));
    expect(h.snapshot().value).toEqual({ sending: 'checking' });
    expect(h.toasts.map((t) => t.title)).not.toContain(sendCopy.privateKeyRequired.title);
  });

  it('another form from that wallet is signed with the unresolved transfer’s nonce (one of them at most)', async () => {
    const h = await lostBroadcast();
    h.actor.send(submit({ amount: '12.6' }));
    expect(h.prepares).toHaveLength(2);
    expect(h.confirms).toHaveLength(0);
    h.prepares[1]?.resolve(prepared);
    await settle();
    expect(h.signs[1]?.input.prepared).toEqual({ ...prepared, replaces: signed.serialized });
  });

  it('a nonce taken by another transaction frees the form and says so', async () => {
    const h = await lostBroadcast();
    h.actor.send(submit());
    h.confirms[0]?.reject(new TokenServiceError({ code: 'unknown' }, { hash: HASH, replaced: true }));
    await settle();
    expect(h.toasts.at(-1)).toEqual({
      title: sendCopy.transferFailed,
      description: sendCopy.replacedOnChain(HASH),
      variant: 'destructive',
    });
    expect(h.snapshot().context.unresolved).toBeNull();
  });

  it('another wallet sends as usual, with its own nonce', async () => {
    const h = await lostBroadcast();
    connect(h, RECIPIENT);
    h.actor.send(submit());
    h.prepares[1]?.resolve(prepared);
    await settle();
    expect(h.signs[1]?.input.prepared).toEqual(prepared);
    expect(h.confirms).toHaveLength(0);
  });

  it('a refusal by the node (no hash) is an ordinary failure: nothing to check', async () => {
    const h = setup();
    connect(h);
    await runTo(h, 'broadcasting');
    h.broadcasts[0]?.reject(new TokenServiceError({ code: 'insufficient-funds-for-gas' }));
    await settle();
    expect(h.snapshot().context.unresolved).toBeNull();
  });
});

describe('send machine: Send with wallet', () => {
  const withWallet = (
    fields: Partial<{ recipient: string; amount: string; balance: string | null }> = {},
  ) => ({
    type: 'send.submitWithWallet' as const,
    recipient: RECIPIENT,
    amount: '12.5',
    balance: '100',
    ...fields,
  });
  const call: WalletTransferCall = { from: WALLET, to: `0x${'5f'.repeat(20)}`, data: '0xa9059cbb' };

  async function toPending(h: Harness) {
    h.actor.send(withWallet());
    await h.answer('walletSend.prepareWalletTransfer', { prepared, call });
    await h.answer('walletSend.requestWalletTransfer', HASH);
  }

  it('checks in order without a key: wallet, fields, contract, amount, balance shown', () => {
    const h = setup();
    h.actor.send(withWallet());
    connect(h);
    h.actor.send(withWallet({ amount: '' }));
    h.actor.send(withWallet({ amount: '0' }));
    h.actor.send(withWallet({ amount: '100.5' }));
    expect(h.toasts).toEqual([
      { ...sendCopy.walletNotConnected, variant: 'destructive' },
      { ...sendCopy.missingInformation, variant: 'destructive' },
      {
        title: sendCopy.invalidTransfer,
        description: sendCopy.belowMinimum(sendCopy.minimumAmount),
        variant: 'destructive',
      },
      {
        title: sendCopy.invalidTransfer,
        description: tokenCopy.insufficientTokenBalanceOf('100', '100.5'),
        variant: 'destructive',
      },
    ]);
    expect(h.walletPrepares).toHaveLength(0);
    const noToken = setup({ tokenConfigured: false });
    connect(noToken);
    noToken.actor.send(withWallet());
    expect(noToken.toasts).toEqual([{ ...sendCopy.configurationError, variant: 'destructive' }]);
  });

  it('waits for the wallet, then for the receipt, and is submitted once confirmed', async () => {
    const h = setup();
    connect(h);
    h.actor.send(withWallet({ balance: null }));
    expect(h.snapshot().value).toEqual({ sending: 'withWallet' });
    expect(h.snapshot().hasTag(sendBusyTag)).toBe(true);
    expect(h.walletPrepares[0]?.input).toEqual({ from: WALLET, to: RECIPIENT, amount: '12.5' });
    h.walletPrepares[0]?.resolve({ prepared, call });
    await settle();
    expect(h.walletRequests[0]?.input).toEqual(call);
    expect(h.toasts).toEqual([sendCopy.walletPrompt]);
    h.walletRequests[0]?.resolve(HASH);
    await settle();
    expect(h.toasts.at(-1)).toEqual({
      title: sendCopy.transferPending,
      description: sendCopy.transferPendingDescription(HASH),
    });
    expect(h.walletConfirms[0]?.input).toEqual({ hash: HASH, serialized: null });
    h.walletConfirms[0]?.resolve(result);
    await settle();
    expect(h.toasts.at(-1)).toEqual({
      title: sendCopy.transferSubmitted,
      description: sendCopy.transferSubmittedDescription(HASH),
    });
    expect(h.snapshot().value).toBe('editing');
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.snapshot().context).toMatchObject({ recipient: '', amount: '', lastHash: HASH });
  });

  it("signed in: records the wallet's transfer", async () => {
    const h = setup();
    connect(h);
    signIn(h);
    await toPending(h);
    h.walletConfirms[0]?.resolve(result);
    await settle();
    expect(h.records[0]?.input).toEqual({ hash: HASH });
  });

  it('a rejection in the wallet sends nothing and keeps the form', async () => {
    const h = setup();
    connect(h);
    h.actor.send(withWallet());
    h.walletPrepares[0]?.resolve({ prepared, call });
    await settle();
    h.walletRequests[0]?.reject({ code: 'rejected', message: null });
    await settle();
    expect(h.toasts.at(-1)).toEqual(sendCopy.walletRejected);
    expect(h.snapshot().value).toBe('editing');
    expect(h.snapshot().context).toMatchObject({ recipient: RECIPIENT, amount: '12.5', unresolved: null });
    expect(h.reports).toEqual([]);
  });

  it('a revert says so with the hash; nothing is left to check', async () => {
    const h = setup();
    connect(h);
    await toPending(h);
    h.walletConfirms[0]?.reject(new TokenServiceError({ code: 'reverted' }, { hash: HASH }));
    await settle();
    expect(h.toasts.at(-1)).toEqual({
      title: sendCopy.transferFailed,
      description: `${tokenCopy.reverted} ${sendCopy.transactionHash(HASH)}`,
      variant: 'destructive',
    });
    expect(h.snapshot().context.unresolved).toBeNull();
    expect(h.reports).toEqual([]);
  });

  it('no receipt in time: the same form then checks the hash instead of asking the wallet again', async () => {
    const h = setup();
    connect(h);
    await toPending(h);
    h.walletConfirms[0]?.reject(
      new TokenServiceError({ code: 'not-confirmed', seconds: 120 }, { hash: HASH }),
    );
    await settle();
    expect(h.toasts.at(-1)?.title).toBe(sendCopy.transferNotConfirmed);
    expect(h.snapshot().context.unresolved).toMatchObject({ hash: HASH, serialized: null });
    h.actor.send(withWallet());
    expect(h.snapshot().value).toEqual({ sending: 'checking' });
    expect(h.confirms[0]?.input).toEqual({ hash: HASH, serialized: null });
    expect(h.walletPrepares).toHaveLength(1);
  });

  it('the chain refusing the transfer before the wallet is asked', async () => {
    const h = setup();
    connect(h);
    h.actor.send(withWallet());
    h.walletPrepares[0]?.reject(new TokenServiceError({ code: 'wrong-chain', actual: 1, expected: 31337 }));
    await settle();
    expect(h.toasts).toEqual([
      { title: sendCopy.transferFailed, description: tokenCopy.wrongChain(1, 31337), variant: 'destructive' },
    ]);
    expect(h.walletRequests).toHaveLength(0);
  });

  it('a wallet on another network sent nothing: Transfer Failed with its words, the form free', async () => {
    const h = setup();
    connect(h);
    h.actor.send(withWallet());
    h.walletPrepares[0]?.resolve({ prepared, call });
    await settle();
    h.walletRequests[0]?.reject({ code: 'wrong-chain', message: null });
    await settle();
    expect(h.toasts.at(-1)).toEqual({
      title: sendCopy.transferFailed,
      description: sendCopy.walletWrongChain,
      variant: 'destructive',
    });
    expect(h.snapshot().context.unresolved).toBeNull();
  });

  for (const error of [
    { code: 'invalid-answer', message: null },
    { code: 'unknown', message: 'Internal JSON-RPC error.' },
  ]) {
    it(`a wallet failing with ${error.code} may have sent it: the same form warns once before sending`, async () => {
      const h = setup();
      connect(h);
      h.actor.send(withWallet());
      h.walletPrepares[0]?.resolve({ prepared, call });
      await settle();
      h.walletRequests[0]?.reject(error);
      await settle();
      expect(h.toasts.at(-1)?.title).toBe(sendCopy.mayHaveBeenSent);
      expect(h.toasts.at(-1)?.description).toContain(sendCopy.walletMaybeSent);
      expect(h.snapshot().context.unresolved).toMatchObject({ hash: null, amount: '12.5' });

      // Pressed again: only the warning, nothing asked of the wallet or the node.
      h.actor.send(withWallet({ amount: '12.50' }));
      expect(h.snapshot().value).toBe('editing');
      expect(h.toasts.at(-1)).toEqual({ ...sendCopy.walletMaybeSentAgain, variant: 'destructive' });
      expect(h.walletPrepares).toHaveLength(1);
      expect(h.confirms).toHaveLength(0);

      // Warned, the user may send it.
      h.actor.send(withWallet());
      expect(h.walletPrepares).toHaveLength(2);
    });
  }

  it('after a wallet failure with no hash, another form is sent at once, without the warning', async () => {
    const h = setup();
    connect(h);
    h.actor.send(withWallet());
    h.walletPrepares[0]?.resolve({ prepared, call });
    await settle();
    h.walletRequests[0]?.reject({ code: 'invalid-answer', message: null });
    await settle();
    const toasts = h.toasts.length;
    h.actor.send(withWallet({ amount: '3' }));
    expect(h.snapshot().value).toEqual({ sending: 'withWallet' });
    expect(h.toasts).toHaveLength(toasts);
    // The warning is kept for the form it is about.
    expect(h.snapshot().context.unresolved).toMatchObject({ hash: null, amount: '12.5' });
  });
});

describe('send machine: the history outbox', () => {
  const offline = () => new BackendError('Failed to send a request to the Edge Function', 'network_error');
  const down = () => new BackendError('record-transaction is down', null, 503);
  const submitted = (hash: string = HASH) => ({
    title: sendCopy.transferSubmitted,
    description: sendCopy.transferSubmittedDescription(hash),
  });
  const notSaved = (hash: string) => ({
    title: sendCopy.historyNotSaved,
    description: sendCopy.historyNotSavedDescription(hash),
  });

  async function sent() {
    const h = setup();
    connect(h);
    signIn(h);
    await runTo(h, 'sent');
    return h;
  }

  it('frees the form at once: the row is saved beside it, then the transfer is reported', async () => {
    const h = await sent();
    expect(h.snapshot().value).toBe('editing');
    expect(h.snapshot().hasTag(sendBusyTag)).toBe(false);
    expect(h.savingHistory()).toBe(true);
    expect(h.records.map((r) => r.input)).toEqual([{ hash: HASH }]);
    expect(h.reports).toEqual([]);
    h.records[0]?.resolve({ recorded: true });
    await settle();
    expect(h.savingHistory()).toBe(false);
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.toasts).toEqual([submitted()]);
  });

  it('tries a save that failed again after 1 s, then 2 s; the third try saves it, without a toast', async () => {
    const h = await sent();
    h.records[0]?.reject(offline());
    await settle();
    expect(h.savingHistory()).toBe(true);
    h.clock.increment(999);
    expect(h.records).toHaveLength(1);
    h.clock.increment(1);
    expect(h.records).toHaveLength(2);
    h.records[1]?.reject(down());
    await settle();
    h.clock.increment(1999);
    expect(h.records).toHaveLength(2);
    h.clock.increment(1);
    expect(h.records.map((r) => r.input)).toEqual([{ hash: HASH }, { hash: HASH }, { hash: HASH }]);
    h.records[2]?.resolve({ recorded: true });
    await settle();
    expect(h.toasts).toEqual([submitted()]);
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.savingHistory()).toBe(false);
  });

  it("after the third failed try: 'Transfer not saved to history' with the hash, and no fourth", async () => {
    const h = await sent();
    for (const [at, wait] of [
      [0, 1000],
      [1, 2000],
    ] as const) {
      h.records[at]?.reject(down());
      await settle();
      h.clock.increment(wait);
    }
    h.records[2]?.reject(offline());
    await settle();
    expect(h.toasts).toEqual([submitted(), notSaved(HASH)]);
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.savingHistory()).toBe(false);
    h.clock.increment(60_000);
    expect(h.records).toHaveLength(3);
  });

  it('a refusal a retry cannot fix (no proven wallet: 409) is not tried again; the balances still refresh', async () => {
    const h = await sent();
    h.records[0]?.reject(
      new BackendError('Link a wallet to your profile before recording transfers', null, 409),
    );
    await settle();
    expect(h.toasts).toEqual([submitted(), notSaved(HASH)]);
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    h.clock.increment(60_000);
    expect(h.records).toHaveLength(1);
  });

  it('several sends in a row each get their row, one save at a time, in order', async () => {
    const h = await sent();
    const second = `0x${'cd'.repeat(32)}` as const;
    h.actor.send(submit({ amount: '1' }));
    h.prepares[1]?.resolve(prepared);
    await settle();
    h.signs[1]?.resolve({ serialized: '0x02f8b2', hash: second });
    await settle();
    h.broadcasts[1]?.resolve({ ...result, hash: second });
    await settle();
    // The first is still being saved: the second waits its turn.
    expect(h.records.map((r) => r.input)).toEqual([{ hash: HASH }]);

    h.records[0]?.reject(offline());
    await settle();
    h.clock.increment(1000);
    h.records[1]?.resolve({ recorded: true });
    await settle();
    expect(h.records.map((r) => r.input)).toEqual([{ hash: HASH }, { hash: HASH }, { hash: second }]);
    h.records[2]?.resolve({ recorded: true });
    await settle();
    expect(h.reports).toEqual([
      { type: 'send.transferSubmitted', hash: HASH },
      { type: 'send.transferSubmitted', hash: second },
    ]);
    expect(h.toasts).toEqual([submitted(), submitted(second)]);
    expect(h.savingHistory()).toBe(false);
  });

  it('signing out abandons the rows still waiting, with one toast; the next session saves nothing of them', async () => {
    const h = await sent();
    h.records[0]?.reject(down());
    await settle();
    h.actor.send({ type: 'session.changed', user: null });
    expect(h.toasts).toEqual([
      submitted(),
      { title: sendCopy.historyNotSaved, description: sendCopy.historyAbandonedDescription(1) },
    ]);
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
    expect(h.savingHistory()).toBe(false);
    signIn(h, { ...user, id: 'user-2' });
    h.clock.increment(60_000);
    expect(h.records).toHaveLength(1);
  });

  it('switching accounts while another send is being prepared cancels it and abandons the rows waiting', async () => {
    const h = await sent();
    h.actor.send(submit({ amount: '1' }));
    h.actor.send({ type: 'session.changed', user: { ...user, id: 'user-2' } });
    expect(h.snapshot().value).toBe('editing');
    // Both reach the root in the one step: the outbox is told to abandon before the send's own
    // toast is delivered, so its toast arrives first.
    expect(h.toasts.slice(1)).toEqual([
      { title: sendCopy.historyNotSaved, description: sendCopy.historyAbandonedDescription(1) },
      { title: sendCopy.transferCancelled, description: sendCopy.cancelledSessionChanged },
    ]);
    expect(h.savingHistory()).toBe(false);
    // The save under way answers too late: nothing more is reported.
    h.records[0]?.resolve({ recorded: true });
    await settle();
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
  });

  it('a visitor signing in, or the same user again, abandons nothing', async () => {
    const h = await sent();
    signIn(h);
    h.records[0]?.resolve({ recorded: true });
    await settle();
    expect(h.toasts).toEqual([submitted()]);
    expect(h.reports).toEqual([{ type: 'send.transferSubmitted', hash: HASH }]);
  });
});
