import { describe, expect, it } from 'vitest';
import { balanceCopy, dataProviderCopy } from '../../../src/copy/index.ts';
import { balancesMachine, type BalanceReading } from '../../../src/machines/balances.machine.ts';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import { lastCall, settle } from '../../support/deferred-actor.ts';
import { machineHarness } from '../../support/machines/harness.ts';

const ALICE = '0x1234567890abcdef1234567890abcdef1234abcd';
const BOB = '0xb0b0000000000000000000000000000000000b0b';
const SEPOLIA = 11155111;
const NONE: BalanceReading = { status: 'none' };
const FAILED: BalanceReading = { status: 'failed' };
const NOT_CONFIGURED: BalanceReading = { status: 'notConfigured' };
const loaded = (value: string): BalanceReading => ({ status: 'loaded', value });

function start({ tokenConfigured = true } = {}) {
  const h = machineHarness(balancesMachine, { input: { tokenConfigured } });
  const { actor, toasts } = h;
  const natives = h.calls<{ balance: string; asset: string }>('fetchNativeBalance');
  const tokens = h.calls<{ formatted: string }>('fetchTokenBalance');
  const copies = h.calls<unknown>('copyBalance');
  return {
    copies,
    actor,
    toasts,
    natives,
    tokens,
    snapshot: h.snapshot,
    connect: (address: string | null = ALICE) =>
      actor.send({ type: 'wallet.changed', address, chainId: address ? SEPOLIA : null }),
    async answer(native: string, token: string) {
      lastCall(natives).resolve({ balance: native, asset: 'ETH' });
      lastCall(tokens).resolve({ formatted: token });
      await settle();
    },
  };
}

const fetchErrorToast = (description: string): ToastRequest => ({
  title: balanceCopy.fetchError,
  description,
  variant: 'destructive',
});

