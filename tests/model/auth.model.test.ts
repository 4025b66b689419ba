import { beforeEach, expect } from 'vitest';
import type { AnyEventObject, SnapshotFrom } from 'xstate';
import { authCopy } from '../../src/copy/index.ts';
import type { AuthChange, AuthUser, SignUpResult } from '../../src/domain/auth.ts';
import { authMachine, type AuthFact } from '../../src/machines/auth/auth.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { ada, authUser } from '../support/fixtures.ts';
import { describeModel, inState, type ModelStep } from '../support/model/index.ts';

// The auth machine's generated paths, each step checked against the rules of
// docs/product.md#auth-dialog, #session and #auth-toasts: what the form holds, what each request
// is asked, which toast says what (the words of the failure the path chose), and which facts the
// root hears, with which user.

type Snapshot = SnapshotFrom<typeof authMachine>;

/** Ada again, as a USER_UPDATED change carries her after an edit of her account. */
const adaRenamed: AuthUser = { ...ada, metadata: { username: 'ada_l' } };
const bob: AuthUser = { ...ada, id: 'u-2', email: 'bob@example.com' };
const unconfirmed: AuthUser = { ...ada, emailConfirmedAt: null };
/** Signed in with Ethereum: no email, the address instead. */
const satoshi = authUser('u-3', null, { web3Address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });

const failures = {
  signIn: new Error('Invalid login credentials'),
  signUp: new Error('Password should be at least 6 characters.'),
  signOut: new Error('Failed to fetch'),
  /** The wallet service's refusal: the user declined to sign. */
  signInWithWallet: { code: 'rejected', message: 'User rejected the request.' },
  /** No answer came: the only reset failure the user is told of. */
  requestPasswordReset: {
    name: 'BackendError',
    message: 'Failed to fetch',
    code: 'network_error',
    status: null,
  },
  updatePassword: new Error('New password should be different from the old password.'),
};

/**
 * GoTrue's answer to a second reset for an address with an account within its email rate window
 * (an address without one is answered 200 and never mailed): telling it apart would say the account
 * exists.
 */
const resetRateLimited = {
  name: 'BackendError',
  message: 'For security purposes, you can only request this after 59 seconds.',
  code: 'over_email_send_rate_limit',
  status: 429,
};

const changes: AuthChange[] = [
  { event: 'SIGNED_IN', user: ada },
  { event: 'SIGNED_IN', user: bob },
  { event: 'USER_UPDATED', user: adaRenamed },
  { event: 'TOKEN_REFRESHED', user: ada },
  { event: 'SIGNED_OUT', user: null },
];

const signUps: SignUpResult[] = [
  { user: unconfirmed, hasSession: false },
  { user: ada, hasSession: true },
  { user: ada, hasSession: false },
];

type Step = ModelStep<typeof authMachine>;

/** The path's stream said SIGNED_OUT while the stored session was being read. */
let droppedWhileLoading = false;
beforeEach(() => {
  droppedWhileLoading = false;
});

/** The password recovery's events: its own model below takes them, so the others stay small. */
const recoveryEvents = new Set([
  'auth.forgotPassword',
  'auth.requestReset',
  'auth.backToLogin',
  'auth.setPassword',
]);
const withoutRecovery = (event: AnyEventObject) => recoveryEvents.has(event.type);

/** The paths send the session's change stream's `auth.change` events themselves. */
const callbacks = ['authChanges'];

const destructive = (title: string, description: string): ToastRequest => ({
  title,
  description,
  variant: 'destructive',
});

type Session = 'loading' | 'signedIn' | 'signedOut' | 'unavailable';
function sessionOf(s: Snapshot): Session {
  if (inState(s, 'session.unavailable')) return 'unavailable';
  if (inState(s, 'session.available.signedIn')) return 'signedIn';
  return inState(s, 'session.available.signedOut') ? 'signedOut' : 'loading';
}

type Form = 'login' | 'signup';
const formOf = (s: Snapshot): Form | null =>
  inState(s, 'modal.login') ? 'login' : inState(s, 'modal.signup') ? 'signup' : null;

