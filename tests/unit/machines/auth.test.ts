import { describe, expect, it } from 'vitest';
import { authCopy, walletCopy } from '../../../src/copy/index.ts';
import type { AuthChange, AuthUser, Credentials, SignUpResult } from '../../../src/domain/auth.ts';
import {
  authMachine,
  type AuthEvent,
  type AuthFact,
  type WalletSignInInput,
} from '../../../src/machines/auth/auth.machine.ts';
import { BackendError } from '../../../src/services/supabase/types.ts';
import { settle } from '../../support/deferred-actor.ts';
import { machineHarness } from '../../support/machines/harness.ts';

const ada: AuthUser = {
  id: '11111111-aaaa-4aaa-8aaa-111111111111',
  email: 'ada@example.com',
  emailConfirmedAt: '2024-01-01T00:00:00Z',
  web3Address: null,
  metadata: {},
};
const bob: AuthUser = { ...ada, id: '22222222-bbbb-4bbb-8bbb-222222222222', email: 'bob@example.com' };
const unconfirmed: AuthUser = { ...ada, emailConfirmedAt: null };

const SATOSHI_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function start({ clientAvailable = true } = {}) {
  const h = machineHarness(authMachine, { input: { clientAvailable }, callbacks: ['authChanges'] });
  const changes = h.callback('authChanges');
  const stream = {
    get subscribed() {
      return changes.started;
    },
    get unsubscribed() {
      return changes.stopped;
    },
    emit: (change: AuthChange): void => {
      const event: AuthEvent = { type: 'auth.change', change };
      changes.emit(event);
    },
  };
  const send = (event: AuthEvent) => h.send(event);
  const snapshot = h.snapshot;
  const matches = (path: string) => snapshot().matches(toValue(path));
  return {
    /** Stops the machine (with the stand-in root it runs under). */
    stop: h.stop,
    send,
    snapshot,
    matches,
    toasts: h.toasts,
    reports: h.facts as AuthFact[],
    sessions: h.calls<AuthUser | null>('getSession'),
    signIns: h.calls<AuthUser, Credentials>('signIn'),
    signUps: h.calls<SignUpResult, Credentials>('signUp'),
    signOuts: h.calls('signOut'),
    walletSignIns: h.calls<AuthUser, WalletSignInInput>('signInWithWallet'),
    stream,
  };
}

/** 'session.available.signedIn' → { session: { available: 'signedIn' } } */
function toValue(path: string) {
  const parts = path.split('.');
  const last = parts.pop() as string;
  return parts.reduceRight<string | Record<string, unknown>>(
    (value, key) => ({ [key]: value }),
    last,
  ) as never;
}

async function signedOut(options?: { clientAvailable?: boolean }) {
  const t = start(options);
  t.sessions[0]?.resolve(null);
  await settle();
  t.reports.length = 0;
  return t;
}

async function signedIn(user: AuthUser = ada) {
  const t = start();
  t.sessions[0]?.resolve(user);
  await settle();
  t.reports.length = 0;
  return t;
}

