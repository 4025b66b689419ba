import { beforeEach, describe, expect, it } from 'vitest';
import { appCopy, transactionCopy } from '../../../src/copy/index.ts';
import type { AuthUser } from '../../../src/domain/auth.ts';
import {
  portalMachine,
  SESSION_CHILDREN,
  type PortalEvent,
} from '../../../src/machines/portal/portal.machine.ts';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import { toastDurations } from '../../../src/machines/toast.machine.ts';
import { machineHarness } from '../../support/machines/harness.ts';
import {
  PORTAL_INPUT,
  recordingChild,
  recordingChildren,
  type Delivery,
  type Started,
} from '../../support/portal-stubs.ts';

// The root tells its children what the others reported (README's table),
// starts and stops the session's children, and decides the welcome toast.
// Its children are recorders here.

const user: AuthUser = {
  id: 'u1',
  email: 'ada@example.com',
  emailConfirmedAt: 'now',
  web3Address: null,
  metadata: {},
};
const bob: AuthUser = { ...user, id: 'u2', email: 'bob@example.com' };
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let log: Delivery[];

function start() {
  const h = machineHarness(portalMachine, {
    asRoot: true,
    input: PORTAL_INPUT,
    actors: recordingChildren(log),
  });
  return {
    send: (event: PortalEvent) => h.send(event),
    snapshot: h.snapshot,
    /** Shows a tab whose root actor has loaded: a recorder logging as the tab's id. */
    async open(tab: 'trading' | 'bots') {
      const shown: PortalEvent = { type: 'tab.shown', tab };
      h.send(shown);
      await h.answer(tab === 'trading' ? 'loadTrading' : 'loadBots', recordingChild(tab, log));
    },
  };
}

/** What the root sent a child, after it started. */
const sentTo = (to: string) =>
  log.filter((d) => d.to === to && d.event.type !== 'started').map((d) => d.event);
/** The inputs a child was started with, one per start. */
const startsOf = (to: string) =>
  log
    .filter((d) => d.to === to && d.event.type === 'started')
    .map((d) => (d.event as unknown as Started).input);
/** The toasts the root showed: what it told the toast actor to show. */
const toasts = (): ToastRequest[] =>
  sentTo('toast')
    .filter((event) => event.type === 'toast.show')
    .map((event) => (event as unknown as { toast: ToastRequest }).toast);
const sessionChildren = (portal: ReturnType<typeof start>) =>
  SESSION_CHILDREN.filter((id) => portal.snapshot().children[id] !== undefined);

beforeEach(() => {
  log = [];
});

describe('portal: the welcome toast', () => {
  it('welcomes a visitor for 6 s once the session and the wallet have settled and found nobody', () => {
    const portal = start();
    portal.send({ type: 'auth.ready', user: null });
    expect(toasts()).toEqual([]);
    portal.send({ type: 'wallet.ready', address: null });
    expect(toasts()).toEqual([{ ...appCopy.welcome, durationMs: toastDurations.welcome, onlyIfIdle: true }]);
    expect(portal.snapshot().matches({ boot: 'ready' })).toBe(true);
  });

  it('does not welcome a returning user or a connected wallet', () => {
    const signedIn = start();
    signedIn.send({ type: 'wallet.ready', address: null });
    signedIn.send({ type: 'auth.ready', user });
    const withWallet = start();
    withWallet.send({ type: 'auth.ready', user: null });
    withWallet.send({ type: 'wallet.ready', address: ADDRESS });
    expect(toasts()).toEqual([]);
    expect(signedIn.snapshot().matches({ boot: 'ready' })).toBe(true);
    expect(withWallet.snapshot().matches({ boot: 'ready' })).toBe(true);
  });

  it('welcomes nobody twice: a late ready fact changes nothing', () => {
    const portal = start();
    portal.send({ type: 'auth.ready', user: null });
    portal.send({ type: 'wallet.ready', address: null });
    portal.send({ type: 'wallet.ready', address: null });
    expect(toasts()).toHaveLength(1);
  });
});

describe('portal: the session', () => {
  it('has no session children while nobody is signed in', () => {
    const portal = start();
    portal.send({ type: 'auth.ready', user: null });
    expect(sessionChildren(portal)).toEqual([]);
  });

  it('starts profile, notifications and transactions with the user, and the profile with a wallet connected before', () => {
    const portal = start();
    portal.send({ type: 'wallet.connected', address: ADDRESS, chainId: 31337 });
    log.length = 0;
    portal.send({ type: 'auth.signedIn', user });
    expect(sessionChildren(portal)).toEqual(['profile', 'notifications', 'transactions']);
    expect(startsOf('profile')).toEqual([{ user, walletAddress: ADDRESS }]);
    expect(startsOf('notifications')).toEqual([{ user }]);
    expect(startsOf('transactions')).toEqual([{ user }]);
    for (const to of ['wallet', 'send']) expect(sentTo(to)).toEqual([{ type: 'session.changed', user }]);
    expect(portal.snapshot().context.user).toEqual(user);
  });

  it('treats a stored session at start as a sign-in', () => {
    const portal = start();
    portal.send({ type: 'auth.ready', user });
    expect(startsOf('profile')).toEqual([{ user, walletAddress: null }]);
    expect(portal.snapshot().context.user).toEqual(user);
  });

  it('stops the session children on sign-out and tells the watchers and the dialogs', () => {
    const portal = start();
    portal.send({ type: 'auth.signedIn', user });
    log.length = 0;
    portal.send({ type: 'auth.signedOut' });
    expect(sessionChildren(portal)).toEqual([]);
    for (const to of ['wallet', 'send']) {
      expect(sentTo(to)).toEqual([{ type: 'session.changed', user: null }]);
    }
    expect(sentTo('dialogs')).toEqual([{ type: 'session.ended' }]);
    expect(sentTo('webhooks')).toEqual([]);
    expect(portal.snapshot().context.user).toBeNull();
  });

  it('starts a fresh session for another account signed in without a sign-out', () => {
    const portal = start();
    portal.send({ type: 'auth.signedIn', user });
    const first = portal.snapshot().children.profile;
    log.length = 0;
    portal.send({ type: 'auth.signedIn', user: bob });
    expect(portal.snapshot().children.profile).not.toBe(first);
    expect(startsOf('profile')).toEqual([{ user: bob, walletAddress: null }]);
    expect(sentTo('wallet')).toEqual([
      { type: 'session.changed', user: null },
      { type: 'session.changed', user: bob },
    ]);
  });

  it('keeps the session when the same account signs in again', () => {
    const portal = start();
    portal.send({ type: 'auth.signedIn', user });
    const first = portal.snapshot().children.profile;
    portal.send({ type: 'auth.signedIn', user });
    expect(portal.snapshot().children.profile).toBe(first);
  });

  it('tells the profile when the user is updated, and only while signed in', () => {
    const portal = start();
    portal.send({ type: 'auth.userUpdated', user });
    portal.send({ type: 'auth.signedIn', user });
    portal.send({ type: 'auth.userUpdated', user: { ...user, metadata: { username: 'ada' } } });
    expect(sentTo('profile')).toEqual([
      { type: 'session.userUpdated', user: { ...user, metadata: { username: 'ada' } } },
    ]);
  });
});

