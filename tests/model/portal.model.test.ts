import { expect } from 'vitest';
import { portalMachine } from '../../src/machines/portal.machine.ts';
import type { AuthUser } from '../../src/domain/auth.ts';
import { PORTAL_INPUT, recordingChildren } from '../support/portal-stubs.ts';
import { describeModel } from './support/index.ts';

// The root's own chart: loading until the session and the wallet have settled,
// the welcome decision, the session (its children started and stopped) and the
// routing transitions. Children are recorders.
const user: AuthUser = {
  id: 'u1',
  email: 'ada@example.com',
  emailConfirmedAt: 'now',
  web3Address: null,
  metadata: {},
};
const bob: AuthUser = { ...user, id: 'u2', email: 'bob@example.com' };
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describeModel({
  name: 'portal',
  machine: portalMachine,
  input: PORTAL_INPUT,
  provide: { actors: recordingChildren([]), actions: { showToast: () => undefined } },
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
    'auth.userUpdated': [{ type: 'auth.userUpdated', user }],
    'wallet.connected': [{ type: 'wallet.connected', address: ADDRESS, chainId: 31337 }],
    'wallet.accountChanged': [{ type: 'wallet.accountChanged', address: ADDRESS, chainId: 31337 }],
    'wallet.chainChanged': [{ type: 'wallet.chainChanged', chainId: 1, onExpectedChain: false }],
    'send.transferSubmitted': [{ type: 'send.transferSubmitted', hash: '0x1234' }],
    'dialogs.opened': [
      { type: 'dialogs.opened', dialog: 'notifications' },
      { type: 'dialogs.opened', dialog: 'transactions' },
    ],
    'dialogs.closed': [{ type: 'dialogs.closed', dialog: 'profile' }],
    'toast.actionPressed': [{ type: 'toast.actionPressed', action: { type: 'wallet.switchNetwork' } }],
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
  states: {
    'boot.ready': (snapshot) => expect(snapshot.context.authReady && snapshot.context.walletReady).toBe(true),
    // The session's children live exactly as long as the signed-in state.
    'session.signedIn': (snapshot) => {
      expect(snapshot.context.user).not.toBeNull();
      expect(Object.keys(snapshot.children)).toEqual(
        expect.arrayContaining(['profile', 'notifications', 'transactions']),
      );
    },
    'session.signedOut': (snapshot) => {
      expect(snapshot.context.user).toBeNull();
      expect(snapshot.children.profile).toBeUndefined();
    },
  },
});