describe('auth machine: the session at start', () => {
  it('reads the session and reports a signed-in user as ready', async () => {
    const t = start();
    expect(t.matches('session.available.loading')).toBe(true);
    expect(t.stream.subscribed).toBe(1);
    t.sessions[0]?.resolve(ada);
    await settle();
    expect(t.matches('session.available.signedIn')).toBe(true);
    expect(t.snapshot().context.user).toEqual(ada);
    expect(t.reports).toEqual([{ type: 'auth.ready', user: ada }]);
    expect(t.toasts).toEqual([]);
  });

  it('reports ready with no user when there is no session', async () => {
    const t = start();
    t.sessions[0]?.resolve(null);
    await settle();
    expect(t.matches('session.available.signedOut')).toBe(true);
    expect(t.reports).toEqual([{ type: 'auth.ready', user: null }]);
    expect(t.toasts).toEqual([]);
  });

  it("shows 'Session Error' when the session cannot be read, and starts signed out", async () => {
    const t = start();
    t.sessions[0]?.reject(new Error('fetch failed'));
    await settle();
    expect(t.toasts).toEqual([{ ...authCopy.sessionError, variant: 'destructive' }]);
    expect(t.matches('session.available.signedOut')).toBe(true);
    expect(t.reports).toEqual([{ type: 'auth.ready', user: null }]);
  });

  it('ignores changes until the session is known (INITIAL_SESSION repeats it)', async () => {
    const t = start();
    t.stream.emit({ event: 'INITIAL_SESSION', user: ada });
    expect(t.matches('session.available.loading')).toBe(true);
    expect(t.reports).toEqual([]);
    t.sessions[0]?.resolve(ada);
    await settle();
    expect(t.reports).toEqual([{ type: 'auth.ready', user: ada }]);
  });

  it('listens to changes for its whole life and stops listening when stopped', async () => {
    const t = await signedIn();
    t.stop();
    expect(t.stream.subscribed).toBe(1);
    expect(t.stream.unsubscribed).toBe(1);
  });

  it("without a client: 'Initialization Error' once, ready with no user, no session read, no stream", () => {
    const t = start({ clientAvailable: false });
    expect(t.toasts).toEqual([{ ...authCopy.initError, variant: 'destructive' }]);
    expect(t.reports).toEqual([{ type: 'auth.ready', user: null }]);
    expect(t.matches('session.unavailable')).toBe(true);
    expect(t.sessions).toHaveLength(0);
    expect(t.stream.subscribed).toBe(0);
  });
});

describe('auth machine: session changes while signed out', () => {
  it.each(['SIGNED_IN', 'INITIAL_SESSION', 'PASSWORD_RECOVERY'] as const)(
    '%s with a user signs in and reports it',
    async (event) => {
      const t = await signedOut();
      t.stream.emit({ event, user: ada });
      expect(t.matches('session.available.signedIn')).toBe(true);
      expect(t.snapshot().context.user).toEqual(ada);
      expect(t.reports).toEqual([{ type: 'auth.signedIn', user: ada }]);
      expect(t.toasts).toEqual([]);
    },
  );

  it('a change without a user changes nothing', async () => {
    const t = await signedOut();
    t.stream.emit({ event: 'SIGNED_OUT', user: null });
    t.stream.emit({ event: 'INITIAL_SESSION', user: null });
    expect(t.matches('session.available.signedOut')).toBe(true);
    expect(t.reports).toEqual([]);
  });
});

describe('auth machine: session changes while signed in', () => {
  it("SIGNED_OUT unasked (expired, or another tab) signs out and says 'Session Ended'", async () => {
    const t = await signedIn();
    t.stream.emit({ event: 'SIGNED_OUT', user: null });
    expect(t.matches('session.available.signedOut')).toBe(true);
    expect(t.snapshot().context.user).toBeNull();
    expect(t.reports).toEqual([{ type: 'auth.signedOut' }]);
    expect(t.toasts).toEqual([{ ...authCopy.sessionEnded, variant: 'destructive' }]);
  });

  it("says 'Session Ended' when the stored session is dropped while it is read", async () => {
    const t = start();
    // supabase-js could not refresh the stored session: it drops it, then the read finds none.
    t.stream.emit({ event: 'SIGNED_OUT', user: null });
    t.sessions[0]?.resolve(null);
    await settle();
    expect(t.matches('session.available.signedOut')).toBe(true);
    expect(t.reports).toEqual([{ type: 'auth.ready', user: null }]);
    expect(t.toasts).toEqual([{ ...authCopy.sessionEnded, variant: 'destructive' }]);
  });

  it('USER_UPDATED keeps the new user and reports the update', async () => {
    const t = await signedIn();
    const updated = { ...ada, metadata: { username: 'ada' } };
    t.stream.emit({ event: 'USER_UPDATED', user: updated });
    expect(t.snapshot().context.user).toEqual(updated);
    expect(t.reports).toEqual([{ type: 'auth.userUpdated', user: updated }]);
    expect(t.toasts).toEqual([]);
  });

  it.each(['TOKEN_REFRESHED', 'PASSWORD_RECOVERY', 'SIGNED_IN', 'INITIAL_SESSION'] as const)(
    '%s for the same user keeps the user current without a report or toast',
    async (event) => {
      const t = await signedIn();
      const refreshed = { ...ada, metadata: { wallet_address: '0xabc' } };
      t.stream.emit({ event, user: refreshed });
      expect(t.matches('session.available.signedIn')).toBe(true);
      expect(t.snapshot().context.user).toEqual(refreshed);
      expect(t.reports).toEqual([]);
      expect(t.toasts).toEqual([]);
    },
  );

  it("another user's sign-in ends the first session and starts the other", async () => {
    const t = await signedIn();
    t.stream.emit({ event: 'SIGNED_IN', user: bob });
    expect(t.snapshot().context.user).toEqual(bob);
    expect(t.reports).toEqual([{ type: 'auth.signedOut' }, { type: 'auth.signedIn', user: bob }]);
  });
});

