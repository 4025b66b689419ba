import { and, not, raise, stateIn } from 'xstate';
import { authCopy } from '../../copy/index.ts';
import { closeClears, editingHandlers, failed, walletSignInState } from './auth-forms.ts';
import type { AuthEvent } from './auth-types.ts';
import { authSetup } from './auth.setup.ts';
import { forgotState, recoveryState, resetSentState } from './auth.recovery.ts';

// The auth machine's `modal` region: the login / signup dialog, its requests and their toasts.
// What either form answers while the user types, and its wallet sign-in, are in auth-forms.ts; the
// password recovery (forgot, resetSent, recovery) in auth.recovery.ts.

export const modalRegion = authSetup.createStateConfig({
  initial: 'closed',
  on: {
    // A recovery link opens the portal in recovery, whatever the dialog showed; nothing typed in
    // another form (a login password) stays behind.
    'auth.change': {
      guard: and(['changeIsPasswordRecovery', not(stateIn('#auth.modal.recovery'))]),
      target: '.recovery',
      actions: 'clearFields',
    },
  },
  states: {
    closed: {
      // Opened from a used or expired emailed link: the way to a new one, once.
      always: {
        guard: 'emailLinkFailed',
        target: 'forgot',
        actions: [
          'forgetEmailLinkFailure',
          { type: 'showToast', params: { ...authCopy.linkFailed, variant: 'destructive' } },
        ],
      },
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
        editing: {
          on: {
            ...editingHandlers('#auth.modal.signup'),
            // The address comes along, the password typed beside it does not.
            'auth.forgotPassword': { target: '#auth.modal.forgot', actions: ['clearPassword', 'takeEmail'] },
          },
        },
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
                  raise(({ event }): AuthEvent => ({
                    type: 'auth.change',
                    change: { event: 'SIGNED_IN', user: event.output.user },
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
    forgot: forgotState,
    resetSent: resetSentState,
    recovery: recoveryState,
  },
});
