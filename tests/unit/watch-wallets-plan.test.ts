import { describe, expect, it } from 'vitest';
import { TatumError } from '../../supabase/functions/_shared/tatum.ts';
import { failureText, walletEventsUrl } from '../../supabase/functions/watch-wallets/handler.ts';
import { planWatch, type WalletWatch } from '../../supabase/functions/watch-wallets/plan.ts';

// What watch-wallets does about one address, decided from who holds it proven now and what the
// server's watch of it is, and the words a failed job keeps: the pure parts of a drain. The calls
// it makes to Tatum and the database are the contract test's (tests/contract/watch-wallets.test.ts).

const ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const URL_NOW = 'https://ref.supabase.co/functions/v1/process-payments?source=wallet';
const URL_BEFORE = 'http://127.0.0.1:54321/functions/v1/process-payments?source=wallet';
const ALICE = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';

const watch = (fields: Partial<WalletWatch> = {}): WalletWatch => ({
  address: ADDRESS,
  user_id: ALICE,
  url: URL_NOW,
  subscription_id: 'sub-1',
  state: 'active',
  ...fields,
});

describe('planWatch', () => {
  it('subscribes an address that became proven and is not watched yet', () => {
    expect(planWatch(ALICE, null, URL_NOW)).toEqual({
      action: 'subscribe',
      userId: ALICE,
      resume: false,
      replace: null,
    });
  });

  it('keeps a watch that is active, for its owner, at this URL', () => {
    expect(planWatch(ALICE, watch(), URL_NOW)).toEqual({ action: 'keep' });
  });

  it('gives the same subscription to the address’s new owner (relinked to another user)', () => {
    expect(planWatch(BOB, watch(), URL_NOW)).toEqual({ action: 'reassign', userId: BOB });
  });

  it('resumes a subscription an earlier drain started but did not record', () => {
    const started = watch({ subscription_id: null, state: 'subscribing' });
    expect(planWatch(ALICE, started, URL_NOW)).toEqual({
      action: 'subscribe',
      userId: ALICE,
      resume: true,
      replace: null,
    });
    expect(planWatch(BOB, started, URL_NOW)).toEqual({
      action: 'subscribe',
      userId: BOB,
      resume: true,
      replace: null,
    });
  });

  it('replaces a watch made for another URL (the project moved), ending the old one first', () => {
    const moved = watch({ url: URL_BEFORE });
    expect(planWatch(ALICE, moved, URL_NOW)).toEqual({
      action: 'subscribe',
      userId: ALICE,
      resume: false,
      replace: moved,
    });
  });

  it('ends the watch of an address nobody holds proven any more, whatever its state', () => {
    for (const ended of [watch(), watch({ subscription_id: null, state: 'subscribing' })]) {
      expect(planWatch(null, ended, URL_NOW)).toEqual({ action: 'end', watch: ended });
    }
  });

  it('does nothing for an address nobody holds and the server does not watch', () => {
    expect(planWatch(null, null, URL_NOW)).toEqual({ action: 'none' });
  });
});

describe('walletEventsUrl', () => {
  it('is process-payments with a query of its own, so it never is a demo hook’s URL', () => {
    expect(walletEventsUrl('https://ref.supabase.co/')).toBe(URL_NOW);
    expect(walletEventsUrl('http://127.0.0.1:54321')).toBe(URL_BEFORE);
    expect(walletEventsUrl('http://127.0.0.1:54321')).not.toBe(
      'http://127.0.0.1:54321/functions/v1/process-payments',
    );
  });
});

describe('failureText', () => {
  it('says whether Tatum refused, with its code, or could not be reached', () => {
    expect(failureText(new TatumError('Plan limit reached.', 'subscription.plan.limit'))).toBe(
      'Tatum refused (subscription.plan.limit): Plan limit reached.',
    );
    expect(failureText(new TatumError('fetch failed'))).toBe('Tatum unreachable: fetch failed');
    expect(failureText(new TatumError(null))).toBe('Tatum unreachable: no answer');
  });

  it('keeps of any other failure one line, with no URL past its host', () => {
    const failure = new Error(
      'recording the watch failed: https://ref.supabase.co/rest/v1/x?apikey=sb_secret_1\nat …',
    );
    expect(failureText(failure)).toBe('Error: recording the watch failed: https://ref.supabase.co');
  });
});