describe('auth machine: the modal', () => {
  it('opens in either mode, toggles between them and closes', async () => {
    const t = await signedOut();
    expect(t.matches('modal.closed')).toBe(true);
    t.send({ type: 'auth.open', mode: 'login' });
    expect(t.matches('modal.login.editing')).toBe(true);
    t.send({ type: 'auth.toggleMode' });
    expect(t.matches('modal.signup.editing')).toBe(true);
    t.send({ type: 'auth.toggleMode' });
    expect(t.matches('modal.login.editing')).toBe(true);
    t.send({ type: 'auth.close' });
    expect(t.matches('modal.closed')).toBe(true);
    t.send({ type: 'auth.open', mode: 'signup' });
    expect(t.matches('modal.signup.editing')).toBe(true);
  });

  it('keeps what is typed and forgets it on close (backdrop or X)', async () => {
    const t = await signedOut();
    for (const mode of ['login', 'signup'] as const) {
      t.send({ type: 'auth.open', mode });
      t.send({ type: 'auth.edit', email: 'ada@example.com' });
      t.send({ type: 'auth.edit', password: 'hunter22' });
      expect(t.snapshot().context).toMatchObject({ email: 'ada@example.com', password: 'hunter22' });
      t.send({ type: 'auth.toggleMode' });
      expect(t.snapshot().context).toMatchObject({ email: 'ada@example.com', password: 'hunter22' });
      t.send({ type: 'auth.close' });
      expect(t.snapshot().context).toMatchObject({ email: '', password: '' });
    }
  });

  it.each([
    { email: '', password: 'hunter22' },
    { email: '   ', password: 'hunter22' },
    { email: 'ada@example.com', password: '' },
  ])('refuses a submit without both fields (%o) before any request', async (fields) => {
    const t = await signedOut();
    for (const mode of ['login', 'signup'] as const) {
      t.send({ type: 'auth.open', mode });
      t.send({ type: 'auth.submit', ...fields });
      expect(t.matches(`modal.${mode}.editing`)).toBe(true);
      t.send({ type: 'auth.close' });
    }
    expect(t.toasts).toEqual([
      { ...authCopy.credentialsRequired, variant: 'destructive' },
      { ...authCopy.credentialsRequired, variant: 'destructive' },
    ]);
    expect(t.signIns).toHaveLength(0);
    expect(t.signUps).toHaveLength(0);
  });

  it("without a client, a submit shows 'Error' and keeps the form as typed", () => {
    const t = start({ clientAvailable: false });
    t.toasts.length = 0;
    for (const mode of ['login', 'signup'] as const) {
      t.send({ type: 'auth.open', mode });
      t.send({ type: 'auth.edit', email: 'ada@example.com' });
      t.send({ type: 'auth.submit', email: 'ada@example.com', password: 'hunter22' });
      expect(t.matches(`modal.${mode}.editing`)).toBe(true);
      expect(t.snapshot().context.email).toBe('ada@example.com');
      t.send({ type: 'auth.close' });
    }
    expect(t.toasts).toEqual([
      { ...authCopy.clientUnavailable, variant: 'destructive' },
      { ...authCopy.clientUnavailable, variant: 'destructive' },
    ]);
    expect(t.signIns).toHaveLength(0);
    expect(t.signUps).toHaveLength(0);
  });
});

