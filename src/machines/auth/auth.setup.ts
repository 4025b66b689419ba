import { and, assign, fromCallback, fromPromise, not, raise, setup, stateIn } from 'xstate';
import type { EventObject } from 'xstate';
import {
  isRateLimited,
  type AuthChange,
  type AuthUser,
  type Credentials,
  type SignUpResult,
} from '../../domain/auth.ts';
import type {
  AuthContext,
  AuthEvent,
  AuthFact,
  AuthInput,
  NewPasswordInput,
  PasswordResetInput,
  WalletSignInInput,
} from './auth-types.ts';
import { notProvided, reportFact, showToast } from '../shared.ts';

// The auth machine's setup: its actors, actions and guards, which the chart (auth.machine.ts) and
// its regions (auth.session.ts, auth.modal.ts) name.

/** The change an `auth.change` carries; null for any other event. */
export function changeOf(event: AuthEvent): AuthChange | null {
  return event.type === 'auth.change' ? event.change : null;
}

export const authSetup = setup({
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
    /** Mails a recovery link; it answers alike whether or not the address has an account. */
    requestPasswordReset: fromPromise<unknown, PasswordResetInput>(notProvided('requestPasswordReset')),
    /** Sets the password of the user a recovery link signed in. */
    updatePassword: fromPromise<unknown, NewPasswordInput>(notProvided('updatePassword')),
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
    forgetEmailLinkFailure: assign({ emailLinkFailed: false }),
    /** The change a successful sign-in implies, so the session follows even if the stream is late. */
    raiseSignedIn: raise((_, user: AuthUser): AuthEvent => ({
      type: 'auth.change',
      change: { event: 'SIGNED_IN', user },
    })),
    clearFields: assign({ email: '', password: '' }),
    takeEmail: assign(({ context, event }) =>
      event.type === 'auth.forgotPassword' || event.type === 'auth.requestReset'
        ? { email: event.email.trim() }
        : { email: context.email },
    ),
    takeNewPassword: assign(({ event }) =>
      event.type === 'auth.setPassword' ? { password: event.password } : {},
    ),
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
    emailLinkFailed: ({ context }) => context.emailLinkFailed,
    /** A reset asked again too soon: only an address with an account is refused so. */
    resetRateLimited: ({ event }) => 'error' in event && isRateLimited(event.error),
    emailMissing: ({ event }) => event.type === 'auth.requestReset' && event.email.trim() === '',
    newPasswordsMissing: ({ event }) =>
      event.type === 'auth.setPassword' && (event.password === '' || event.repeatedPassword === ''),
    newPasswordsDiffer: ({ event }) =>
      event.type === 'auth.setPassword' && event.password !== event.repeatedPassword,
    /** A recovery link was followed: supabase-js reports PASSWORD_RECOVERY with its session. */
    changeIsPasswordRecovery: ({ event }) =>
      changeOf(event)?.event === 'PASSWORD_RECOVERY' && changeOf(event)?.user != null,
  },
});
