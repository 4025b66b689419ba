import { describe, expect, it } from 'vitest';
import { faucetCopy } from '../../../src/copy/faucet.ts';
import type { FaucetRefusalCode } from '../../../src/domain/faucet.ts';
import { claimTime } from '../../../src/machines/faucet/faucet-toasts.ts';
import { faucetMachine, type FaucetEvent } from '../../../src/machines/faucet/faucet.machine.ts';
import { FaucetError } from '../../../src/services/faucet/types.ts';
import { machineHarness } from '../../support/machines/harness.ts';

// The faucet (issue 33, docs/product.md#faucet): 'Get test DDEX' runs the human check, then the
// claim, and says how it went in one toast; a paid claim's transfer is awaited, then the root is
// told (it refreshes the balances).

const TOKEN = '10000000-aaaa-bbbb-cccc-000000000001';
const PAID = { txHash: `0x${'ab'.repeat(32)}`, amount: '100', nextClaimAt: '2026-12-06T10:00:00.000Z' };
const LOCAL = { kind: 'local' } as const;
const humanChecked = (token: string): FaucetEvent => ({ type: 'faucet.humanChecked', token });

function start() {
  const h = machineHarness(faucetMachine, {});
  return {
    h,
    /** Pressed, the widget loaded and the check passed: the claim is asked for. */
    async checked() {
      h.send({ type: 'faucet.claim' });
      await h.answer('loadHumanCheck', LOCAL);
      h.send(humanChecked(TOKEN));
    },
  };
}

describe('faucet machine', () => {
  it('runs the human check, claims with its token, says how much, then has the balances read', async () => {
    const { h } = start();
    expect(h.snapshot().value).toBe('idle');
    h.send({ type: 'faucet.claim' });
    expect(h.snapshot().matches({ checking: 'loading' })).toBe(true);
    await h.answer('loadHumanCheck', LOCAL);
    expect(h.snapshot().matches({ checking: 'ready' })).toBe(true);
    expect(h.snapshot().context.widget).toEqual(LOCAL);

    h.send(humanChecked(TOKEN));
    expect(h.snapshot().value).toBe('claiming');
    expect(h.snapshot().hasTag('busy')).toBe(true);
    expect(h.calls('claimFaucet').at(-1)?.input).toEqual({ captchaToken: TOKEN });

    await h.answer('claimFaucet', PAID);
    expect(h.snapshot().value).toBe('confirming');
    expect(h.snapshot().hasTag('busy')).toBe(true);
    // A check's token is good for one claim: it is not kept.
    expect(h.snapshot().context.captchaToken).toBeNull();
    expect(h.toasts).toEqual([faucetCopy.paid('100')]);
    expect(h.calls('confirmClaim').at(-1)?.input).toEqual({ txHash: PAID.txHash });
    expect(h.facts).toEqual([]);

    await h.answer('confirmClaim', {});
    expect(h.snapshot().value).toBe('idle');
    expect(h.facts).toEqual([{ type: 'faucet.claimed' }]);
    expect(h.toasts).toHaveLength(1);
  });

  it('has the balances read even when the transfer’s receipt could not be awaited', async () => {
    const { h, checked } = start();
    await checked();
    await h.answer('claimFaucet', PAID);
    await h.fail('confirmClaim', new Error('timed out'));
    expect(h.snapshot().value).toBe('idle');
    expect(h.facts).toEqual([{ type: 'faucet.claimed' }]);
    expect(h.toasts).toEqual([faucetCopy.paid('100')]);
  });

  it('refuses a claim too soon with the local time of the next one', async () => {
    const { h, checked } = start();
    await checked();
    const next = '2026-12-07T09:30:00.000Z';
    await h.fail('claimFaucet', new FaucetError('too_soon', { detail: '429', nextClaimAt: next }));
    expect(h.snapshot().value).toBe('idle');
    expect(h.snapshot().context.captchaToken).toBeNull();
    expect(h.toasts).toEqual([{ ...faucetCopy.tooSoon(claimTime(next)), variant: 'destructive' }]);
    expect(claimTime(next)).toBe(
      new Date(next).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    );
    expect(h.facts).toEqual([]);
  });

  it.each([
    ['human_check_failed', faucetCopy.humanCheckFailed],
    ['no_proven_wallet', faucetCopy.noProvenWallet],
    ['faucet_empty', faucetCopy.empty],
    ['not_signed_in', faucetCopy.notSignedIn],
    ['unavailable', faucetCopy.unavailable],
    ['network', faucetCopy.network],
  ] as const)('words a %s refusal', async (code: FaucetRefusalCode, toast) => {
    const { h, checked } = start();
    await checked();
    await h.fail('claimFaucet', new FaucetError(code, { detail: 'x' }));
    expect(h.snapshot().value).toBe('idle');
    expect(h.toasts).toEqual([{ ...toast, variant: 'destructive' }]);
  });

  it('words any other failure of the claim as the faucet being unavailable', async () => {
    const { h, checked } = start();
    await checked();
    await h.fail('claimFaucet', new Error('chunk failed to load'));
    expect(h.toasts).toEqual([
      { title: faucetCopy.unavailable.title, description: 'chunk failed to load', variant: 'destructive' },
    ]);
  });

  it('says so when the human check cannot be loaded, and claims nothing', async () => {
    const { h } = start();
    h.send({ type: 'faucet.claim' });
    await h.fail('loadHumanCheck', new Error('blocked'));
    expect(h.snapshot().value).toBe('idle');
    expect(h.toasts).toEqual([{ ...faucetCopy.humanCheckUnavailable, variant: 'destructive' }]);
    expect(h.calls('claimFaucet')).toHaveLength(0);
  });

  it('keeps the check open when the widget reports an error, and cancels it on request', async () => {
    const { h } = start();
    h.send({ type: 'faucet.claim' });
    await h.answer('loadHumanCheck', { kind: 'hosted', sitekey: 'site' });
    h.send({ type: 'faucet.humanCheckError' });
    expect(h.snapshot().matches({ checking: 'ready' })).toBe(true);
    expect(h.toasts).toEqual([{ ...faucetCopy.humanCheckFailed, variant: 'destructive' }]);
    h.send({ type: 'faucet.cancel' });
    expect(h.snapshot().value).toBe('idle');
    expect(h.calls('claimFaucet')).toHaveLength(0);
  });

  it('cancels while the widget loads, and a press meanwhile is the same check', async () => {
    const { h } = start();
    h.send({ type: 'faucet.claim' });
    h.send({ type: 'faucet.claim' });
    expect(h.calls('loadHumanCheck')).toHaveLength(1);
    h.send({ type: 'faucet.cancel' });
    expect(h.snapshot().value).toBe('idle');
  });

  it('ignores a press and a token while a claim is under way', async () => {
    const { h, checked } = start();
    await checked();
    h.send({ type: 'faucet.claim' });
    h.send(humanChecked('other'));
    h.send({ type: 'faucet.cancel' });
    expect(h.snapshot().value).toBe('claiming');
    expect(h.calls('claimFaucet')).toHaveLength(1);
  });
});
