import { raise, stateIn } from 'xstate';
import { authCopy } from '../../copy/index.ts';
import { failed } from './auth-forms.ts';
import { modalRegion } from './auth.modal.ts';
import { sessionRegion } from './auth.session.ts';
import { authSetup } from './auth.setup.ts';

// The auth dialog, the session and their toasts: docs/product.md#auth-dialog, #session, #auth-toasts.
//
// Three parallel regions:
// - session: what the backend says (getSession, then the auth change stream). Only this
//   region reports signedIn / signedOut / userUpdated, so a fact is reported once whatever
//   order the stream and the requests answer in.
// - modal: the login / signup form, its requests and their toasts. Either form also offers
//   Sign in with Ethereum (`auth.signInWithWallet`): the connected wallet signs a message
//   instead of a password being sent, and it ends as a login does. The login form's 'Forgot
//   password?' mails a recovery link, whose PASSWORD_RECOVERY opens the new-password form; a page
//   opened from a used or expired emailed link (input.emailLinkFailed) says so and opens the
//   forgotten-password form at start.
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
//
// Its shapes are auth-types.ts; its setup (actors, actions, guards) auth.setup.ts; the `session`
// region auth.session.ts, the `modal` region auth.modal.ts with its forms in auth-forms.ts and its
// password recovery in auth.recovery.ts.

export type {
  AuthContext,
  AuthEvent,
  AuthFact,
  AuthInput,
  AuthMode,
  WalletSignInInput,
} from './auth-types.ts';

export const authMachine = authSetup.createMachine({
  id: 'auth',
  type: 'parallel',
  context: ({ input }) => ({
    clientAvailable: input.clientAvailable,
    user: null,
    email: '',
    password: '',
    sessionLost: false,
    emailLinkFailed: input.emailLinkFailed === true,
  }),
  states: {
    session: sessionRegion,
    modal: modalRegion,
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