describe('auth machine: login', () => {
  async function submitting() {
    const t = await signedOut();
    t.send({ type: 'auth.open', mode: 'login' });
    t.send({ type: 'auth.submit', email: ' ada@example.com ', password: 'hunter22' });
    return t;
  }

  it('signs in with the trimmed email and the password, ignoring a toggle or a second submit meanwhile', async () => {
    const t = await submitting();
    expect(t.matches('modal.login.submitting')).toBe(true);
    expect(t.signIns[0]?.input).toEqual({ email: 'ada@example.com', password: 'hunter22' });
    t.send({ type: 'auth.toggleMode' });
    t.send({ type: 'auth.submit', email: 'ada@example.com', password: 'hunter22' });
    expect(t.matches('modal.login.submitting')).toBe(true);
    expect(t.signIns).toHaveLength(1);
  });

  it('closes at once while the request runs, resetting the fields; its late failure says nothing', async () => {
    const t = await submitting();
    t.send({ type: 'auth.close' });
    expect(t.matches('modal.closed')).toBe(true);
    expect(t.snapshot().context).toMatchObject({ email: '', password: '' });
    t.signIns[0]?.reject(new Error('Invalid login credentials'));
    await settle();
    expect(t.toasts).toEqual([]);
    expect(t.matches('modal.closed')).toBe(true);
  });

  it('closed while a login that succeeds runs: the user is signed in by the session, without a toast', async () => {
    const t = await submitting();
    t.send({ type: 'auth.close' });
    t.signIns[0]?.resolve(ada);
    // supabase-js stores the session it got and tells the change stream.
    t.stream.emit({ event: 'SIGNED_IN', user: ada });
    await settle();
    expect(t.toasts).toEqual([]);
    expect(t.matches('session.available.signedIn')).toBe(true);
    expect(t.reports).toEqual([{ type: 'auth.signedIn', user: ada }]);
  });

  it("on success: 'Login Successful!', the modal closes, the password is gone, the session starts", async () => {
    const t = await submitting();
    t.signIns[0]?.resolve(ada);
    await settle();
    expect(t.toasts).toEqual([authCopy.loginSuccess]);
    expect(t.matches('modal.closed')).toBe(true);
    expect(t.snapshot().context).toMatchObject({ email: '', password: '', user: ada });
    expect(t.matches('session.available.signedIn')).toBe(true);
    expect(t.reports).toEqual([{ type: 'auth.signedIn', user: ada }]);
    // The stream's own SIGNED_IN for the same login is not a second sign-in.
    t.stream.emit({ event: 'SIGNED_IN', user: ada });
    expect(t.reports).toHaveLength(1);
  });

  it('reports the sign-in once when the stream answers before the request', async () => {
    const t = await submitting();
    t.stream.emit({ event: 'SIGNED_IN', user: ada });
    expect(t.matches('modal.login.submitting')).toBe(true);
    t.signIns[0]?.resolve(ada);
    await settle();
    expect(t.toasts).toEqual([authCopy.loginSuccess]);
    expect(t.reports).toEqual([{ type: 'auth.signedIn', user: ada }]);
  });

  it("on failure: 'Login Failed' with the server message; the email stays, the password is gone", async () => {
    const t = await submitting();
    t.signIns[0]?.reject(new Error('Invalid login credentials'));
    await settle();
    expect(t.toasts).toEqual([
      { title: authCopy.loginFailed, description: 'Invalid login credentials', variant: 'destructive' },
    ]);
    expect(t.matches('modal.login.editing')).toBe(true);
    expect(t.snapshot().context).toMatchObject({ email: 'ada@example.com', password: '' });
    expect(t.matches('session.available.signedOut')).toBe(true);
  });

  it.each([{}, 'boom', new Error('')])(
    "on a failure without a message (%o): 'An unexpected error occurred.'",
    async (error) => {
      const t = await submitting();
      t.signIns[0]?.reject(error);
      await settle();
      expect(t.toasts).toEqual([
        { title: authCopy.loginFailed, description: authCopy.unexpectedError, variant: 'destructive' },
      ]);
    },
  );
});