/**
 * What the session does with a change (docs/product.md#session): the facts the root hears and the
 * toast, if any. `askedToLeave`: a logout of ours implied it, or was running when it came.
 */
function sessionAfter(from: Session, change: AuthChange, current: AuthUser | null, askedToLeave: boolean) {
  const facts: AuthFact[] = [];
  const shown: ToastRequest[] = [];
  let user = current;
  let session = from;
  if (from === 'signedOut' && change.user) {
    [session, user] = ['signedIn', change.user];
    facts.push({ type: 'auth.signedIn', user: change.user });
  } else if (from === 'signedIn' && !change.user) {
    [session, user] = ['signedOut', null];
    facts.push({ type: 'auth.signedOut' });
    // Only a session that ends unasked is announced: expired for good, or ended in another tab.
    if (!askedToLeave)
      shown.push(destructive(authCopy.sessionEnded.title, authCopy.sessionEnded.description));
  } else if (from === 'signedIn' && change.user) {
    if (change.user.id !== current?.id) {
      facts.push({ type: 'auth.signedOut' }, { type: 'auth.signedIn', user: change.user });
    } else if (change.event === 'USER_UPDATED') {
      facts.push({ type: 'auth.userUpdated', user: change.user });
    }
    user = change.user;
  }
  return { session, user, facts, shown };
}

