import { beforeEach, expect } from 'vitest';
import type { AnyActorRef, AnyEventObject, SnapshotFrom } from 'xstate';
import { appCopy, transactionCopy } from '../../src/copy/index.ts';
import type { AuthUser } from '../../src/domain/auth.ts';
import { portalMachine, type PortalEvent } from '../../src/machines/portal/portal.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { toastDurations } from '../../src/machines/toast.machine.ts';
import { authUser } from '../support/fixtures.ts';
import { PORTAL_INPUT, recordingChild, recordingChildren, type Delivery } from '../support/portal-stubs.ts';
import { describeModel, inState, type ModelStep } from '../support/model/index.ts';

// The root's own chart: loading until the session and the wallet have settled, the welcome
// decision, the session (its children started and stopped), the Trading and Bots tabs' actors
// (spawned from the logic their loaders give) and the routing. Children are recorders, and every
// step checks the table of docs/architecture.md: for the fact the path reported, which children
// were told what, with the user, address and chain the fact carried.

type Snapshot = SnapshotFrom<typeof portalMachine>;

const user = authUser('u1', 'ada@example.com', { emailConfirmedAt: 'now' });
const bob: AuthUser = { ...user, id: 'u2', email: 'bob@example.com' };
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER_ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const SESSION = ['profile', 'notifications', 'transactions'];
const HASH = `0x${'ab'.repeat(32)}` as const;

// What the root's children were told in the step the path just took (the rest of what the step
// did is describeModel's `step`), and how often it welcomed the user.
const deliveries: Delivery[] = [];
let welcomed = 0;

/** The tabs' root logic as their loaders give it: recorders, named by what they stand for. */
const tradingLogic = recordingChild('trading', deliveries);
const botsLogic = recordingChild('bots', deliveries);
/** The faucet's logic as its loader gives it, with a signed-in session. */
const faucetLogic = recordingChild('faucet', deliveries);

beforeEach(() => {
  deliveries.length = 0;
  welcomed = 0;
});

const children = (s: Snapshot) => s.children as Record<string, AnyActorRef | undefined>;
const started = (input: unknown) => ({ type: 'started', input });

/** What each child was told, in order; the order between children is the system's business. */
function byChild(list: Delivery[]): Record<string, AnyEventObject[]> {
  const told: Record<string, AnyEventObject[]> = {};
  for (const { to, event } of list) (told[to] ??= []).push(event);
  return told;
}

/** What the children must have been told, and the toasts shown, after `fact` in `from`. */
function expectedAfter(fact: PortalEvent, from: Snapshot, to: Snapshot) {
  const told: Delivery[] = [];
  const shown: ToastRequest[] = [];
  const tell = (to: string, event: AnyEventObject) => told.push({ to, event });
  const signedIn = inState(from, 'session.signedIn');
  const wallet = { address: to.context.walletAddress, chainId: to.context.walletChainId };
  // The tabs' actors that run in this step hear the wallet and the session as every watcher does.
  const tabs = (['trading', 'bots'] as const).filter((id) => from.context[id] !== null);
  const walletWatchers = ['balances', 'send', 'webhooks', ...tabs.filter((id) => id === 'trading')];
  const sessionWatchers = ['wallet', 'send', ...tabs];
  const tellWallet = () => walletWatchers.forEach((id) => tell(id, { type: 'wallet.changed', ...wallet }));
  /** A session starts: its children start with the user, its watchers hear who it is. */
  const startSession = (who: AuthUser) => {
    tell('profile', started({ user: who, walletAddress: to.context.walletAddress }));
    tell('notifications', started({ user: who }));
    tell('transactions', started({ user: who }));
    sessionWatchers.forEach((id) => tell(id, { type: 'session.changed', user: who }));
  };
  const endSession = () => {
    sessionWatchers.forEach((id) => tell(id, { type: 'session.changed', user: null }));
    tell('dialogs', { type: 'session.ended' });
  };
  switch (fact.type) {
    case 'auth.ready':
      if (fact.user && !signedIn) startSession(fact.user);
      break;
    case 'auth.signedIn':
      if (!signedIn) startSession(fact.user);
      else if (fact.user.id !== from.context.user?.id) {
        // Another account without a sign-out in between: a new session from scratch.
        endSession();
        startSession(fact.user);
      }
      break;
    case 'auth.signedOut':
      if (signedIn) endSession();
      break;
    case 'auth.userUpdated':
      tell('profile', { type: 'session.userUpdated', user: fact.user });
      break;
    // An alert's link turned email off: a signed-in page reads the profile again.
    case 'unsubscribe.done':
      if (signedIn) tell('profile', { type: 'session.userUpdated', user: from.context.user });
      break;
    case 'wallet.connected':
    case 'wallet.accountChanged':
      tellWallet();
      if (signedIn) tell('profile', { type: 'wallet.linked', address: fact.address });
      break;
    case 'wallet.disconnected':
      tellWallet();
      if (signedIn) tell('profile', { type: 'wallet.unlinked' });
      break;
    case 'wallet.chainChanged':
      tellWallet();
      break;
    case 'send.transferSubmitted':
      tell('balances', { type: 'balances.refresh' });
      if (signedIn) tell('transactions', { type: 'transactions.refresh' });
      break;
    case 'dialogs.opened':
      // Signed out, the history asks for an account instead of showing an empty list.
      if (!signedIn && fact.dialog === 'transactions')
        shown.push({ ...transactionCopy.loginRequired, variant: 'destructive' });
      if (signedIn && fact.dialog === 'notifications') tell('notifications', { type: 'notifications.open' });
      if (signedIn && fact.dialog === 'transactions') tell('transactions', { type: 'transactions.open' });
      break;
    case 'dialogs.closed':
      if (signedIn && fact.dialog === 'profile') tell('profile', { type: 'profile.discardEdits' });
      break;
    case 'toast.actionPressed':
      tell('wallet', fact.action);
      break;
    case 'toast.requested':
      tell('toast', { type: 'toast.show', toast: fact.toast });
      break;
    case 'trading.swapConfirmed':
      tell('balances', { type: 'balances.refresh' });
      break;
    case 'trading.swapRecorded':
      if (signedIn) {
        tell('transactions', { type: 'transactions.refresh' });
        // The profile is read again: the swap moved its last DEX activity.
        tell('profile', { type: 'session.userUpdated', user: from.context.user });
      }
      break;
    // A paid faucet claim moves the DDEX balance.
    case 'faucet.claimed':
      tell('balances', { type: 'balances.refresh' });
      break;
  }
  // A tab's actor starts once its code has loaded, with the page as it is then.
  const { context } = from;
  if ((fact.type as string) === 'xstate.done.actor.loadTrading')
    tell(
      'trading',
      started({
        expectedChainId: context.config.expectedChain.id,
        account: context.walletAddress,
        chainId: context.walletChainId,
        signedIn: context.user !== null,
      }),
    );
  if ((fact.type as string) === 'xstate.done.actor.loadBots')
    tell('bots', started({ userId: context.user?.id ?? null }));
  // The faucet's actor starts once its code has loaded with the session; it needs no input.
  if ((fact.type as string) === 'xstate.done.actor.loadFaucet') tell('faucet', started(undefined));
  return { told, shown };
}