describe('auth machine: signing in with the wallet', () => {
  const satoshi: AuthUser = {
    ...ada,
    id: '33333333-cccc-4ccc-8ccc-333333333333',
    email: null,
    emailConfirmedAt: null,
    web3Address: SATOSHI_ADDRESS,
  };

  async function signingIn(mode: 'login' | 'signup' = 'login') {
    const t = await signedOut();
    t.send({ type: 'auth.open', mode });
    t.send({ type: 'auth.edit', email: 'ada@example.com', password: 'typed-but-not-sent' });
    t.send({ type: 'auth.signInWithWallet', address: SATOSHI_ADDRESS });
    return t;
  }

  it.each(['login', 'signup'] as const)(
    'from the %s form: asks the connected wallet with the plain-language statement, and forgets any typed password',
    async (mode) => {
      const t = await signingIn(mode);
      expect(t.matches(`modal.${mode}.walletSignIn`)).toBe(true);
      expect(t.walletSignIns[0]?.input).toEqual({
        statement: authCopy.walletSignInStatement,
        address: SATOSHI_ADDRESS,
      });
      expect(t.snapshot().context.password).toBe('');
      expect(t.signIns).toHaveLength(0);
    },
  );

  it("on success: 'Login Successful!', the modal closes and the session starts, reported once", async () => {
    const t = await signingIn();
    t.walletSignIns[0]?.resolve(satoshi);
    await settle();
    expect(t.toasts).toEqual([authCopy.loginSuccess]);
    expect(t.matches('modal.closed')).toBe(true);
    expect(t.snapshot().context).toMatchObject({ email: '', password: '', user: satoshi });
    expect(t.reports).toEqual([{ type: 'auth.signedIn', user: satoshi }]);
    t.stream.emit({ event: 'SIGNED_IN', user: satoshi });
    expect(t.reports).toHaveLength(1);
  });

  it('ignores a second request, a submit or a toggle while the wallet is asked', async () => {
    const t = await signingIn();
    t.send({ type: 'auth.signInWithWallet', address: SATOSHI_ADDRESS });
    t.send({ type: 'auth.submit', email: 'ada@example.com', password: 'hunter22' });
    t.send({ type: 'auth.toggleMode' });
    expect(t.matches('modal.login.walletSignIn')).toBe(true);
    expect(t.walletSignIns).toHaveLength(1);
    expect(t.signIns).toHaveLength(0);
  });

  it('closes at once while the wallet is asked; its late answer says nothing, the session still follows', async () => {
    const t = await signingIn();
    t.send({ type: 'auth.close' });
    expect(t.matches('modal.closed')).toBe(true);
    expect(t.snapshot().context).toMatchObject({ email: '', password: '' });
    t.walletSignIns[0]?.resolve(satoshi);
    await settle();
    expect(t.toasts).toEqual([]);
    expect(t.reports).toEqual([]);
    t.stream.emit({ event: 'SIGNED_IN', user: satoshi });
    expect(t.reports).toEqual([{ type: 'auth.signedIn', user: satoshi }]);
  });

  it("a declined signature: 'Wallet Sign-In Failed' says so, back in the form it came from", async () => {
    const t = await signingIn('signup');
    t.walletSignIns[0]?.reject({ code: 'rejected', message: 'User rejected the request.' });
    await settle();
    expect(t.toasts).toEqual([
      {
        title: authCopy.walletSignInFailed,
        description: authCopy.walletSignInDeclined,
        variant: 'destructive',
      },
    ]);
    expect(t.matches('modal.signup.editing')).toBe(true);
    expect(t.snapshot().context.email).toBe('ada@example.com');
    expect(t.matches('session.available.signedOut')).toBe(true);
  });

  it.each([
    [
      'the backend refused the message',
      new BackendError('Signature does not match address in message', 'invalid_grant', 400),
      'Signature does not match address in message',
    ],
    ['no wallet is there to ask', { code: 'not-installed', message: null }, walletCopy.notInstalled],
    ['a failure that says nothing', {}, authCopy.unexpectedError],
  ])("other failures: 'Wallet Sign-In Failed' with %s", async (_, error, words) => {
    const t = await signingIn();
    t.walletSignIns[0]?.reject(error);
    await settle();
    expect(t.toasts).toEqual([
      { title: authCopy.walletSignInFailed, description: words, variant: 'destructive' },
    ]);
    expect(t.matches('modal.login.editing')).toBe(true);
  });

  it("without a client: 'Error', and the wallet is not asked", async () => {
    const t = await signedOut({ clientAvailable: false });
    t.send({ type: 'auth.open', mode: 'login' });
    t.send({ type: 'auth.signInWithWallet', address: SATOSHI_ADDRESS });
    expect(t.toasts.at(-1)).toEqual({ ...authCopy.clientUnavailable, variant: 'destructive' });
    expect(t.matches('modal.login.editing')).toBe(true);
    expect(t.walletSignIns).toHaveLength(0);
  });
});

