import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { appCopy, authCopy, shellCopy, shortAddress } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import type { AuthChange, AuthUser } from '../../src/domain/auth.ts';
import { authMachine } from '../../src/machines/auth/auth.machine.ts';
import { PASSWORD, signedInUser, uniqueEmail, type TestUser } from '../support/stack/users.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { gatewayFor, type AppVariant } from '../support/e2e/context.ts';
import { confirmationLink } from '../support/e2e/mailbox.ts';
import { openProfileDialog } from '../support/e2e/ui.ts';
import type { Snapshot } from '../support/model/paths.ts';
import { describeUiModel } from '../support/ui/index.ts';
import {
  acting,
  expireStoredSession,
  failHeld,
  following,
  hold,
  logInInAnotherTab,
  logInThere,
  loginLeftOpenInAnotherTab,
  logOutInAnotherTab,
  recordToasts,
  release,
  reopenInAnotherTab,
  sawNoToast,
  sawToast,
  type StepWorld,
} from '../support/ui/session.ts';
import { logInThroughUi, openWorld, walletOf } from '../support/ui/world.ts';

// The auth chart through the portal: the session read as the page starts (from a session an
// earlier visit stored, an expired one the gateway refuses to refresh, or none), the Login and
// Sign Up dialogs against the real gateway (a wrong password, a too short one, a sign-up whose
// gateway mails a link), Sign in with Ethereum with the mock wallet, Logout, and what other tabs
// do to the session. Each request is held while its waiting state is checked, then let through
// (the gateway answers) or failed as a stopped server fails it.

// The model's users: who the page shows signed in.
const modelUser = (id: string, fields: Partial<AuthUser> = {}): AuthUser => ({
  id,
  email: `${id}@ui.example`,
  emailConfirmedAt: '2024-01-01T00:00:00Z',
  web3Address: null,
  metadata: {},
  ...fields,
});
/** The world's user, from the session an earlier visit stored. */
const stored = modelUser('stored');
/** The world's user, logged in on this visit (here or in another tab). */
const ada = modelUser('ada');
/** Another user, logged in in another tab. */
const bob = modelUser('bob');
/** Signed up on this visit. */
const fresh = modelUser('fresh');
const unconfirmed = { ...fresh, emailConfirmedAt: null };
/** Signed in with the uiWeb3 wallet. */
const web3 = modelUser('web3', { email: null, emailConfirmedAt: null, web3Address: '0xweb3' });

// What the form is given, in the model; the causes type the real values.
const KNOWN = 'known@ui.example'; // the world's user
const UNKNOWN = 'unknown@ui.example'; // a new address
const RIGHT = 'right';
const WRONG = 'wrong';
const SHORT = 'short'; // shorter than the gateway's minimum
const typed = { [RIGHT]: PASSWORD, [WRONG]: 'wrong-password-1', [SHORT]: '12345' } as const;

type AuthWorld = StepWorld & {
  variant: AppVariant;
  /** The address last typed into the form. */
  email: string;
  /** A tab left with its Login dialog open since before anybody signed in. */
  waitingTab: Page | null;
  bob(): Promise<TestUser>;
};

const changeOf = (event: object) => (event as { change: AuthChange }).change;
const userId = (state: Snapshot) => (state.context as { user: AuthUser | null }).user?.id ?? null;
const sessionLost = (state: Snapshot) => (state.context as { sessionLost: boolean }).sessionLost;
const loading = (state: Snapshot) => state.matches({ session: { available: 'loading' } });
const signingOut = (state: Snapshot) => state.matches({ signOut: 'requesting' });
const form = (state: Snapshot) => (state.matches({ modal: 'signup' }) ? 'signup' : 'login');
/** What a running request was given, as `email/password`; null while none runs. */
function submitted(state: Snapshot): string | null {
  if (
    !state.matches({ modal: { login: 'submitting' } }) &&
    !state.matches({ modal: { signup: 'submitting' } })
  )
    return null;
  const { email, password } = state.context as { email: string; password: string };
  return `${email}/${password}`;
}
const hasSession = (event: object) => (event as { output: { hasSession: boolean } }).output.hasSession;

