import { and, assign, fromCallback, fromPromise, not, raise, setup, stateIn } from 'xstate';
import type { EventObject } from 'xstate';
import { authCopy } from '../copy/index.ts';
import type { AuthChange, AuthUser, Credentials, SignUpResult } from '../domain/auth.ts';
import { closeClears, editingHandlers, failed, walletSignInState } from './auth-forms.ts';
import { notProvided, reportFact, showToast } from './shared.ts';

// The auth dialog, the session and their toasts: docs/product.md#auth-dialog, #session, #auth-toasts.
//
// Three parallel regions:
// - session: what the backend says (getSession, then the auth change stream). Only this
//   region reports signedIn / signedOut / userUpdated, so a fact is reported once whatever
//   order the stream and the requests answer in.
// - modal: the login / signup form, its requests and their toasts. Either form also offers
//   Sign in with Ethereum (`auth.signInWithWallet`): the connected wallet signs a message
//   instead of a password being sent, and it ends as a login does.
// - signOut: the logout request and its toast.
// A request that changes the session also raises the change it implies (SIGNED_IN with
// the user, SIGNED_OUT), so the session follows even if the stream is late; the stream's
// own copy of it then changes nothing.
//
// Client not available (input.clientAvailable false, i.e. no Supabase configuration):
// - at start, once: 'Initialization Error' — the session cannot be read, so the portal
//   starts signed out (auth.ready with no user) and no change stream is opened;
// - on every submit of the form: 'Error' / 'Supabase client not available. Please try
//   again.' — the form stays open with what was typed.

export type AuthMode = 'login' | 'signup';
export type AuthInput = { clientAvailable: boolean };

export type AuthContext = {
  clientAvailable: boolean;
  user: AuthUser | null;
  /** What the form holds; the check-your-email state shows `email`. */
  email: string;
  /** Only while the form is open; cleared when a submit ends and on close. */
  password: string;
  /** The stored session was dropped (SIGNED_OUT) while it was being read: it had expired for good. */
  sessionLost: boolean;
};

/** The facts this machine reports to the root (README protocol). */
export type AuthFact =
  | { type: 'auth.ready'; user: AuthUser | null }
  | { type: 'auth.signedIn'; user: AuthUser }
  | { type: 'auth.signedOut' }
  | { type: 'auth.userUpdated'; user: AuthUser };

/** What the wallet sign-in needs from the machine: the connected address and the message's plain line. */
export type WalletSignInInput = { address: string; statement: string };

export type AuthEvent =
  /**
   * From the `authChanges` actor; `expected` when this machine raises the change a request of its own
   * implies (a logout), so only a session that ends unasked is announced.
   */
  | { type: 'auth.change'; change: AuthChange; expected?: boolean }
  | { type: 'auth.open'; mode: AuthMode }
  | { type: 'auth.toggleMode' }
  | { type: 'auth.close' }
  | { type: 'auth.edit'; email?: string; password?: string }
  | { type: 'auth.submit'; email: string; password: string }
  /** Sign in with the connected wallet (the view offers it only while one is connected). */
  | { type: 'auth.signInWithWallet'; address: string }
  | { type: 'auth.confirmOk' }
  | { type: 'auth.signOut' };

function changeOf(event: AuthEvent): AuthChange | null {
  return event.type === 'auth.change' ? event.change : null;
}

/** The user of a change that a guard has already checked to carry one. */
function changeUser(event: AuthEvent): AuthUser {
  const user = changeOf(event)?.user;
  if (!user) throw new Error('auth: this transition is guarded to changes that carry a user');
  return user;
}