/** The root's own record after `fact`: who is signed in, the wallet, whether loading has finished. */
function checkRecord(fact: PortalEvent, from: Snapshot, to: Snapshot) {
  const { context } = to;
  switch (fact.type) {
    case 'auth.ready':
      expect(context.authReady).toBe(true);
      if (fact.user && !inState(from, 'session.signedIn')) expect(context.user).toEqual(fact.user);
      break;
    case 'wallet.ready':
      expect(context).toMatchObject({ walletReady: true, walletAddress: fact.address });
      break;
    case 'auth.signedIn':
      expect(context.user).toEqual(fact.user);
      break;
    case 'auth.userUpdated':
      expect(context.user).toEqual(fact.user);
      break;
    case 'wallet.connected':
    case 'wallet.accountChanged':
      expect(context).toMatchObject({ walletAddress: fact.address, walletChainId: fact.chainId });
      break;
    case 'wallet.chainChanged':
      expect(context).toMatchObject({
        walletAddress: from.context.walletAddress,
        walletChainId: fact.chainId,
      });
      break;
    case 'wallet.disconnected':
      expect(context).toMatchObject({ walletAddress: null, walletChainId: null });
      break;
  }
}

function everyStep(s: Snapshot, { before, events, sentTo }: ModelStep<typeof portalMachine>) {
  const fact = events.at(-1) as PortalEvent | undefined;
  if (!before) {
    // At start every child of the page starts, with its slice of the configuration.
    expect(deliveries).toEqual(
      expect.arrayContaining([
        { to: 'theme', event: started(PORTAL_INPUT.theme) },
        { to: 'auth', event: started(PORTAL_INPUT.auth) },
        {
          to: 'wallet',
          event: started({ expectedChain: PORTAL_INPUT.expectedChain, offersLocalWallet: false }),
        },
        { to: 'balances', event: started({ tokenConfigured: PORTAL_INPUT.tokenConfigured }) },
        { to: 'send', event: started({ tokenConfigured: PORTAL_INPUT.tokenConfigured }) },
      ]),
    );
  } else if (fact) {
    checkRecord(fact, before, s);
    const { told, shown } = expectedAfter(fact, before, s);
    // The welcome toast, once, when loading has finished and found nobody (docs/product.md#loading).
    const nobody = s.context.user === null && s.context.walletAddress === null;
    if (inState(before, 'boot.loading') && inState(s, 'boot.ready') && nobody) {
      shown.push({ ...appCopy.welcome, durationMs: toastDurations.welcome, onlyIfIdle: true });
      welcomed += 1;
    }
    // The root shows its own toasts as it shows its children's: it tells the toast actor.
    const asked = fact.type === 'toast.requested' ? [fact.toast] : [];
    const toasts = sentTo('toast').map(({ params }) => (params as AnyEventObject).toast as ToastRequest);
    expect(toasts, `the toasts after ${fact.type}`).toEqual([...asked, ...shown]);
    for (const toast of shown) told.push({ to: 'toast', event: { type: 'toast.show', toast } });
    expect(byChild(deliveries), `what the children were told after ${fact.type}`).toEqual(byChild(told));
  }
  expect(welcomed).toBeLessThanOrEqual(1);
  deliveries.length = 0;
  // Loading has finished once both the session and the wallet have said so.
  expect(inState(s, 'boot.ready')).toBe(s.context.authReady && s.context.walletReady);
  // The session's children live exactly as long as the signed-in state.
  const session = SESSION.filter((id) => children(s)[id] !== undefined);
  expect(session).toEqual(inState(s, 'session.signedIn') ? SESSION : []);
  expect(s.context.user !== null).toBe(inState(s, 'session.signedIn'));
  // A tab's actor runs exactly while the tab is shown and its code has loaded, in the one system.
  for (const tab of ['trading', 'bots'] as const) {
    const running = inState(s, `tabActors.${tab}.running`);
    expect(s.context[tab] !== null, `${tab}'s actor`).toBe(running);
    expect(s.context[tab]?.getSnapshot().status ?? null).toBe(running ? 'active' : null);
    if (running) expect(s.context[tab]?.system).toBe(children(s)['toast']?.system);
  }
  // The faucet's actor runs exactly while a user is signed in and its code has loaded, in the one
  // system; a session's end stops it.
  const faucet = inState(s, 'session.signedIn.faucetRunning');
  expect(s.context.faucet !== null, "the faucet's actor").toBe(faucet);
  expect(s.context.faucet?.getSnapshot().status ?? null).toBe(faucet ? 'active' : null);
  if (faucet) expect(s.context.faucet?.system).toBe(children(s)['toast']?.system);
  if (before?.context.faucet && before.context.faucet !== s.context.faucet)
    expect(before.context.faucet.getSnapshot().status).toBe('stopped');
}

