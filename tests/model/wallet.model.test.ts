import { expect } from 'vitest';
import { fromCallback } from 'xstate';
import type { AuthUser } from '../../src/domain/auth.ts';
import type { WalletError } from '../../src/domain/wallet.ts';
import { walletMachine, type WalletFact } from '../../src/machines/wallet.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { describeModel } from './support/index.ts';

const SEPOLIA = { id: 11155111, name: 'Sepolia' };
const OTHER_CHAIN = 1;
const ALICE = '0x1234567890abcdef1234567890abcdef1234abcd';
const BOB = '0xb0b0000000000000000000000000000000000b0b';
const ada: AuthUser = {
  id: 'u-1',
  email: 'ada@example.com',
  emailConfirmedAt: null,
  web3Address: null,
  metadata: {},
};
const rejected: WalletError = { code: 'rejected', message: null };

const toasts: ToastRequest[] = [];
const reports: WalletFact[] = [];

const events = {
  'xstate.done.actor.discover': [
    { type: 'xstate.done.actor.discover', output: { available: true } },
    { type: 'xstate.done.actor.discover', output: { available: false } },
  ],
  'xstate.error.actor.discover': [{ type: 'xstate.error.actor.discover', error: new Error('no window') }],
  'xstate.done.actor.silentReconnect': [
    { type: 'xstate.done.actor.silentReconnect', output: null },
    { type: 'xstate.done.actor.silentReconnect', output: { address: ALICE, chainId: SEPOLIA.id } },
  ],
  'xstate.error.actor.silentReconnect': [{ type: 'xstate.error.actor.silentReconnect', error: rejected }],
  'xstate.done.actor.requestAccounts': [
    { type: 'xstate.done.actor.requestAccounts', output: { address: ALICE, chainId: SEPOLIA.id } },
    { type: 'xstate.done.actor.requestAccounts', output: { address: ALICE, chainId: OTHER_CHAIN } },
  ],
  'xstate.error.actor.requestAccounts': [{ type: 'xstate.error.actor.requestAccounts', error: rejected }],
  'xstate.error.actor.switchChain': [{ type: 'xstate.error.actor.switchChain', error: rejected }],
  'xstate.error.actor.copyAddress': [{ type: 'xstate.error.actor.copyAddress', error: new Error('denied') }],
  'xstate.error.actor.forgetConnection': [
    { type: 'xstate.error.actor.forgetConnection', error: new Error('full') },
  ],
  'session.changed': [
    { type: 'session.changed', user: ada },
    { type: 'session.changed', user: null },
  ],
  'wallet.accountsChanged': [
    { type: 'wallet.accountsChanged', accounts: [] },
    { type: 'wallet.accountsChanged', accounts: [BOB] },
  ],
  'wallet.chainChanged': [
    { type: 'wallet.chainChanged', chainId: SEPOLIA.id },
    { type: 'wallet.chainChanged', chainId: OTHER_CHAIN },
  ],
};

describeModel({
  name: 'wallet',
  machine: walletMachine,
  deferredActors: [
    'discover',
    'silentReconnect',
    'requestAccounts',
    'switchChain',
    'copyAddress',
    'forgetConnection',
  ],
  provide: {
    actions: {
      showToast: (_, params) => void toasts.push(params),
      report: (_, params) => void reports.push(params),
    },
    // The paths send the provider's events themselves.
    actors: { providerEvents: fromCallback(() => {}) },
  },
  input: { expectedChain: SEPOLIA },
  events,
  states: {
    discovering: (s) => expect(s.hasTag('busy')).toBe(true),
    reconnecting: (s) => expect(s.hasTag('busy')).toBe(true),
    connecting: (s) => expect(s.hasTag('busy')).toBe(true),
    noProvider: (s) => expect(s.context.address).toBeNull(),
    disconnected: (s) => expect(s.context).toMatchObject({ address: null, chainId: null }),
    disconnecting: (s) => expect(s.context).toMatchObject({ address: null, chainId: null }),
    connected: (s) => expect(s.context.address).toMatch(/^0x[0-9a-f]{40}$/),
    'connected.network.rightNetwork': (s) => expect(s.context.chainId).toBe(SEPOLIA.id),
    'connected.network.wrongNetwork': (s) => expect(s.context.chainId).not.toBe(SEPOLIA.id),
    'connected.network.switching': (s) => expect(s.hasTag('busy')).toBe(true),
    'connected.loginHint.waiting': (s) => expect(s.context.signedIn).toBe(false),
  },
});