/** Checks one step: `event` taken in `from` led to `to` with these toasts and facts. */
function checkStep(
  event: AnyEventObject,
  from: Snapshot,
  to: Snapshot,
  { toasts, facts, inputOf }: Step,
  clientAvailable: boolean,
) {
  const form = formOf(from);
  const expected: { toasts: ToastRequest[]; facts: AuthFact[] } = { toasts: [], facts: [] };
  /** The session follows a change this step implied (a sign-in, a logout). */
  const follows = (change: AuthChange, askedToLeave = false) => {
    const { session, user, facts, shown } = sessionAfter(
      sessionOf(from),
      change,
      from.context.user,
      askedToLeave,
    );
    expect(sessionOf(to)).toBe(session);
    expect(to.context.user).toEqual(user);
    expected.facts.push(...facts);
    expected.toasts.push(...shown);
  };
  const closedAndEmpty = () => {
    expect(inState(to, 'modal.closed')).toBe(true);
    expect(to.context).toMatchObject({ email: '', password: '' });
  };

  switch (event.type) {
    case 'xstate.done.actor.getSession': {
      const user = event['output'] as AuthUser | null;
      expect(sessionOf(to)).toBe(user ? 'signedIn' : 'signedOut');
      expect(to.context.user).toEqual(user);
      expected.facts.push({ type: 'auth.ready', user });
      // A stored session dropped while it was read: 'Session Ended' says it had expired.
      if (!user && droppedWhileLoading)
        expected.toasts.push(destructive(authCopy.sessionEnded.title, authCopy.sessionEnded.description));
      break;
    }
    case 'xstate.error.actor.getSession':
      expect(sessionOf(to)).toBe('signedOut');
      expected.facts.push({ type: 'auth.ready', user: null });
      expected.toasts.push(destructive(authCopy.sessionError.title, authCopy.sessionError.description));
      break;
    case 'auth.change': {
      const change = event['change'] as AuthChange;
      if (sessionOf(from) === 'loading') {
        // Ignored until getSession answers, except a SIGNED_OUT: the stored session was dropped.
        expect(sessionOf(to)).toBe('loading');
        droppedWhileLoading ||= change.event === 'SIGNED_OUT';
        expect(to.context.sessionLost).toBe(droppedWhileLoading);
      } else {
        follows(change, inState(from, 'signOut.requesting'));
      }
      // A recovery link opens the new-password form, whatever the dialog showed.
      // Nothing typed in a form before it stays.
      if (change.event === 'PASSWORD_RECOVERY' && change.user) {
        expect(inState(to, 'modal.recovery')).toBe(true);
        if (!inState(from, 'modal.recovery')) expect(to.context).toMatchObject({ email: '', password: '' });
      }
      break;
    }
    case 'auth.forgotPassword':
      // The forgotten-password form, with the address typed so far and not the password.
      expect(inState(to, 'modal.forgot.editing')).toBe(true);
      expect(to.context.email).toBe(String(event['email']).trim());
      expect(to.context.password).toBe('');
      break;
    case 'auth.backToLogin':
      expect(inState(to, 'modal.login.editing')).toBe(true);
      break;
    case 'auth.requestReset': {
      const email = String(event['email']).trim();
      if (email === '') {
        expect(inState(to, 'modal.forgot.editing')).toBe(true);
        expected.toasts.push(destructive(authCopy.emailRequired.title, authCopy.emailRequired.description));
      } else if (!clientAvailable) {
        expected.toasts.push(
          destructive(authCopy.clientUnavailable.title, authCopy.clientUnavailable.description),
        );
      } else {
        expect(inState(to, 'modal.forgot.sending')).toBe(true);
        expect(inputOf('requestPasswordReset')).toEqual({ email });
      }
      break;
    }
    case 'xstate.done.actor.requestPasswordReset':
      // The same words whether or not the address has an account.
      expect(inState(to, 'modal.resetSent')).toBe(true);
      expect(to.context.email).toBe(from.context.email);
      expected.toasts.push(authCopy.resetSent);
      break;
    case 'xstate.error.actor.requestPasswordReset':
      if (event['error'] === resetRateLimited) {
        // Answered as a sent link is: the rate limit hits only an address with an account.
        expect(inState(to, 'modal.resetSent')).toBe(true);
        expect(to.context.email).toBe(from.context.email);
        expected.toasts.push(authCopy.resetSent);
        break;
      }
      expect(inState(to, 'modal.forgot.editing')).toBe(true);
      expected.toasts.push(destructive(authCopy.resetFailed, failures.requestPasswordReset.message));
      break;
    case 'auth.setPassword': {
      const [password, repeated] = [String(event['password']), String(event['repeatedPassword'])];
      const refusal =
        password === '' || repeated === ''
          ? authCopy.newPasswordsRequired
          : password !== repeated
            ? authCopy.passwordsDiffer
            : null;
      if (refusal) {
        expect(inState(to, 'modal.recovery.editing')).toBe(true);
        expected.toasts.push(destructive(refusal.title, refusal.description));
      } else {
        expect(inState(to, 'modal.recovery.saving')).toBe(true);
        expect(inputOf('updatePassword')).toEqual({ password });
      }
      break;
    }
    case 'xstate.done.actor.updatePassword':
      closedAndEmpty();
      expected.toasts.push(authCopy.passwordUpdated);
      break;
    case 'xstate.error.actor.updatePassword':
      expect(inState(to, 'modal.recovery.editing')).toBe(true);
      expect(to.context.password).toBe('');
      expected.toasts.push(destructive(authCopy.passwordUpdateFailed, failures.updatePassword.message));
      break;
    case 'auth.open':
      // The chosen form, empty.
      expect(inState(to, `modal.${String(event['mode'])}.editing`)).toBe(true);
      expect(to.context).toMatchObject({ email: '', password: '' });
      break;
    case 'auth.toggleMode':
      expect(formOf(to)).toBe(form === 'login' ? 'signup' : 'login');
      break;
    case 'auth.edit':
      // The form holds what was typed, field by field.
      expect(to.context.email).toBe(event['email'] ?? from.context.email);
      expect(to.context.password).toBe(event['password'] ?? from.context.password);
      break;
    case 'auth.submit': {
      const [email, password] = [String(event['email']), String(event['password'])];
      if (email.trim() === '' || password === '') {
        expect(inState(to, `modal.${form}.editing`)).toBe(true);
        expected.toasts.push(
          destructive(authCopy.credentialsRequired.title, authCopy.credentialsRequired.description),
        );
      } else if (!clientAvailable) {
        expect(inState(to, `modal.${form}.editing`)).toBe(true);
        expected.toasts.push(
          destructive(authCopy.clientUnavailable.title, authCopy.clientUnavailable.description),
        );
      } else {
        // The request is asked with the address as typed but trimmed, and the password as typed.
        expect(inState(to, `modal.${form}.submitting`)).toBe(true);
        expect(to.context).toMatchObject({ email: email.trim(), password });
        expect(inputOf(form === 'login' ? 'signIn' : 'signUp')).toEqual({
          email: email.trim(),
          password,
        });
      }
      break;
    }
    case 'auth.signInWithWallet':
      if (!clientAvailable) {
        expected.toasts.push(
          destructive(authCopy.clientUnavailable.title, authCopy.clientUnavailable.description),
        );
        break;
      }
      // No password is held while the wallet signs; it is asked to sign for the connected address.
      expect(inState(to, `modal.${form}.walletSignIn`)).toBe(true);
      expect(to.context.password).toBe('');
      expect(inputOf('signInWithWallet')).toEqual({
        address: event['address'],
        statement: authCopy.walletSignInStatement,
      });
      break;
    case 'xstate.done.actor.signIn':
    case 'xstate.done.actor.signInWithWallet':
      closedAndEmpty();
      expected.toasts.push(authCopy.loginSuccess);
      follows({ event: 'SIGNED_IN', user: event['output'] as AuthUser });
      break;
    case 'xstate.done.actor.signUp': {
      const { user, hasSession } = event['output'] as SignUpResult;
      if (!hasSession && !user?.emailConfirmedAt) {
        // The account waits for the link: the address stays on screen, the password does not.
        expect(inState(to, 'modal.checkEmail')).toBe(true);
        expect(to.context).toMatchObject({ email: from.context.email, password: '' });
        expected.toasts.push(authCopy.confirmationSent);
        break;
      }
      closedAndEmpty();
      expected.toasts.push(authCopy.signupSuccess);
      if (hasSession && user) follows({ event: 'SIGNED_IN', user });
      else expect(sessionOf(to)).toBe(sessionOf(from));
      break;
    }
    case 'xstate.error.actor.signIn':
    case 'xstate.error.actor.signUp': {
      const error = event['error'] as Error;
      expect(inState(to, `modal.${form}.editing`)).toBe(true);
      expect(to.context.password).toBe('');
      const title = form === 'login' ? authCopy.loginFailed : authCopy.signupFailed;
      expected.toasts.push(destructive(title, error.message));
      break;
    }
    case 'xstate.error.actor.signInWithWallet':
      // Back in the form it came from; a declined signature says so.
      expect(inState(to, `modal.${form}.editing`)).toBe(true);
      expected.toasts.push(destructive(authCopy.walletSignInFailed, authCopy.walletSignInDeclined));
      break;
    case 'auth.close':
    case 'auth.confirmOk':
      closedAndEmpty();
      break;
    case 'auth.signOut':
      expect(inState(to, 'signOut.requesting')).toBe(sessionOf(from) === 'signedIn');
      break;
    case 'xstate.done.actor.signOut':
      expect(inState(to, 'signOut.idle')).toBe(true);
      expected.toasts.push(authCopy.loggedOut);
      follows({ event: 'SIGNED_OUT', user: null }, true);
      break;
    case 'xstate.error.actor.signOut':
      // Still signed in: the logout failed, with the service's words.
      expect(inState(to, 'signOut.idle')).toBe(true);
      expect(sessionOf(to)).toBe(sessionOf(from));
      expected.toasts.push(destructive(authCopy.logoutFailed, failures.signOut.message));
      break;
  }
  expect(toasts, `the toasts after ${event.type}`).toEqual(expected.toasts);
  expect(facts, `the facts after ${event.type}`).toEqual(expected.facts);
}