describeModel({
  name: 'portal',
  machine: portalMachine,
  input: PORTAL_INPUT,
  asRoot: true,
  actors: recordingChildren(deliveries),
  events: {
    'auth.ready': [
      { type: 'auth.ready', user: null },
      { type: 'auth.ready', user },
    ],
    'wallet.ready': [
      { type: 'wallet.ready', address: null },
      { type: 'wallet.ready', address: ADDRESS },
    ],
    'auth.signedIn': [
      { type: 'auth.signedIn', user },
      { type: 'auth.signedIn', user: bob },
    ],
    'auth.userUpdated': [{ type: 'auth.userUpdated', user: { ...user, email: 'ada@new.example.com' } }],
    'wallet.connected': [{ type: 'wallet.connected', address: ADDRESS, chainId: 31337 }],
    'wallet.accountChanged': [{ type: 'wallet.accountChanged', address: OTHER_ADDRESS, chainId: 31337 }],
    'wallet.chainChanged': [{ type: 'wallet.chainChanged', chainId: 1, onExpectedChain: false }],
    'send.transferSubmitted': [{ type: 'send.transferSubmitted', hash: '0x1234' }],
    'dialogs.opened': [
      { type: 'dialogs.opened', dialog: 'notifications' },
      { type: 'dialogs.opened', dialog: 'transactions' },
    ],
    'dialogs.closed': [{ type: 'dialogs.closed', dialog: 'profile' }],
    'toast.actionPressed': [{ type: 'toast.actionPressed', action: { type: 'wallet.switchNetwork' } }],
    'toast.requested': [{ type: 'toast.requested', toast: { title: 'Saved' } }],
    'tab.shown': [
      { type: 'tab.shown', tab: 'trading' },
      { type: 'tab.shown', tab: 'bots' },
      { type: 'tab.shown', tab: 'faq' },
    ],
    'xstate.done.actor.loadTrading': [{ type: 'xstate.done.actor.loadTrading', output: tradingLogic }],
    'xstate.error.actor.loadTrading': [
      { type: 'xstate.error.actor.loadTrading', error: new Error('offline') },
    ],
    'xstate.done.actor.loadBots': [{ type: 'xstate.done.actor.loadBots', output: botsLogic }],
    'xstate.error.actor.loadBots': [{ type: 'xstate.error.actor.loadBots', error: new Error('offline') }],
    'trading.swapConfirmed': [
      { type: 'trading.swapConfirmed', hash: HASH, side: 'buy', amountIn: 10n, amountOut: 20n },
    ],
    'trading.swapRecorded': [{ type: 'trading.swapRecorded', hash: HASH }],
    'unsubscribe.done': [{ type: 'unsubscribe.done', kind: 'bots' }],
    'xstate.done.actor.loadFaucet': [{ type: 'xstate.done.actor.loadFaucet', output: faucetLogic }],
    'xstate.error.actor.loadFaucet': [{ type: 'xstate.error.actor.loadFaucet', error: new Error('offline') }],
  },
  // A graph over every combination of facts would be huge: a vertex is the state and whether
  // anybody is known, which is all the root's guards read.
  serializeState: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      snapshot.context.authReady,
      snapshot.context.walletReady,
      snapshot.context.user?.id ?? null,
      snapshot.context.walletAddress !== null,
    ]),
  states: { '*': everyStep },
});