describe('auth machine: signup', () => {
  async function submitting() {
    const t = await signedOut();
    t.send({ type: 'auth.open', mode: 'signup' });
    t.send({ type: 'auth.edit', email: 'ada@example.com', password: 'hunter22' });
    t.send({ type: 'auth.submit', email: 'ada@example.com', password: 'hunter22' });
    return t;
  }

  it('signs up with the submitted credentials', async () => {
    const t = await submitting();
    expect(t.matches('modal.signup.submitting')).toBe(true);
    expect(t.signUps[0]?.input).toEqual({ email: 'ada@example.com', password: 'hunter22' });
  });

  it('closes at once while the request runs, resetting the fields; its late answer shows nothing', async () => {
    const t = await submitting();
    t.send({ type: 'auth.close' });
    expect(t.matches('modal.closed')).toBe(true);
    expect(t.snapshot().context).toMatchObject({ email: '', password: '' });
    t.signUps[0]?.resolve({ user: unconfirmed, hasSession: false });
    await settle();
    // Not 'Confirmation Email Sent!' and no check-your-email state for a dialog the user closed.
    expect(t.toasts).toEqual([]);
    expect(t.matches('modal.closed')).toBe(true);
  });

  it.each([
    { label: 'an unconfirmed user', user: unconfirmed },
    { label: 'no user', user: null },
  ])(
    "with no session and $label: 'Confirmation Email Sent!' and the check-your-email state with the address",
    async ({ user }) => {
      const t = await submitting();
      t.signUps[0]?.resolve({ user, hasSession: false });
      await settle();
      expect(t.toasts).toEqual([authCopy.confirmationSent]);
      expect(t.matches('modal.checkEmail')).toBe(true);
      expect(t.snapshot().context).toMatchObject({ email: 'ada@example.com', password: '' });
      expect(t.matches('session.available.signedOut')).toBe(true);
      expect(t.reports).toEqual([]);
    },
  );

  it.each(['auth.confirmOk', 'auth.close'] as const)('%s closes the check-your-email state', async (type) => {
    const t = await submitting();
    t.signUps[0]?.resolve({ user: unconfirmed, hasSession: false });
    await settle();
    t.send({ type });
    expect(t.matches('modal.closed')).toBe(true);
    expect(t.snapshot().context.email).toBe('');
  });

  it("with a session: 'Signup Successful!', the modal closes and the session starts", async () => {
    const t = await submitting();
    t.signUps[0]?.resolve({ user: ada, hasSession: true });
    await settle();
    expect(t.toasts).toEqual([authCopy.signupSuccess]);
    expect(t.matches('modal.closed')).toBe(true);
    expect(t.snapshot().context).toMatchObject({ email: '', password: '' });
    expect(t.reports).toEqual([{ type: 'auth.signedIn', user: ada }]);
  });

  it("with a confirmed email but no session: 'Signup Successful!', still signed out", async () => {
    const t = await submitting();
    t.signUps[0]?.resolve({ user: ada, hasSession: false });
    await settle();
    expect(t.toasts).toEqual([authCopy.signupSuccess]);
    expect(t.matches('modal.closed')).toBe(true);
    expect(t.snapshot().context.password).toBe('');
    expect(t.matches('session.available.signedOut')).toBe(true);
    expect(t.reports).toEqual([]);
  });

  it('a session without a user ends nobody’s session: the signed-in user stays', async () => {
    const t = await signedIn(bob);
    t.send({ type: 'auth.open', mode: 'signup' });
    t.send({ type: 'auth.submit', email: 'ada@example.com', password: 'hunter22' });
    t.signUps[0]?.resolve({ user: null, hasSession: true });
    await settle();
    expect(t.toasts).toEqual([authCopy.signupSuccess]);
    expect(t.matches('session.available.signedIn')).toBe(true);
    expect(t.snapshot().context.user).toEqual(bob);
    expect(t.reports).toEqual([]);
  });

  it("on failure: 'Signup Failed' with the server message, or the fallback", async () => {
    const t = await submitting();
    t.signUps[0]?.reject(new Error('Password should be at least 6 characters.'));
    await settle();
    expect(t.matches('modal.signup.editing')).toBe(true);
    expect(t.snapshot().context).toMatchObject({ email: 'ada@example.com', password: '' });
    t.send({ type: 'auth.submit', email: 'ada@example.com', password: 'hunter22' });
    t.signUps[1]?.reject(null);
    await settle();
    expect(t.toasts).toEqual([
      {
        title: authCopy.signupFailed,
        description: 'Password should be at least 6 characters.',
        variant: 'destructive',
      },
      { title: authCopy.signupFailed, description: authCopy.unexpectedError, variant: 'destructive' },
    ]);
  });
});

