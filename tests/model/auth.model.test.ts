import { expect } from 'vitest';
import { fromCallback } from 'xstate';
import type { AuthUser } from '../../src/domain/auth.ts';
import { authMachine, type AuthContext, type AuthFact } from '../../src/machines/auth.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { describeModel } from './support/index.ts';

const ada: AuthUser = {
  id: 'u-1',
  email: 'ada@example.com',
  emailConfirmedAt: '2024-01-01',
  web3Address: null,
  metadata: {},
};
const bob: AuthUser = {
  id: 'u-2',
  email: 'bob@example.com',
  emailConfirmedAt: '2024-01-01',
  web3Address: null,
  metadata: {},
};
const unconfirmed: AuthUser = { ...ada, emailConfirmedAt: null };
/** Signed in with Ethereum: no email, the address instead. */
const satoshi: AuthUser = {
  id: 'u-3',
  email: null,
  emailConfirmedAt: null,
  web3Address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  metadata: {},
};

const toasts: ToastRequest[] = [];
const reports: AuthFact[] = [];

const provide = {
  actions: {
    showToast: (_: unknown, params: ToastRequest) => void toasts.push(params),
    report: (_: unknown, params: AuthFact) => void reports.push(params),
  },
  // The paths send the stream's `auth.change` events themselves.
  actors: { authChanges: fromCallback(() => {}) },
};

// What a person checks in every state: a password only in the form, never after it.
const noPasswordOutsideTheForm = (context: AuthContext) => expect(context.password).toBe('');

describeModel({
  name: 'auth',
  machine: authMachine,
  deferredActors: ['getSession', 'signIn', 'signUp', 'signInWithWallet', 'signOut'],
  provide,
  input: { clientAvailable: true },
  // The form's text is not part of a vertex: what matters is the state, who is signed in and
  // whether a stored session was dropped while it was read.
  serializeState: (snapshot) =>
    JSON.stringify({
      value: snapshot.value,
      user: snapshot.context.user?.id ?? null,
      lost: snapshot.context.sessionLost,
    }),
  events: {
    'auth.open': [
      { type: 'auth.open', mode: 'login' },
      { type: 'auth.open', mode: 'signup' },
    ],
    'auth.edit': [{ type: 'auth.edit', email: 'ada@example.com', password: 'hunter22' }],
    'auth.submit': [
      { type: 'auth.submit', email: 'ada@example.com', password: 'hunter22' },
      { type: 'auth.submit', email: '', password: '' },
    ],
    'auth.change': [
      { type: 'auth.change', change: { event: 'SIGNED_IN', user: ada } },
      { type: 'auth.change', change: { event: 'SIGNED_IN', user: bob } },
      { type: 'auth.change', change: { event: 'USER_UPDATED', user: ada } },
      { type: 'auth.change', change: { event: 'TOKEN_REFRESHED', user: ada } },
      { type: 'auth.change', change: { event: 'SIGNED_OUT', user: null } },
    ],
    'xstate.done.actor.getSession': [
      { type: 'xstate.done.actor.getSession', output: ada },
      { type: 'xstate.done.actor.getSession', output: null },
    ],
    'xstate.error.actor.getSession': [{ type: 'xstate.error.actor.getSession', error: new Error('offline') }],
    'xstate.done.actor.signIn': [{ type: 'xstate.done.actor.signIn', output: ada }],
    'xstate.error.actor.signIn': [
      { type: 'xstate.error.actor.signIn', error: new Error('Invalid login credentials') },
    ],
    'xstate.done.actor.signUp': [
      { type: 'xstate.done.actor.signUp', output: { user: unconfirmed, hasSession: false } },
      { type: 'xstate.done.actor.signUp', output: { user: ada, hasSession: true } },
      { type: 'xstate.done.actor.signUp', output: { user: ada, hasSession: false } },
    ],
    'xstate.error.actor.signUp': [{ type: 'xstate.error.actor.signUp', error: new Error('weak password') }],
    'xstate.done.actor.signInWithWallet': [{ type: 'xstate.done.actor.signInWithWallet', output: satoshi }],
    'xstate.error.actor.signInWithWallet': [
      {
        type: 'xstate.error.actor.signInWithWallet',
        error: { code: 'rejected', message: 'User rejected the request.' },
      },
    ],
    'xstate.done.actor.signOut': [{ type: 'xstate.done.actor.signOut', output: undefined }],
    'xstate.error.actor.signOut': [{ type: 'xstate.error.actor.signOut', error: new Error('offline') }],
  },
  states: {
    'modal.closed': (s) => expect(s.context).toMatchObject({ email: '', password: '' }),
    'modal.login.submitting': (s) => expect(s.context.password).not.toBe(''),
    'modal.signup.submitting': (s) => expect(s.context.password).not.toBe(''),
    // The wallet signs instead: no password is held while it is asked.
    'modal.login.walletSignIn': (s) => noPasswordOutsideTheForm(s.context),
    'modal.signup.walletSignIn': (s) => noPasswordOutsideTheForm(s.context),
    'modal.checkEmail': (s) => {
      expect(s.context.email).toBe('ada@example.com');
      noPasswordOutsideTheForm(s.context);
    },
    'session.available.signedIn': (s) => expect(s.context.user).not.toBeNull(),
    'session.available.signedOut': (s) => expect(s.context.user).toBeNull(),
  },
});

describeModel({
  name: 'auth',
  machine: authMachine,
  provide,
  input: { clientAvailable: false },
  events: {
    'auth.open': [
      { type: 'auth.open', mode: 'login' },
      { type: 'auth.open', mode: 'signup' },
    ],
    'auth.edit': [{ type: 'auth.edit', email: 'ada@example.com' }],
    'auth.submit': [{ type: 'auth.submit', email: 'ada@example.com', password: 'hunter22' }],
  },
  states: {
    'session.unavailable': (s) => expect(s.context.user).toBeNull(),
    // Without a client a submit never reaches a request, so no password is kept.
    'modal.login.editing': (s) => noPasswordOutsideTheForm(s.context),
    'modal.signup.editing': (s) => noPasswordOutsideTheForm(s.context),
  },
});