/** Runs on every step: the rules of the step just taken, then what holds in any state. */
function everyStep(s: Snapshot, step: Step, clientAvailable: boolean) {
  const event = step.events.at(-1);
  if (step.before && event) checkStep(event, step.before, s, step, clientAvailable);
  // A password only in the form, never once its request has ended or the dialog is closed.
  const sending = ['modal.login.submitting', 'modal.signup.submitting', 'modal.recovery.saving'];
  if (!sending.some((state) => inState(s, state)) && !formOf(s)) expect(s.context.password).toBe('');
  // The user is whoever the session says, and nobody without one.
  if (sessionOf(s) !== 'signedIn') expect(s.context.user).toBeNull();
  else expect(s.context.user).not.toBeNull();
}

describeModel({
  name: 'auth',
  machine: authMachine,
  callbacks,
  input: { clientAvailable: true },
  exclude: withoutRecovery,
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
    'auth.edit': [{ type: 'auth.edit', email: 'typed@example.com' }],
    'auth.submit': [
      { type: 'auth.submit', email: ' ada@example.com ', password: 'hunter22' },
      { type: 'auth.submit', email: '   ', password: 'hunter22' },
    ],
    'auth.signInWithWallet': [{ type: 'auth.signInWithWallet', address: satoshi.web3Address }],
    'auth.change': changes.map((change) => ({ type: 'auth.change', change })),
    'xstate.done.actor.getSession': [
      { type: 'xstate.done.actor.getSession', output: ada },
      { type: 'xstate.done.actor.getSession', output: null },
    ],
    'xstate.error.actor.getSession': [{ type: 'xstate.error.actor.getSession', error: new Error('offline') }],
    'xstate.done.actor.signIn': [{ type: 'xstate.done.actor.signIn', output: ada }],
    'xstate.error.actor.signIn': [{ type: 'xstate.error.actor.signIn', error: failures.signIn }],
    'xstate.done.actor.signUp': signUps.map((output) => ({ type: 'xstate.done.actor.signUp', output })),
    'xstate.error.actor.signUp': [{ type: 'xstate.error.actor.signUp', error: failures.signUp }],
    'xstate.done.actor.signInWithWallet': [{ type: 'xstate.done.actor.signInWithWallet', output: satoshi }],
    'xstate.error.actor.signInWithWallet': [
      { type: 'xstate.error.actor.signInWithWallet', error: failures.signInWithWallet },
    ],
    'xstate.done.actor.signOut': [{ type: 'xstate.done.actor.signOut', output: undefined }],
    'xstate.error.actor.signOut': [{ type: 'xstate.error.actor.signOut', error: failures.signOut }],
  },
  states: {
    '*': (s, step) => everyStep(s, step, true),
    // The session is read once, and nobody is signed in until it answers.
    'session.available.loading': (s, { inputOf }) => {
      expect(s.context.user).toBeNull();
      expect(inputOf('getSession')).toBeUndefined();
      expect(Object.keys(s.children)).toContain('getSession');
    },
  },
});