describe('portal: the wallet', () => {
  it('tells balances, send and webhooks about the wallet and its chain', () => {
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
    expect(portal.snapshot().context.walletAddress).toBeNull();
  });

  it('has the profile link and unlink the wallet while signed in', () => {
    const portal = start();
    portal.send({ type: 'auth.signedIn', user });
    portal.send({ type: 'wallet.connected', address: ADDRESS, chainId: 31337 });
    portal.send({ type: 'wallet.chainChanged', chainId: 1, onExpectedChain: false });
    portal.send({ type: 'wallet.accountChanged', address: '0xabc', chainId: 1 });
    portal.send({ type: 'wallet.disconnected' });
    expect(sentTo('profile')).toEqual([
      { type: 'wallet.linked', address: ADDRESS },
      { type: 'wallet.linked', address: '0xabc' },
      { type: 'wallet.unlinked' },
    ]);
    expect(sentTo('balances')).toHaveLength(4);
  });
});

describe('portal: transfers, dialogs and toasts', () => {
  it('refreshes balances after a transfer, and the history too when signed in', () => {
    const portal = start();
    portal.send({ type: 'send.transferSubmitted', hash: '0x1234' });
    expect(sentTo('balances')).toEqual([{ type: 'balances.refresh' }]);
    portal.send({ type: 'auth.signedIn', user });
    portal.send({ type: 'send.transferSubmitted', hash: '0x5678' });
    expect(sentTo('balances')).toEqual([{ type: 'balances.refresh' }, { type: 'balances.refresh' }]);
    expect(sentTo('transactions')).toEqual([{ type: 'transactions.refresh' }]);
  });

  it('marks notifications read when their dialog opens, loads history when its opens, drops profile edits on close', () => {
    const portal = start();
    portal.send({ type: 'auth.signedIn', user });
    portal.send({ type: 'dialogs.opened', dialog: 'notifications' });
    portal.send({ type: 'dialogs.opened', dialog: 'transactions' });
    portal.send({ type: 'dialogs.opened', dialog: 'profile' });
    portal.send({ type: 'dialogs.closed', dialog: 'notifications' });
    portal.send({ type: 'dialogs.closed', dialog: 'profile' });
    expect(sentTo('notifications')).toEqual([{ type: 'notifications.open' }]);
    expect(sentTo('transactions')).toEqual([{ type: 'transactions.open' }]);
    expect(sentTo('profile')).toEqual([{ type: 'profile.discardEdits' }]);
    expect(toasts()).toEqual([]);
  });

  it("says 'Login Required' when the history opens signed out", () => {
    const portal = start();
    portal.send({ type: 'dialogs.opened', dialog: 'transactions' });
    portal.send({ type: 'dialogs.opened', dialog: 'notifications' });
    expect(toasts()).toEqual([{ ...transactionCopy.loginRequired, variant: 'destructive' }]);
  });

  it("sends a toast's action to the machine that handles it", () => {
    const portal = start();
    portal.send({ type: 'toast.actionPressed', action: { type: 'wallet.switchNetwork' } });
    expect(sentTo('wallet')).toContainEqual({ type: 'wallet.switchNetwork' });
  });
});

describe('portal: the tabs with actors of their own', () => {
  it('tells the open trading tab the session and the wallet, and the open bots tab the session', async () => {
    const portal = start();
    await portal.open('trading');
    portal.send({ type: 'auth.signedIn', user });
    portal.send({ type: 'wallet.connected', address: ADDRESS, chainId: 31337 });
    expect(sentTo('trading')).toEqual([
      { type: 'session.changed', user },
      { type: 'wallet.changed', address: ADDRESS, chainId: 31337 },
    ]);

    await portal.open('bots');
    portal.send({ type: 'auth.signedOut' });
    expect(startsOf('bots')).toEqual([{ userId: user.id }]);
    expect(sentTo('bots')).toEqual([{ type: 'session.changed', user: null }]);
  });

  it("keeps the trading tab's actor when its tab is selected again", async () => {
    const portal = start();
    await portal.open('trading');
    const trading = portal.snapshot().context.trading;
    portal.send({ type: 'tab.shown', tab: 'trading' });
    expect(portal.snapshot().context.trading).toBe(trading);
    expect(startsOf('trading')).toHaveLength(1);
  });
});