export const authMachine = setup({
  types: {} as { context: AuthContext; events: AuthEvent; input: AuthInput },
  actors: {
    getSession: fromPromise<AuthUser | null>(notProvided('getSession')),
    /** Sends back `auth.change { change }` for every auth state change; unsubscribes when stopped. */
    authChanges: fromCallback<EventObject>(notProvided('authChanges')),
    signIn: fromPromise<AuthUser, Credentials>(notProvided('signIn')),
    signUp: fromPromise<SignUpResult, Credentials>(notProvided('signUp')),
    /**
     * Sign in with Ethereum: the connected wallet signs a message for this site and the portal's
     * chain (the composition root knows both), then the backend signs its owner in.
     */
    signInWithWallet: fromPromise<AuthUser, WalletSignInInput>(notProvided('signInWithWallet')),
    /** Its output is not used. */
    signOut: fromPromise<unknown>(notProvided('signOut')),
  },
  actions: {
    showToast,
    report: reportFact<AuthFact>(),
    takeChangeUser: assign({ user: ({ event }) => changeOf(event)?.user ?? null }),
    forgetUser: assign({ user: null }),
    editFields: assign(({ context, event }) =>
      event.type === 'auth.edit'
        ? { email: event.email ?? context.email, password: event.password ?? context.password }
        : {},
    ),
    takeSubmittedFields: assign(({ event }) =>
      event.type === 'auth.submit' ? { email: event.email.trim(), password: event.password } : {},
    ),
    clearPassword: assign({ password: '' }),
    /** The change a successful sign-in implies, so the session follows even if the stream is late. */
    raiseSignedIn: raise((_, user: AuthUser) => ({
      type: 'auth.change' as const,
      change: { event: 'SIGNED_IN' as const, user },
    })),
    clearFields: assign({ email: '', password: '' }),
  },
  guards: {
    clientMissing: ({ context }) => !context.clientAvailable,
    fieldsMissing: ({ event }) =>
      event.type === 'auth.submit' && (event.email.trim() === '' || event.password === ''),
    changeHasUser: ({ event }) => changeOf(event)?.user != null,
    changeHasNoUser: ({ event }) => changeOf(event) !== null && changeOf(event)?.user == null,
    changeIsOtherUser: ({ context, event }) => {
      const user = changeOf(event)?.user;
      return user != null && context.user != null && user.id !== context.user.id;
    },
    changeIsUserUpdate: ({ event }) => changeOf(event)?.event === 'USER_UPDATED',
    signedOutUnasked: ({ event }) =>
      event.type === 'auth.change' && event.change.event === 'SIGNED_OUT' && event.expected !== true,
    /** The session ended without a logout of ours: expired for good, or ended in another tab. */
    sessionEndedUnasked: and(['signedOutUnasked', not(stateIn('#auth.signOut.requesting'))]),
    sessionWasLost: ({ context }) => context.sessionLost,
  },
}).createMachine({
  id: 'auth',
  type: 'parallel',
  context: ({ input }) => ({
    clientAvailable: input.clientAvailable,
    user: null,
    email: '',
    password: '',
    sessionLost: false,
  }),
  states: {
    session: {
      initial: 'starting',
      states: {
        starting: {
          always: [{ guard: 'clientMissing', target: 'unavailable' }, { target: 'available' }],
        },
        unavailable: {
          entry: [
            { type: 'showToast', params: { ...authCopy.initError, variant: 'destructive' } },
            { type: 'report', params: { type: 'auth.ready', user: null } },
          ],
        },
        available: {
          invoke: { id: 'authChanges', src: 'authChanges' },
          initial: 'loading',
          states: {
            // Changes that arrive before getSession answers are ignored (the stream's first
            // event, INITIAL_SESSION, says what getSession says, and anything later arrives
            // after it and is handled below), except a SIGNED_OUT: the stored session was
            // dropped as it was read, which 'Session Ended' then says.
            loading: {
              // supabase-js drops a stored session it cannot refresh (SIGNED_OUT) before the read answers.
              on: { 'auth.change': { guard: 'sessionEndedUnasked', actions: assign({ sessionLost: true }) } },
              invoke: {
                id: 'getSession',
                src: 'getSession',
                onDone: [
                  {
                    guard: ({ event }) => event.output !== null,
                    target: 'signedIn',
                    actions: [
                      assign({ user: ({ event }) => event.output }),
                      { type: 'report', params: ({ event }) => ({ type: 'auth.ready', user: event.output }) },
                    ],
                  },
                  {
                    guard: 'sessionWasLost',
                    target: 'signedOut',
                    actions: [
                      { type: 'showToast', params: { ...authCopy.sessionEnded, variant: 'destructive' } },
                      { type: 'report', params: { type: 'auth.ready', user: null } },
                    ],
                  },
                  {
                    target: 'signedOut',
                    actions: { type: 'report', params: { type: 'auth.ready', user: null } },
                  },
                ],
                onError: {
                  target: 'signedOut',
                  actions: [
                    { type: 'showToast', params: { ...authCopy.sessionError, variant: 'destructive' } },
                    { type: 'report', params: { type: 'auth.ready', user: null } },
                  ],
                },
              },
            },
            // Any change that carries a user means there is a session (SIGNED_IN,
            // INITIAL_SESSION, but also PASSWORD_RECOVERY from a recovery link).
            signedOut: {
              on: {
                'auth.change': {
                  guard: 'changeHasUser',
                  target: 'signedIn',
                  actions: [
                    'takeChangeUser',
                    {
                      type: 'report',
                      params: ({ event }) => ({ type: 'auth.signedIn', user: changeUser(event) }),
                    },
                  ],
                },
              },
            },
            signedIn: {
              on: {
                'auth.change': [
                  {
                    guard: 'sessionEndedUnasked',
                    target: 'signedOut',
                    actions: [
                      'forgetUser',
                      { type: 'report', params: { type: 'auth.signedOut' } },
                      { type: 'showToast', params: { ...authCopy.sessionEnded, variant: 'destructive' } },
                    ],
                  },
                  {
                    guard: 'changeHasNoUser',
                    target: 'signedOut',
                    actions: ['forgetUser', { type: 'report', params: { type: 'auth.signedOut' } }],
                  },
                  {
                    // Another tab signed in as someone else: end one session, start the other.
                    guard: 'changeIsOtherUser',
                    actions: [
                      'takeChangeUser',
                      { type: 'report', params: { type: 'auth.signedOut' } },
                      {
                        type: 'report',
                        params: ({ event }) => ({ type: 'auth.signedIn', user: changeUser(event) }),
                      },
                    ],
                  },
                  {
                    guard: 'changeIsUserUpdate',
                    actions: [
                      'takeChangeUser',
                      {
                        type: 'report',
                        params: ({ event }) => ({ type: 'auth.userUpdated', user: changeUser(event) }),
                      },
                    ],
                  },
                  // TOKEN_REFRESHED, PASSWORD_RECOVERY, a repeated SIGNED_IN / INITIAL_SESSION:
                  // the same user, kept current, nothing to tell anyone.
                  { actions: 'takeChangeUser' },
                ],
              },
            },
          },
        },
      },
    },

    modal: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'auth.open': [
              { guard: ({ event }) => event.mode === 'signup', target: 'signup' },
              { target: 'login' },
            ],
          },
        },
        login: {
          initial: 'editing',
          states: {
            editing: { on: editingHandlers('#auth.modal.signup') },
            walletSignIn: walletSignInState(),
            submitting: {
              on: closeClears,
              invoke: {
                id: 'signIn',
                src: 'signIn',
                input: ({ context }) => ({ email: context.email, password: context.password }),
                onDone: {
                  target: '#auth.modal.closed',
                  actions: [
                    'clearFields',
                    { type: 'showToast', params: authCopy.loginSuccess },
                    { type: 'raiseSignedIn', params: ({ event }) => event.output },
                  ],
                },
                onError: { target: 'editing', actions: ['clearPassword', failed(authCopy.loginFailed)] },
              },
            },
          },
        },
        signup: {
          initial: 'editing',
          states: {
            editing: { on: editingHandlers('#auth.modal.login') },
            walletSignIn: walletSignInState(),
            submitting: {
              on: closeClears,
              invoke: {
                id: 'signUp',
                src: 'signUp',
                input: ({ context }) => ({ email: context.email, password: context.password }),
                onDone: [
                  {
                    // No session and no confirmed email: the account waits for the link.
                    guard: ({ event }) => !event.output.hasSession && !event.output.user?.emailConfirmedAt,
                    target: '#auth.modal.checkEmail',
                    actions: ['clearPassword', { type: 'showToast', params: authCopy.confirmationSent }],
                  },
                  {
                    guard: ({ event }) => event.output.hasSession && event.output.user !== null,
                    target: '#auth.modal.closed',
                    actions: [
                      'clearFields',
                      { type: 'showToast', params: authCopy.signupSuccess },
                      raise(({ event }) => ({
                        type: 'auth.change' as const,
                        change: { event: 'SIGNED_IN' as const, user: event.output.user },
                      })),
                    ],
                  },
                  // A confirmed email without a session: success, and the login is still to do.
                  {
                    target: '#auth.modal.closed',
                    actions: ['clearFields', { type: 'showToast', params: authCopy.signupSuccess }],
                  },
                ],
                onError: { target: 'editing', actions: ['clearPassword', failed(authCopy.signupFailed)] },
              },
            },
          },
        },
        checkEmail: {
          on: {
            'auth.confirmOk': { target: 'closed', actions: 'clearFields' },
            'auth.close': { target: 'closed', actions: 'clearFields' },
          },
        },
      },
    },

    signOut: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'auth.signOut': { guard: stateIn('#auth.session.available.signedIn'), target: 'requesting' },
          },
        },
        requesting: {
          invoke: {
            id: 'signOut',
            src: 'signOut',
            onDone: {
              target: 'idle',
              actions: [
                { type: 'showToast', params: authCopy.loggedOut },
                raise({ type: 'auth.change', change: { event: 'SIGNED_OUT', user: null }, expected: true }),
              ],
            },
            onError: {
              target: 'idle',
              actions: failed(authCopy.logoutFailed),
            },
          },
        },
      },
    },
  },
});
