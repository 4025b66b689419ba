import { assertEvent } from 'xstate';
import { authCopy } from '../../copy/index.ts';
import type { AuthUser } from '../../domain/auth.ts';
import type { AuthEvent } from './auth-types.ts';
import { walletSignInWords } from '../error-words.ts';
import { failedToast } from '../shared.ts';

// The auth machine's dialog forms (docs/product.md#auth-dialog): what the login and signup forms
// answer while the user types, closing, and the wallet sign-in state either form enters. Plain
// state configuration, used by the `modal` region (auth.modal.ts) and the `signOut` region
// (`failed`); the actions and guards they name are declared in auth.setup.ts.

/** A request's failure: its title, and the service's words or the generic fallback. */
export const failed = failedToast;

const clientMissing = {
  guard: 'clientMissing',
  actions: { type: 'showToast', params: { ...authCopy.clientUnavailable, variant: 'destructive' } },
} as const;

/**
 * Closing the dialog empties the form. While a request runs it does so at once
 * (docs/product.md#auth-dialog): leaving the state stops the request's actor, so its late answer is
 * dropped, and a sign-in that did succeed still arrives through the session's change stream.
 */
export const closeClears = {
  'auth.close': { target: '#auth.modal.closed', actions: 'clearFields' },
} as const;

/**
 * What the login and signup forms answer while the user types: the same checks in the same
 * order, and the toggle to the other form. Submitting starts that form's own request; either
 * form may sign in with the wallet instead.
 */
export function editingHandlers(otherForm: '#auth.modal.login' | '#auth.modal.signup') {
  return {
    'auth.toggleMode': otherForm,
    'auth.edit': { actions: 'editFields' },
    ...closeClears,
    'auth.submit': [
      {
        guard: 'fieldsMissing',
        actions: { type: 'showToast', params: { ...authCopy.credentialsRequired, variant: 'destructive' } },
      },
      clientMissing,
      { target: 'submitting', actions: 'takeSubmittedFields' },
    ],
    'auth.signInWithWallet': [clientMissing, { target: 'walletSignIn', actions: 'clearPassword' }],
  } as const;
}

/** Sign in with Ethereum, from either form: it ends as a login does, a failure back in that form. */
export function walletSignInState() {
  return {
    on: closeClears,
    invoke: {
      id: 'signInWithWallet',
      src: 'signInWithWallet',
      input: ({ event }: { event: AuthEvent }) => {
        assertEvent(event, 'auth.signInWithWallet');
        return { statement: authCopy.walletSignInStatement, address: event.address };
      },
      onDone: {
        target: '#auth.modal.closed',
        actions: [
          'clearFields',
          { type: 'showToast', params: authCopy.loginSuccess },
          { type: 'raiseSignedIn', params: ({ event }: { event: { output: AuthUser } }) => event.output },
        ],
      },
      onError: { target: 'editing', actions: failed(authCopy.walletSignInFailed, walletSignInWords) },
    },
  } as const;
}
