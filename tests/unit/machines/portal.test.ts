import { createActor } from 'xstate';
import { beforeEach, describe, expect, it } from 'vitest';
import { appCopy } from '../../../src/copy/index.ts';
import { portalMachine } from '../../../src/machines/portal.machine.ts';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import { toastDurations } from '../../../src/machines/toast.machine.ts';
import type { AuthUser } from '../../../src/services/supabase/types.ts';
import { PORTAL_INPUT, recordingChildren, type Delivery } from '../../support/portal-stubs.ts';

// The root routes the facts its children report (README's table) and decides
// the welcome toast. Its children are recorders here.

const user: AuthUser = { id: 'u1', email: 'ada@example.com', emailConfirmedAt: 'now', metadata: {} };
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let log: Delivery[];
let toasts: ToastRequest[];

function start() {
  const machine = portalMachine.provide({
    actors: recordingChildren(log),
    actions: { showToast: (_, params) => void toasts.push(params) },
  });
  return createActor(machine, { input: PORTAL_INPUT, systemId: 'portal' }).start();
}

const sentTo = (to: string) => log.filter((d) => d.to === to).map((d) => d.event);

beforeEach(() => {
  log = [];
  toasts = [];
});

describe('portal: the welcome toast', () => {
  it('welcomes a visitor for 6 s once the session and the wallet have settled and found nobody', () => {
    const portal = start();
    portal.send({ type: 'auth.ready', user: null });
    expect(toasts).toEqual([]);
    portal.send({ type: 'wallet.ready', address: null });
    expect(toasts).toEqual([{ ...appCopy.welcome, durationMs: toastDurations.welcome, onlyIfIdle: true }]);
    expect(portal.getSnapshot().value).toBe('ready');
  });

  it('does not welcome a returning user or a connected wallet', () => {
    const signedIn = start();
    signedIn.send({ type: 'wallet.ready', address: null });
    signedIn.send({ type: 'auth.ready', user });
    const withWallet = start();
    withWallet.send({ type: 'auth.ready', user: null });
    withWallet.send({ type: 'wallet.ready', address: ADDRESS });
    expect(toasts).toEqual([]);
    expect(signedIn.getSnapshot().value).toBe('ready');
    expect(withWallet.getSnapshot().value).toBe('ready');
  });
});

describe('portal: routing', () => {
  it('starts the session everywhere on sign-in, linking a wallet connected before', () => {
    const portal = start();
    portal.send({ type: 'wallet.connected', address: ADDRESS, chainId: 31337 });
    log.length = 0;
    portal.send({ type: 'auth.signedIn', user });
    for (const to of ['profile', 'notifications', 'transactions']) {
      expect(sentTo(to)).toContainEqual({ type: 'session.started', user });
    }
    for (const to of ['wallet', 'send', 'webhooks'])
      expect(sentTo(to)).toEqual([{ type: 'session.changed', user }]);
    expect(sentTo('profile')).toContainEqual({ type: 'wallet.linked', address: ADDRESS });
    expect(portal.getSnapshot().context.user).toEqual(user);
  });

  it('treats a stored session at start as a sign-in', () => {
    const portal = start();
    portal.send({ type: 'auth.ready', user });
    expect(sentTo('profile')).toEqual([{ type: 'session.started', user }]);
    expect(portal.getSnapshot().context.user).toEqual(user);
  });

  it('ends the session on sign-out and forgets the profile and unread count', () => {
    const portal = start();
    portal.send({ type: 'auth.signedIn', user });
    portal.send({ type: 'notifications.unread', count: 3 });
    portal.send({ type: 'profile.loaded', profile: null });
    log.length = 0;
    portal.send({ type: 'auth.signedOut' });
    for (const to of ['profile', 'notifications', 'transactions'])
      expect(sentTo(to)).toEqual([{ type: 'session.ended' }]);
    for (const to of ['wallet', 'send', 'webhooks']) {
      expect(sentTo(to)).toEqual([{ type: 'session.changed', user: null }]);
    }
    expect(portal.getSnapshot().context).toMatchObject({ user: null, profile: null, unread: 0 });
  });

  it('re-fetches the profile when the user is updated', () => {
    const portal = start();
    portal.send({ type: 'auth.userUpdated', user });
    expect(sentTo('profile')).toEqual([{ type: 'session.userUpdated', user }]);
  });

  it('tells balances, send and webhooks about the wallet, and the profile to link or unlink it', () => {
    const portal = start();
    portal.send({ type: 'wallet.connected', address: ADDRESS, chainId: 31337 });
    portal.send({ type: 'wallet.chainChanged', chainId: 1, onExpectedChain: false });
    portal.send({ type: 'wallet.accountChanged', address: '0xabc', chainId: 1 });
    portal.send({ type: 'wallet.disconnected' });
    expect(sentTo('balances')).toEqual([
      { type: 'wallet.changed', address: ADDRESS, chainId: 31337 },
      { type: 'wallet.changed', address: ADDRESS, chainId: 1 },
      { type: 'wallet.changed', address: '0xabc', chainId: 1 },
      { type: 'wallet.changed', address: null, chainId: null },
    ]);
    expect(sentTo('send')).toEqual(sentTo('balances'));
    expect(sentTo('webhooks')).toEqual(sentTo('balances'));
    expect(sentTo('profile')).toEqual([
      { type: 'wallet.linked', address: ADDRESS },
      { type: 'wallet.linked', address: '0xabc' },
      { type: 'wallet.unlinked' },
    ]);
    expect(portal.getSnapshot().context.walletAddress).toBeNull();
  });

  it('refreshes balances and history after a transfer', () => {
    const portal = start();
    portal.send({ type: 'send.transferSubmitted', hash: '0x1234' });
    expect(sentTo('balances')).toEqual([{ type: 'balances.refresh' }]);
    expect(sentTo('transactions')).toEqual([{ type: 'transactions.refresh' }]);
  });

  it('marks notifications read when their dialog opens, loads history when its opens, drops profile edits on close', () => {
    const portal = start();
    portal.send({ type: 'dialogs.opened', dialog: 'notifications' });
    portal.send({ type: 'dialogs.opened', dialog: 'transactions' });
    portal.send({ type: 'dialogs.opened', dialog: 'profile' });
    portal.send({ type: 'dialogs.closed', dialog: 'notifications' });
    portal.send({ type: 'dialogs.closed', dialog: 'profile' });
    expect(sentTo('notifications')).toEqual([{ type: 'notifications.open' }]);
    expect(sentTo('transactions')).toEqual([{ type: 'transactions.open' }]);
    expect(sentTo('profile')).toEqual([{ type: 'profile.discardEdits' }]);
  });

  it('keeps the unread count and the profile for the header', () => {
    const portal = start();
    portal.send({ type: 'notifications.unread', count: 2 });
    expect(portal.getSnapshot().context.unread).toBe(2);
  });

  it('passes an event named for a child (a toast’s action button) to that child, and drops the rest', () => {
    const portal = start();
    portal.send({ type: 'wallet.switchNetwork' } as never);
    portal.send({ type: 'nobody.listens' } as never);
    portal.send({ type: 'auth.ready', user: null });
    portal.send({ type: 'wallet.ready', address: null });
    portal.send({ type: 'wallet.ready', address: null });
    expect(log).toEqual([{ to: 'wallet', event: { type: 'wallet.switchNetwork' } }]);
  });
});