// A visitor with no stored session: the session is entered only by the portal's own requests, so
// the paths show the session following each way in (a login, a sign-up that starts a session, the
// wallet) and the logout, and the sign-up answers and the form entries the first model leaves out.
describeModel({
  name: 'auth',
  machine: authMachine,
  callbacks,
  input: { clientAvailable: true },
  exclude: withoutRecovery,
  serializeState: (snapshot) =>
    JSON.stringify({ value: snapshot.value, user: snapshot.context.user?.id ?? null }),
  events: {
    'auth.open': [{ type: 'auth.open', mode: 'signup' }],
    'auth.edit': [{ type: 'auth.edit', password: 'typed-secret' }],
    'auth.submit': [
      { type: 'auth.submit', email: 'ada@example.com', password: '' },
      { type: 'auth.submit', email: 'ada@example.com', password: 'hunter22' },
    ],
    'auth.signInWithWallet': [{ type: 'auth.signInWithWallet', address: satoshi.web3Address }],
    'auth.change': [{ type: 'auth.change', change: { event: 'SIGNED_OUT', user: null } }],
    'xstate.done.actor.getSession': [{ type: 'xstate.done.actor.getSession', output: null }],
    'xstate.done.actor.signIn': [{ type: 'xstate.done.actor.signIn', output: ada }],
    'xstate.error.actor.signIn': [{ type: 'xstate.error.actor.signIn', error: failures.signIn }],
    'xstate.done.actor.signUp': [
      { type: 'xstate.done.actor.signUp', output: { user: null, hasSession: false } },
      { type: 'xstate.done.actor.signUp', output: { user: bob, hasSession: true } },
      { type: 'xstate.done.actor.signUp', output: { user: null, hasSession: true } },
    ],
    'xstate.error.actor.signUp': [{ type: 'xstate.error.actor.signUp', error: failures.signUp }],
    'xstate.done.actor.signInWithWallet': [{ type: 'xstate.done.actor.signInWithWallet', output: satoshi }],
    'xstate.error.actor.signInWithWallet': [
      { type: 'xstate.error.actor.signInWithWallet', error: failures.signInWithWallet },
    ],
    'xstate.done.actor.signOut': [{ type: 'xstate.done.actor.signOut', output: undefined }],
    'xstate.error.actor.signOut': [{ type: 'xstate.error.actor.signOut', error: failures.signOut }],
  },
  states: { '*': (s, step) => everyStep(s, step, true) },
});

