import { authCopy } from '../../copy/index.ts';
import { closeClears, failed } from './auth-forms.ts';
import { authSetup } from './auth.setup.ts';

// The auth dialog's password recovery (docs/product.md#password-recovery), states of the `modal`
// region (auth.modal.ts):
// - forgot: the login form's 'Forgot password?' asks for the email and mails the recovery link.
//   What it answers never says whether the address has an account: the backend answers an address
//   without one as a sent link, and the one refusal only an address with one can get (asked again
//   within the backend's email rate window, HTTP 429) is answered as a sent link too.
// - resetSent: the dialog says where the link went, in words that hold whether or not it exists.
// - recovery: the mailed link opened the portal signed in for recovery (PASSWORD_RECOVERY); the
//   user types a new password twice, and it is set. Closing keeps the session the link began.

const clientMissing = {
  guard: 'clientMissing',
  actions: { type: 'showToast', params: { ...authCopy.clientUnavailable, variant: 'destructive' } },
} as const;

export const forgotState = authSetup.createStateConfig({
  initial: 'editing',
  states: {
    editing: {
      on: {
        ...closeClears,
        'auth.backToLogin': '#auth.modal.login',
        'auth.requestReset': [
          {
            guard: 'emailMissing',
            actions: { type: 'showToast', params: { ...authCopy.emailRequired, variant: 'destructive' } },
          },
          clientMissing,
          { target: 'sending', actions: 'takeEmail' },
        ],
      },
    },
    sending: {
      on: closeClears,
      invoke: {
        id: 'requestPasswordReset',
        src: 'requestPasswordReset',
        input: ({ context }) => ({ email: context.email }),
        onDone: {
          target: '#auth.modal.resetSent',
          actions: { type: 'showToast', params: authCopy.resetSent },
        },
        onError: [
          {
            guard: 'resetRateLimited',
            target: '#auth.modal.resetSent',
            actions: { type: 'showToast', params: authCopy.resetSent },
          },
          { target: 'editing', actions: failed(authCopy.resetFailed) },
        ],
      },
    },
  },
});

export const resetSentState = authSetup.createStateConfig({
  on: {
    'auth.confirmOk': { target: '#auth.modal.closed', actions: 'clearFields' },
    ...closeClears,
  },
});

export const recoveryState = authSetup.createStateConfig({
  initial: 'editing',
  states: {
    editing: {
      on: {
        ...closeClears,
        'auth.setPassword': [
          {
            guard: 'newPasswordsMissing',
            actions: {
              type: 'showToast',
              params: { ...authCopy.newPasswordsRequired, variant: 'destructive' },
            },
          },
          {
            guard: 'newPasswordsDiffer',
            actions: { type: 'showToast', params: { ...authCopy.passwordsDiffer, variant: 'destructive' } },
          },
          // No client check: only the backend's client reports the recovery that opened this form.
          { target: 'saving', actions: 'takeNewPassword' },
        ],
      },
    },
    saving: {
      on: closeClears,
      invoke: {
        id: 'updatePassword',
        src: 'updatePassword',
        input: ({ context }) => ({ password: context.password }),
        onDone: {
          target: '#auth.modal.closed',
          actions: ['clearFields', { type: 'showToast', params: authCopy.passwordUpdated }],
        },
        onError: { target: 'editing', actions: ['clearPassword', failed(authCopy.passwordUpdateFailed)] },
      },
    },
  },
});