/** A button of the portal screen, also while a dialog covers it (the page stays in view behind). */
const portalButton = (page: Page, name: string) =>
  page.locator('main').getByRole('button', { name, exact: true, includeHidden: true });
const authDialog = (page: Page, state: Snapshot) =>
  page.getByRole('dialog', { name: form(state) === 'signup' ? authCopy.titleSignUp : authCopy.titleLogin });
const walletButton = (page: Page) =>
  page.getByRole('dialog').getByRole('button', { name: new RegExp(`^${authCopy.continueWithWallet}`) });

/** The name the user menu shows for each model user. */
async function displayNameOf(world: AuthWorld, id: string): Promise<string> {
  const local = (email: string) => email.split('@')[0] ?? '';
  switch (id) {
    case 'bob':
      return local((await world.bob()).email);
    case 'fresh':
      return local(world.email);
    case 'web3':
      return shortAddress(walletOf(world).address);
    default:
      return local((await world.user()).email);
  }
}

const releaseWallet = (world: AuthWorld) => world.page.evaluate(() => window.__mockWalletRelease?.());

/** The toast each step shows, by the outcome the model says it had (docs/product.md#auth-toasts). */
function toastOf(world: AuthWorld, state: Snapshot): string | null {
  if (!world.step) return null;
  const { event, from } = world.step;
  switch (event.type) {
    case 'xstate.done.actor.getSession':
      if (sessionLost(state)) return authCopy.sessionEnded.title;
      // Nobody after loading, and no wallet either: the visitor is welcomed.
      return userId(state) === null && !world.wallet ? appCopy.welcome.title : null;
    case 'xstate.error.actor.getSession':
      return authCopy.sessionError.title;
    case 'auth.change':
      return changeOf(event).event === 'SIGNED_OUT' && !loading(from) && !signingOut(from)
        ? authCopy.sessionEnded.title
        : null;
    case 'xstate.done.actor.signIn':
    case 'xstate.done.actor.signInWithWallet':
      return authCopy.loginSuccess.title;
    case 'xstate.error.actor.signIn':
      return authCopy.loginFailed;
    case 'xstate.error.actor.signInWithWallet':
      return authCopy.walletSignInDeclined;
    case 'xstate.done.actor.signUp':
      return hasSession(event) ? authCopy.signupSuccess.title : authCopy.confirmationSent.title;
    case 'xstate.error.actor.signUp':
      return authCopy.signupFailed;
    case 'xstate.done.actor.signOut':
      return authCopy.loggedOut.title;
    case 'xstate.error.actor.signOut':
      return authCopy.logoutFailed;
    default:
      return null;
  }
}

/** Types the form's fields as the model gave them and submits. */
async function submit(world: AuthWorld, event: AnyEventObject, from: Snapshot): Promise<void> {
  const { email, password } = event as unknown as { email: string; password: keyof typeof typed };
  world.email = email === KNOWN ? (await world.user()).email : uniqueEmail('ui-auth');
  const dialog = authDialog(world.page, from);
  await dialog.getByLabel(dialogCopy.auth.email, { exact: true }).fill(world.email);
  await dialog.getByLabel(dialogCopy.auth.password, { exact: true }).fill(typed[password]);
  const name = form(from) === 'signup' ? authCopy.signUp : authCopy.login;
  await dialog.getByRole('button', { name, exact: true }).click();
}

/** A change of the session that reaches the page from outside it. */
async function changeSession(world: AuthWorld, event: AnyEventObject, from: Snapshot): Promise<void> {
  const change = changeOf(event);
  // The answer held as the page started (an expired session's refresh) or as it logged out.
  if (loading(from) || signingOut(from)) return release(world);
  switch (change.event) {
    case 'SIGNED_OUT':
      return logOutInAnotherTab(world);
    case 'SIGNED_IN':
      if (change.user?.id === 'bob') return logInThere(waitingTab(world), await world.bob());
      return userId(from) === null ? logInInAnotherTab(world, await world.user()) : reopenInAnotherTab(world);
    case 'USER_UPDATED':
      return saveProfile(world);
    default:
      throw new Error(`no cause for ${change.event}`);
  }
}