// A forgotten password (docs/product.md#password-recovery): the login form's way to the recovery
// mail, what the portal answers (the same whether or not the address has an account), and the
// mailed link's new-password form, which a recovery session opens from any dialog state. The
// login form's own events are the models' above.
describeModel({
  name: 'auth',
  machine: authMachine,
  callbacks,
  input: { clientAvailable: true },
  exclude: (event) =>
    ['auth.submit', 'auth.toggleMode', 'auth.signInWithWallet', 'auth.signOut'].includes(event.type),
  serializeState: (snapshot) =>
    JSON.stringify({ value: snapshot.value, user: snapshot.context.user?.id ?? null }),
  events: {
    'auth.open': [{ type: 'auth.open', mode: 'login' }],
    // A login password typed before 'Forgot password?', or before the recovery link is followed.
    'auth.edit': [{ type: 'auth.edit', password: 'typed-secret' }],
    'auth.forgotPassword': [{ type: 'auth.forgotPassword', email: ' ada@example.com ' }],
    'auth.requestReset': [
      { type: 'auth.requestReset', email: '  ' },
      { type: 'auth.requestReset', email: 'ada@example.com ' },
    ],
    'auth.backToLogin': [{ type: 'auth.backToLogin' }],
    'xstate.done.actor.requestPasswordReset': [
      { type: 'xstate.done.actor.requestPasswordReset', output: undefined },
    ],
    'xstate.error.actor.requestPasswordReset': [
      { type: 'xstate.error.actor.requestPasswordReset', error: failures.requestPasswordReset },
      { type: 'xstate.error.actor.requestPasswordReset', error: resetRateLimited },
    ],
    'auth.confirmOk': [{ type: 'auth.confirmOk' }],
    'auth.close': [{ type: 'auth.close' }],
    'xstate.done.actor.getSession': [{ type: 'xstate.done.actor.getSession', output: null }],
    'auth.change': [{ type: 'auth.change', change: { event: 'PASSWORD_RECOVERY', user: ada } }],
    'auth.setPassword': [
      { type: 'auth.setPassword', password: '', repeatedPassword: 'new-secret-1' },
      { type: 'auth.setPassword', password: 'new-secret-1', repeatedPassword: 'new-secret-2' },
      { type: 'auth.setPassword', password: 'new-secret-1', repeatedPassword: 'new-secret-1' },
    ],
    'xstate.done.actor.updatePassword': [{ type: 'xstate.done.actor.updatePassword', output: undefined }],
    'xstate.error.actor.updatePassword': [
      { type: 'xstate.error.actor.updatePassword', error: failures.updatePassword },
    ],
  },
  states: { '*': (s, step) => everyStep(s, step, true) },
});