describe('balances machine', () => {
  it('starts idle with no readings (the panel shows N/A)', () => {
    const b = start();
    expect(b.snapshot().value).toBe('idle');
    expect(b.snapshot().context).toEqual({ tokenConfigured: true, address: null, native: NONE, ddex: NONE });
    expect(b.snapshot().hasTag('loading')).toBe(false);
  });

  it('refresh without a wallet: "Wallet Not Connected" / "Please connect your wallet first."', () => {
    const b = start();
    b.actor.send({ type: 'balances.refresh' });
    expect(b.toasts).toEqual([{ ...balanceCopy.walletNotConnected, variant: 'destructive' }]);
    expect(b.natives).toHaveLength(0);
    expect(b.snapshot().value).toBe('idle');
  });

  it('a wallet loads both balances in parallel, loading meanwhile', async () => {
    const b = start();
    b.connect();
    expect(b.snapshot().hasTag('loading')).toBe(true);
    expect(b.natives.map((call) => call.input)).toEqual([{ address: ALICE }]);
    expect(b.tokens.map((call) => call.input)).toEqual([{ address: ALICE }]);
    lastCall(b.tokens).resolve({ formatted: '12.5' });
    await settle();
    expect(b.snapshot().hasTag('loading')).toBe(true);
    lastCall(b.natives).resolve({ balance: '0.75', asset: 'ETH' });
    await settle();
    expect(b.snapshot().matches('loaded')).toBe(true);
    expect(b.snapshot().hasTag('loading')).toBe(false);
    // The decimal text as the services return it; the view chooses the words around it.
    expect(b.snapshot().context).toMatchObject({
      address: ALICE,
      native: loaded('0.75'),
      ddex: loaded('12.5'),
    });
    expect(b.toasts).toEqual([]);
  });

  it('without a token contract: DDEX not configured and no token fetch', async () => {
    const b = start({ tokenConfigured: false });
    b.connect();
    expect(b.tokens).toHaveLength(0);
    expect(b.snapshot().context.ddex).toEqual(NOT_CONFIGURED);
    lastCall(b.natives).resolve({ balance: '1', asset: 'ETH' });
    await settle();
    expect(b.snapshot().matches('loaded')).toBe(true);
    expect(b.snapshot().context).toMatchObject({ native: loaded('1'), ddex: NOT_CONFIGURED });
  });

  it('a failed native fetch: both balances failed and "Balance Fetch Error" with its message', async () => {
    const b = start();
    b.connect();
    lastCall(b.natives).reject(new Error('The data provider could not be reached.'));
    await settle();
    expect(b.snapshot().value).toBe('failed');
    expect(b.snapshot().context).toMatchObject({ native: FAILED, ddex: FAILED });
    expect(b.toasts).toEqual([fetchErrorToast('The data provider could not be reached.')]);
    // The token answer that comes after is ignored: one toast, both stay failed.
    lastCall(b.tokens).resolve({ formatted: '3' });
    await settle();
    expect(b.snapshot().context.ddex).toEqual(FAILED);
    expect(b.toasts).toHaveLength(1);
  });

  it('a failed token fetch after the native one arrived: both balances failed', async () => {
    const b = start();
    b.connect();
    lastCall(b.natives).resolve({ balance: '0.75', asset: 'ETH' });
    await settle();
    lastCall(b.tokens).reject(new Error('The blockchain node could not be reached.'));
    await settle();
    expect(b.snapshot().value).toBe('failed');
    expect(b.snapshot().context).toMatchObject({ native: FAILED, ddex: FAILED });
    expect(b.toasts).toEqual([fetchErrorToast('The blockchain node could not be reached.')]);
  });

  it('a failure without a message uses the generic balance error', async () => {
    const b = start();
    b.connect();
    lastCall(b.tokens).reject('nope');
    await settle();
    expect(b.toasts).toEqual([fetchErrorToast(dataProviderCopy.balanceUnknownError)]);
  });

  it('without a token contract a failure keeps the token not configured', async () => {
    const b = start({ tokenConfigured: false });
    b.connect();
    lastCall(b.natives).reject(new Error('down'));
    await settle();
    expect(b.snapshot().context).toMatchObject({ native: FAILED, ddex: NOT_CONFIGURED });
  });

  it('ignores refresh while loading (the button is disabled)', () => {
    const b = start();
    b.connect();
    b.actor.send({ type: 'balances.refresh' });
    expect(b.natives).toHaveLength(1);
    expect(b.tokens).toHaveLength(1);
    expect(b.toasts).toEqual([]);
  });

  it('refresh reloads after a load and after a failure', async () => {
    const b = start();
    b.connect();
    await b.answer('1', '2');
    b.actor.send({ type: 'balances.refresh' });
    expect(b.snapshot().hasTag('loading')).toBe(true);
    expect(b.natives).toHaveLength(2);
    lastCall(b.natives).reject(new Error('down'));
    await settle();
    b.actor.send({ type: 'balances.refresh' });
    expect(b.snapshot().hasTag('loading')).toBe(true);
    await b.answer('3', '4');
    expect(b.snapshot().matches('loaded')).toBe(true);
    expect(b.snapshot().context).toMatchObject({ native: loaded('3'), ddex: loaded('4') });
  });

  it('an account or chain change reloads for the new wallet state', async () => {
    const b = start();
    b.connect();
    await b.answer('1', '2');
    b.actor.send({ type: 'wallet.changed', address: ALICE, chainId: 1 });
    expect(b.natives).toHaveLength(2);
    b.connect(BOB);
    expect(b.snapshot().context.address).toBe(BOB);
    expect(lastCall(b.natives).input).toEqual({ address: BOB });
  });

  it('a change while loading restarts the load; the old answers are ignored', async () => {
    const b = start();
    b.connect();
    const [oldNative, oldToken] = [lastCall(b.natives), lastCall(b.tokens)];
    b.connect(BOB);
    expect(b.natives).toHaveLength(2);
    oldNative.resolve({ balance: '99', asset: 'ETH' });
    oldToken.reject(new Error('stale'));
    await settle();
    expect(b.toasts).toEqual([]);
    expect(b.snapshot().hasTag('loading')).toBe(true);
    await b.answer('5', '6');
    expect(b.snapshot().context).toMatchObject({ address: BOB, native: loaded('5'), ddex: loaded('6') });
  });

  it('a disconnect clears the readings (N/A) and a refresh then asks for a wallet', async () => {
    const b = start();
    b.connect();
    await b.answer('1', '2');
    b.connect(null);
    expect(b.snapshot().value).toBe('idle');
    expect(b.snapshot().context).toMatchObject({ address: null, native: NONE, ddex: NONE });
    b.actor.send({ type: 'balances.refresh' });
    expect(b.toasts).toEqual([{ ...balanceCopy.walletNotConnected, variant: 'destructive' }]);
  });

  it('a disconnect while loading drops the answers that come later', async () => {
    const b = start();
    b.connect();
    b.connect(null);
    await b.answer('1', '2');
    expect(b.snapshot().value).toBe('idle');
    expect(b.snapshot().context).toMatchObject({ native: NONE, ddex: NONE });
  });

  describe('copying a balance (its exact value, not the text shown for reading)', () => {
    it("copies the exact value of the balance asked for, then 'Copied!'", async () => {
      const b = start();
      b.connect();
      await b.answer('9899.978831758016184621', '1000000');
      b.actor.send({ type: 'balances.copy', balance: 'native' });
      expect(b.copies.map((call) => call.input)).toEqual([{ text: '9899.978831758016184621' }]);
      expect(b.snapshot().matches({ loaded: 'copying' })).toBe(true);
      lastCall(b.copies).resolve(undefined);
      await settle();
      expect(b.snapshot().matches({ loaded: 'ready' })).toBe(true);
      expect(b.toasts).toEqual([balanceCopy.copied]);

      b.actor.send({ type: 'balances.copy', balance: 'ddex' });
      expect(lastCall(b.copies).input).toEqual({ text: '1000000' });
    });

    it("says 'Copy Failed' when the clipboard refuses, and can copy again", async () => {
      const b = start();
      b.connect();
      await b.answer('1', '2');
      b.actor.send({ type: 'balances.copy', balance: 'ddex' });
      lastCall(b.copies).reject(new Error('denied'));
      await settle();
      expect(b.toasts).toEqual([{ ...balanceCopy.copyFailed, variant: 'destructive' }]);
      b.actor.send({ type: 'balances.copy', balance: 'ddex' });
      expect(b.copies).toHaveLength(2);
    });

    it('copies nothing without a value read: no wallet, loading, failed, no token contract or an empty value', async () => {
      const b = start({ tokenConfigured: false });
      b.actor.send({ type: 'balances.copy', balance: 'native' });
      b.connect();
      b.actor.send({ type: 'balances.copy', balance: 'native' });
      lastCall(b.natives).resolve({ balance: '', asset: 'ETH' });
      await settle();
      b.actor.send({ type: 'balances.copy', balance: 'native' });
      b.actor.send({ type: 'balances.copy', balance: 'ddex' });
      b.actor.send({ type: 'balances.refresh' });
      lastCall(b.natives).reject(new Error('down'));
      await settle();
      b.actor.send({ type: 'balances.copy', balance: 'native' });
      expect(b.copies).toHaveLength(0);
    });

    it('a refresh or a wallet change while copying drops the answer', async () => {
      const b = start();
      b.connect();
      await b.answer('1', '2');
      b.actor.send({ type: 'balances.copy', balance: 'native' });
      b.actor.send({ type: 'balances.refresh' });
      lastCall(b.copies).resolve(undefined);
      await settle();
      expect(b.toasts).toEqual([]);
      expect(b.snapshot().hasTag('loading')).toBe(true);
    });
  });

  it("copy words: the spec's toast titles, about a balance", () => {
    expect(balanceCopy.copied).toEqual({ title: 'Copied!', description: 'Balance copied to clipboard' });
    expect(balanceCopy.copyFailed).toEqual({ title: 'Copy Failed', description: 'Could not copy balance.' });
  });
});