function waitingTab(world: AuthWorld): Page {
  if (!world.waitingTab)
    throw new Error('open() leaves a Login dialog open in another tab for paths with bob');
  return world.waitingTab;
}

/** Saves the profile, which writes the user's metadata: the session's user is updated. */
async function saveProfile(world: AuthWorld): Promise<void> {
  const { page } = world;
  const dialog = await openProfileDialog(page);
  await dialog.getByLabel(dialogCopy.profile.fullName, { exact: true }).fill('Ada Lovelace');
  const updated = page.waitForResponse(
    (response) => response.url().includes('/auth/v1/user') && response.request().method() === 'PUT',
  );
  await dialog.getByRole('button', { name: dialogCopy.profile.save, exact: true }).click();
  await updated;
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

/** The page starts again as the path's first step needs, its session read held until that step. */
async function start(world: AuthWorld, first: AnyEventObject | undefined): Promise<void> {
  const { page } = world;
  const expired = first?.type === 'auth.change';
  if (expired || (first?.type === 'xstate.done.actor.getSession' && first['output'] !== null)) {
    await logInThroughUi(world);
  }
  if (expired) {
    // Stored by an earlier visit, expired since, and its refresh token no longer valid.
    await expireStoredSession(page);
    await hold(world, /\/auth\/v1\/token\?grant_type=refresh_token/, 'POST');
  } else {
    // The backend client's code, which the session read waits for.
    await hold(world, /\/assets\/supabase-[^/]+\.js$/);
  }
  await page.goto(`${world.portal.appUrl}/`, { waitUntil: 'load' });
}

const account = () => e2eAccount('uiWeb3');

const noClient =
  "every e2e build has a Supabase configuration: the portal without one (no client, the spec's 'Initialization Error') is not built for the browser tests";
const required =
  'both inputs are required: the browser refuses to submit the form with either empty (and trims an email of spaces to empty), so the page never sends a submit with a missing field';

describeUiModel({
  name: 'auth',
  machine: authMachine,
  input: { clientAvailable: true },
  events: {
    'xstate.done.actor.getSession': [
      { type: 'xstate.done.actor.getSession', output: stored },
      { type: 'xstate.done.actor.getSession', output: null },
    ],
    'xstate.error.actor.getSession': [
      { type: 'xstate.error.actor.getSession', error: new Error('The backend client could not be loaded') },
    ],
    'auth.change': [
      { type: 'auth.change', change: { event: 'SIGNED_OUT', user: null } },
      { type: 'auth.change', change: { event: 'SIGNED_IN', user: ada } },
      { type: 'auth.change', change: { event: 'SIGNED_IN', user: bob } },
      { type: 'auth.change', change: { event: 'USER_UPDATED', user: ada } },
    ],
    'auth.open': [
      { type: 'auth.open', mode: 'login' },
      { type: 'auth.open', mode: 'signup' },
    ],
    'auth.submit': [
      { type: 'auth.submit', email: KNOWN, password: RIGHT },
      { type: 'auth.submit', email: KNOWN, password: WRONG },
      { type: 'auth.submit', email: UNKNOWN, password: RIGHT },
      { type: 'auth.submit', email: UNKNOWN, password: SHORT },
    ],
    'auth.signInWithWallet': [{ type: 'auth.signInWithWallet', address: '0xweb3' }],
    'xstate.done.actor.signIn': [{ type: 'xstate.done.actor.signIn', output: ada }],
    'xstate.error.actor.signIn': [
      { type: 'xstate.error.actor.signIn', error: new Error('Invalid login credentials') },
    ],
    'xstate.done.actor.signUp': [
      { type: 'xstate.done.actor.signUp', output: { user: unconfirmed, hasSession: false } },
      { type: 'xstate.done.actor.signUp', output: { user: fresh, hasSession: true } },
    ],
    'xstate.error.actor.signUp': [{ type: 'xstate.error.actor.signUp', error: new Error('weak password') }],
    'xstate.done.actor.signInWithWallet': [{ type: 'xstate.done.actor.signInWithWallet', output: web3 }],
    'xstate.error.actor.signInWithWallet': [
      { type: 'xstate.error.actor.signInWithWallet', error: { code: 'rejected', message: null } },
    ],
    'xstate.error.actor.signOut': [{ type: 'xstate.error.actor.signOut', error: new Error('offline') }],
  },
  // What the views depend on: the states, who is signed in, whether a stored session was
  // dropped as it was read, and what a running request was given (its answer depends on it).
  serializeState: (state) =>
    JSON.stringify([state.value, userId(state), sessionLost(state), submitted(state)]),

  async open(path) {
    // The gateway that mails a link is the confirmEmail build's; every other path uses the full one.
    const variant: AppVariant = path.has('xstate.done.actor.signUp', {
      output: { user: unconfirmed, hasSession: false },
    })
      ? 'confirmEmail'
      : 'full';
    const portal = await openWorld({
      variant,
      wallet: path.has('auth.signInWithWallet') ? { account: account(), connected: true } : false,
    });
    let second: Promise<TestUser> | null = null;
    const world: AuthWorld = {
      ...portal,
      variant,
      held: null,
      mark: 0,
      step: null,
      email: '',
      waitingTab: null,
      bob: () => (second ??= signedInUser(gatewayFor(variant), 'ui-auth-bob')),
    };
    await recordToasts(world);
    // Bob logs in where another tab left the Login dialog open before anybody signed in.
    if (path.has('auth.change', { change: { event: 'SIGNED_IN', user: bob } }))
      world.waitingTab = await loginLeftOpenInAnotherTab(world);
    await start(world, path.events[0]);
    return world;
  },

  views: {
    // Nothing tells a reading session from a visitor's yet (see the report): the visitor's buttons,
    // and none of the toasts that end the reading.
    'session.available.loading': async (world, state) => {
      await portalButton(world.page, authCopy.login).waitFor();
      expect(await portalButton(world.page, authCopy.logout).count()).toBe(0);
      if (!sessionLost(state)) {
        const ends = [appCopy.welcome.title, authCopy.sessionEnded.title, authCopy.sessionError.title];
        await sawNoToast(world.page, ends, 0);
      }
    },
    'session.available.signedOut': async (world) => {
      await portalButton(world.page, authCopy.login).waitFor();
      await portalButton(world.page, authCopy.signUp).waitFor();
      await expect.poll(() => portalButton(world.page, authCopy.logout).count()).toBe(0);
    },
    'session.available.signedIn': async (world, state) => {
      const name = await displayNameOf(world, userId(state) ?? '');
      await world.page
        .getByRole('button', { name: shellCopy.userMenu(name), exact: true, includeHidden: true })
        .waitFor();
      await portalButton(world.page, authCopy.logout).waitFor();
      // Logout can be pressed again unless it is running.
      if (!signingOut(state))
        await expect.poll(() => portalButton(world.page, authCopy.logout).isEnabled()).toBe(true);
    },
    'signOut.requesting': async (world, state) => {
      if (userId(state) === null) return; // the session has already ended; Logout is gone
      await expect.poll(() => portalButton(world.page, authCopy.logout).isDisabled()).toBe(true);
    },
    'modal.closed': async (world) => {
      await expect.poll(() => world.page.getByRole('dialog').count()).toBe(0);
    },
    'modal.login.editing': (world, state) => showsForm(world, state, authCopy.login),
    'modal.signup.editing': (world, state) => showsForm(world, state, authCopy.signUp),
    'modal.login.submitting': (world, state) => showsBusy(world, state, dialogCopy.auth.loggingIn),
    'modal.signup.submitting': (world, state) => showsBusy(world, state, dialogCopy.auth.signingUp),
    'modal.login.walletSignIn': (world, state) => showsBusy(world, state, dialogCopy.auth.walletSigningIn),
    'modal.signup.walletSignIn': (world, state) => showsBusy(world, state, dialogCopy.auth.walletSigningIn),
    'modal.checkEmail': async (world) => {
      const dialog = world.page.getByRole('dialog', { name: authCopy.confirmTitle });
      await dialog.getByText(dialogCopy.auth.confirmSent(world.email), { exact: true }).waitFor();
      await dialog.getByText(authCopy.confirmSpamHint, { exact: true }).waitFor();
      await dialog.getByRole('button', { name: authCopy.confirmOk, exact: true }).waitFor();
      // The link is in the mailbox of the address typed.
      expect(await confirmationLink(world.variant, world.email)).toContain('verify');
    },
    // The toast the step that led here showed (a newer one may have replaced it since).
    '*': async (world, state) => {
      const toast = toastOf(world, state);
      if (toast) await sawToast(world.page, toast, world.mark);
      if (world.step?.event.type === 'xstate.done.actor.getSession' && !sessionLost(state))
        await sawNoToast(world.page, [authCopy.sessionEnded.title, authCopy.sessionError.title], world.mark);
    },
  },

  arrange: {
    'modal.login.submitting': (world) => hold(world, /\/auth\/v1\/token\?grant_type=password/, 'POST'),
    'modal.signup.submitting': (world) => hold(world, /\/auth\/v1\/signup/, 'POST'),
    'modal.login.walletSignIn': async (world) => void (await walletOf(world).holdNextOf('personal_sign')),
    'modal.signup.walletSignIn': async (world) => void (await walletOf(world).holdNextOf('personal_sign')),
    'signOut.requesting': (world) => hold(world, /\/auth\/v1\/logout/, 'POST'),
  },

  causes: {
    'xstate.done.actor.getSession': following,
    'xstate.error.actor.getSession': acting(failHeld),
    'auth.change': acting(changeSession),
    'auth.open': acting((world, event: AnyEventObject) =>
      portalButton(world.page, event['mode'] === 'signup' ? authCopy.signUp : authCopy.login).click(),
    ),
    'auth.toggleMode': acting((world, _event, from) =>
      authDialog(world.page, from)
        .getByRole('button', {
          name: form(from) === 'signup' ? authCopy.login : authCopy.signUp,
          exact: true,
        })
        .click(),
    ),
    // Escape, as the X and the backdrop do.
    'auth.close': acting((world) => world.page.keyboard.press('Escape')),
    'auth.submit': acting(submit),
    'auth.signInWithWallet': acting((world) => walletButton(world.page).click()),
    // The gateway answers what was typed: the right password, a wrong one, a new address, a short password.
    'xstate.done.actor.signIn': acting(release),
    'xstate.error.actor.signIn': acting(release),
    'xstate.done.actor.signUp': acting(release),
    'xstate.error.actor.signUp': acting(release),
    'xstate.done.actor.signInWithWallet': acting(releaseWallet),
    'xstate.error.actor.signInWithWallet': acting(async (world) => {
      await walletOf(world).rejectNextOf('personal_sign');
      await releaseWallet(world);
    }),
    'auth.confirmOk': acting((world) =>
      world.page.getByRole('button', { name: authCopy.confirmOk, exact: true }).click(),
    ),
    'auth.signOut': acting((world) => portalButton(world.page, authCopy.logout).click()),
    // Logged out: supabase-js ends the session when the gateway has answered (a step of its own
    // when the path takes that change first).
    'xstate.done.actor.signOut': (world, event, from) =>
      world.held ? acting(release)(world, event, from) : following(world, event, from),
    // The gateway cannot be reached: the session stays.
    'xstate.error.actor.signOut': acting(failHeld),
  },

  can: (event, state) => {
    const user = userId(state);
    const closed = state.matches({ modal: 'closed' });
    if (loading(state)) {
      // The session is read before anything else is done; a dropped session is refused once.
      if (event.type === 'auth.change') return changeOf(event).event === 'SIGNED_OUT' && !sessionLost(state);
      if (event.type === 'xstate.done.actor.getSession')
        return !sessionLost(state) || (event as unknown as { output: unknown }).output === null;
      return event.type === 'xstate.error.actor.getSession' && !sessionLost(state);
    }
    switch (event.type) {
      case 'auth.change': {
        const change = changeOf(event);
        if (signingOut(state)) return change.event === 'SIGNED_OUT' && user !== null;
        // Other tabs change the session while this one's dialog is closed (the graph stays small).
        if (!closed) return false;
        if (change.event === 'SIGNED_OUT') return user !== null;
        if (change.event === 'USER_UPDATED') return user === 'ada';
        if (change.user?.id === 'bob') return user === 'ada';
        return user === null || user === 'ada';
      }
      case 'auth.open':
        return user === null && closed && !signingOut(state);
      case 'auth.signOut':
        return user !== null && closed;
      case 'auth.submit': {
        const { email, password } = event as unknown as { email: string; password: string };
        return form(state) === 'login' ? email === KNOWN : email === UNKNOWN && password !== WRONG;
      }
      case 'xstate.done.actor.signIn':
        return submitted(state) === `${KNOWN}/${RIGHT}`;
      case 'xstate.error.actor.signIn':
        return submitted(state) === `${KNOWN}/${WRONG}`;
      case 'xstate.done.actor.signUp':
        return submitted(state) === `${UNKNOWN}/${RIGHT}`;
      case 'xstate.error.actor.signUp':
        return submitted(state) === `${UNKNOWN}/${SHORT}`;
      // A failed logout keeps the session: supabase-js ends it only once the gateway has answered.
      case 'xstate.error.actor.signOut':
        return user !== null;
      default:
        return true;
    }
  },

  notUiReachable: {
    'auth.edit':
      'the form is uncontrolled: the view reads the fields on submit and sends them with auth.submit, never auth.edit',
  },
  reasons: {
    'auth.session.unavailable': noClient,
    'auth.session.starting --always#0--> auth.session.unavailable': noClient,
    'auth.modal.login.editing --auth.submit#0--> (stays)': required,
    'auth.modal.signup.editing --auth.submit#0--> (stays)': required,
    'auth.modal.login.editing --auth.submit#1--> (stays)': noClient,
    'auth.modal.signup.editing --auth.submit#1--> (stays)': noClient,
    'auth.modal.login.editing --auth.signInWithWallet#0--> (stays)': noClient,
    'auth.modal.signup.editing --auth.signInWithWallet#0--> (stays)': noClient,
    'auth.modal.signup.submitting --xstate.done.actor.signUp#2--> auth.modal.closed':
      'neither gateway of the local stack answers a sign-up with a confirmed user and no session (lite gives a session when confirmations are off, and an unconfirmed user or an error when they are on)',
  },
});

async function showsForm(world: AuthWorld, state: Snapshot, submitName: string): Promise<void> {
  const dialog = authDialog(world.page, state);
  const submitButton = dialog.getByRole('button', { name: submitName, exact: true });
  await submitButton.waitFor();
  await expect.poll(() => submitButton.getAttribute('aria-disabled')).toBeNull();
  // The password never stays in the form; after a refused request the address typed does.
  await expect.poll(() => dialog.getByLabel(dialogCopy.auth.password, { exact: true }).inputValue()).toBe('');
  if (/^xstate\.error\.actor\.sign(In|Up)$/.test(world.step?.event.type ?? ''))
    await expect
      .poll(() => dialog.getByLabel(dialogCopy.auth.email, { exact: true }).inputValue())
      .toBe(world.email);
}

async function showsBusy(world: AuthWorld, state: Snapshot, busyName: string): Promise<void> {
  await authDialog(world.page, state).getByRole('button', { name: busyName, exact: true }).waitFor();
}