// The recovery's two leaks, on every cycle-free path: a login password typed and then left for
// 'Forgot password?' or for a followed recovery link, and a second request for an address with an
// account that the backend refuses as too soon (which it never does for an address without one).
const leakEvents = new Set([
  'xstate.done.actor.getSession',
  'auth.open',
  'auth.edit',
  'auth.forgotPassword',
  'auth.requestReset',
  'xstate.error.actor.requestPasswordReset',
  'auth.change',
]);
describeModel({
  name: 'auth',
  machine: authMachine,
  callbacks,
  input: { clientAvailable: true },
  exclude: (event) => !leakEvents.has(event.type),
  simplePaths: true,
  serializeState: (snapshot) =>
    JSON.stringify({ value: snapshot.value, typed: snapshot.context.password !== '' }),
  events: {
    'xstate.done.actor.getSession': [{ type: 'xstate.done.actor.getSession', output: null }],
    'auth.open': [{ type: 'auth.open', mode: 'login' }],
    'auth.edit': [{ type: 'auth.edit', password: 'typed-secret' }],
    'auth.forgotPassword': [{ type: 'auth.forgotPassword', email: 'ada@example.com' }],
    'auth.requestReset': [{ type: 'auth.requestReset', email: 'ada@example.com' }],
    'xstate.error.actor.requestPasswordReset': [
      { type: 'xstate.error.actor.requestPasswordReset', error: resetRateLimited },
    ],
    'auth.change': [{ type: 'auth.change', change: { event: 'PASSWORD_RECOVERY', user: ada } }],
  },
  states: { '*': (s, step) => everyStep(s, step, true) },
});

// The portal opened from an emailed link that was used or had expired (the boot read GoTrue's
// `#error=…` and took it out of the address): at start the chart says so and opens the
// forgotten-password form, once; closed, the dialog stays closed.
const linkEvents = new Set(['xstate.done.actor.getSession', 'auth.requestReset', 'auth.close', 'auth.open']);
describeModel({
  name: 'auth',
  machine: authMachine,
  callbacks,
  input: { clientAvailable: true, emailLinkFailed: true },
  exclude: (event) => !linkEvents.has(event.type),
  events: {
    'xstate.done.actor.getSession': [{ type: 'xstate.done.actor.getSession', output: null }],
    'auth.requestReset': [{ type: 'auth.requestReset', email: 'ada@example.com' }],
    'auth.open': [{ type: 'auth.open', mode: 'login' }],
  },
  states: {
    '*': (s, step) => {
      if (step.before) {
        everyStep(s, step, true);
        return;
      }
      expect(inState(s, 'modal.forgot.editing')).toBe(true);
      expect(step.toasts).toEqual([destructive(authCopy.linkFailed.title, authCopy.linkFailed.description)]);
    },
  },
});

// Without a client (no Supabase configuration) nothing is ever requested: 'Initialization Error'
// once at start, the portal hears that nobody is signed in, and every submit says the client is
// missing while the form keeps what was typed.
describeModel({
  name: 'auth',
  machine: authMachine,
  callbacks,
  input: { clientAvailable: false },
  events: {
    'auth.open': [
      { type: 'auth.open', mode: 'login' },
      { type: 'auth.open', mode: 'signup' },
    ],
    'auth.edit': [{ type: 'auth.edit', email: 'ada@example.com' }],
    'auth.submit': [{ type: 'auth.submit', email: 'ada@example.com', password: 'hunter22' }],
    'auth.signInWithWallet': [{ type: 'auth.signInWithWallet', address: satoshi.web3Address }],
    'auth.forgotPassword': [{ type: 'auth.forgotPassword', email: 'ada@example.com' }],
    'auth.requestReset': [{ type: 'auth.requestReset', email: 'ada@example.com' }],
  },
  states: {
    '*': (s, { before, toasts, facts: reports }) => {
      expect(inState(s, 'session.unavailable')).toBe(true);
      expect(s.context.user).toBeNull();
      expect(s.context.password).toBe('');
      expect(Object.keys(s.children)).toEqual([]);
      if (!before) {
        // At start, once: the toast of a missing client, and the root hears that nobody is signed in.
        expect(toasts).toEqual([destructive(authCopy.initError.title, authCopy.initError.description)]);
        expect(reports).toEqual([{ type: 'auth.ready', user: null }]);
      } else {
        // After that, a submit (of a filled form) or the wallet's sign-in only says the client is missing.
        expect(reports).toEqual([]);
        for (const toast of toasts)
          expect(toast).toEqual(
            destructive(authCopy.clientUnavailable.title, authCopy.clientUnavailable.description),
          );
      }
    },
  },
});