describe('auth machine: sign-out', () => {
  it('is not requested while signed out', async () => {
    const t = await signedOut();
    t.send({ type: 'auth.signOut' });
    expect(t.signOuts).toHaveLength(0);
    expect(t.matches('signOut.idle')).toBe(true);
  });

  it("signs out: 'Logged Out' (default variant), the user is gone, reported once", async () => {
    const t = await signedIn();
    t.send({ type: 'auth.signOut' });
    expect(t.matches('signOut.requesting')).toBe(true);
    t.send({ type: 'auth.signOut' });
    expect(t.signOuts).toHaveLength(1);
    t.signOuts[0]?.resolve(undefined);
    await settle();
    expect(t.toasts).toEqual([authCopy.loggedOut]);
    expect(t.toasts[0]?.variant).toBeUndefined();
    expect(t.matches('signOut.idle')).toBe(true);
    expect(t.matches('session.available.signedOut')).toBe(true);
    expect(t.snapshot().context.user).toBeNull();
    t.stream.emit({ event: 'SIGNED_OUT', user: null });
    expect(t.reports).toEqual([{ type: 'auth.signedOut' }]);
  });

  it('keeps its toast when the stream reports the sign-out first', async () => {
    const t = await signedIn();
    t.send({ type: 'auth.signOut' });
    t.stream.emit({ event: 'SIGNED_OUT', user: null });
    t.signOuts[0]?.resolve(undefined);
    await settle();
    expect(t.toasts).toEqual([authCopy.loggedOut]);
    expect(t.reports).toEqual([{ type: 'auth.signedOut' }]);
  });

  it("on failure: 'Logout Failed' with the message, still signed in", async () => {
    const t = await signedIn();
    t.send({ type: 'auth.signOut' });
    t.signOuts[0]?.reject(new Error('Failed to fetch'));
    await settle();
    expect(t.toasts).toEqual([
      { title: authCopy.logoutFailed, description: 'Failed to fetch', variant: 'destructive' },
    ]);
    expect(t.matches('session.available.signedIn')).toBe(true);
    expect(t.matches('signOut.idle')).toBe(true);
    expect(t.reports).toEqual([]);
  });
});
