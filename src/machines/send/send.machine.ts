import { enqueueActions } from 'xstate';
import { REFUSE } from './send-toasts.ts';
import { sendingState } from './send.sending.ts';
import { sendSetup } from './send.setup.ts';

// The token send form (docs/product.md#send-form, #send-steps, #send-toasts). A submit is
// checked in the order of docs/product.md#send-form-order; with a token
// contract configured it then goes through the token service in three steps,
// so the private key is dropped the moment it has signed:
//
//   editing → sending.unsigned.preparing → sending.unsigned.signing → sending.broadcasting → editing
//
// The key enters context only when the submit passes those checks, sealed (see
// SealedKey), and is set to null on every transition out of `unsigned`:
// signed, failed, or cancelled because the wallet or the session changed
// before anything was broadcast. A failure returns to `editing` keeping the
// recipient and amount, so the user loses nothing but the key, by design.
// A success clears the form, so a second press cannot repeat the transfer. A signed-in user's
// transfer is then queued in the historyOutbox child, which saves its history row (retrying while
// the backend is down) while the form is free; the transfer is reported to the root once it has
// left the outbox. A visitor's is reported at once. When the user signs out or switches accounts,
// the rows still waiting are abandoned with a toast: the call needs the session that sent them.
//
// 'Send with wallet' (send.submitWithWallet) passes the same checks but the key's, then the
// walletSend child has the connected wallet sign and broadcast the transfer:
//
//   editing → sending.withWallet (walletSend) → editing
//
// Never twice: a transfer that may have gone out without its outcome being known (the broadcast's
// answer was lost, no receipt came in time) is kept as `unresolved`, and a submit of the same form
// from the same wallet goes to sending.checking, which looks that transaction up instead of
// signing another one; a different form signed meanwhile takes its nonce, so only one of the two can
// be mined. A wallet failure with no hash is held too: the next submit of that form only warns.
// All of it lives in this machine's context (docs/reliability-and-security.md#sends).
//
// Beside it: its shapes (send-types.ts, send-events.ts), the form checks (send-checks.ts), the
// sealed key (send-key.ts), the unresolved transfer (send-unresolved.ts) and the toasts
// (send-toasts.ts); its setup (send.setup.ts: actors, actions, guards) and its `sending` state
// (send.sending.ts). SealedKey is re-exported for the providers and tests that hand the machine a key.
export type { SealedKey } from './send-key.ts';

export type { SendEvent } from './send-events.ts';

export type {
  PrepareTransferInput,
  RecordTransactionInput,
  SendContext,
  SendFact,
  SendInput,
  SignTransferInput,
} from './send-types.ts';

export { sendBusyTag } from './send.sending.ts';

export const sendMachine = sendSetup.createMachine({
  id: 'send',
  context: ({ input }) => ({
    tokenConfigured: input.tokenConfigured,
    walletAddress: null,
    chainId: null,
    userId: null,
    sentBy: null,
    recipient: '',
    amount: '',
    privateKey: null,
    prepared: null,
    signed: null,
    lastHash: null,
    unresolved: null,
  }),
  invoke: { id: 'historyOutbox', src: 'historyOutbox' },
  on: {
    'wallet.changed': { actions: 'rememberWallet' },
    'session.changed': [
      { guard: 'sessionLost', actions: ['rememberUser', 'abandonHistory'] },
      { actions: 'rememberUser' },
    ],
    // Saved, given up or abandoned: each transfer is reported once it has left the outbox.
    'historyOutbox.settled': {
      actions: enqueueActions(({ event, enqueue }) => {
        for (const hash of event.hashes) {
          enqueue({ type: 'report', params: { type: 'send.transferSubmitted', hash } });
        }
      }),
    },
  },
  initial: 'editing',
  states: {
    editing: {
      entry: 'forgetTransfer',
      on: {
        // The checks of docs/product.md#send-form-order, in this order.
        'send.submit': [
          { guard: 'noWallet', actions: ['keepFields', REFUSE.walletNotConnected] },
          { guard: 'missingInformation', actions: ['keepFields', REFUSE.missingInformation] },
          // The key is not needed, so not asked for: nothing is signed again.
          { guard: 'sameAsUnchecked', actions: ['keepFields', 'forgetUnresolved', REFUSE.unchecked] },
          { guard: 'sameAsUnresolved', target: 'sending.checking', actions: 'keepFields' },
          { guard: 'noPrivateKey', actions: ['keepFields', REFUSE.privateKeyRequired] },
          { guard: 'noToken', actions: ['keepFields', REFUSE.configurationError] },
          { guard: 'fieldsRefused', actions: ['keepFields', REFUSE.fields] },
          { target: 'sending', actions: ['keepFields', 'takePrivateKey'] },
        ],
        // The same checks but the key's; the balance is the one the page shows.
        'send.submitWithWallet': [
          { guard: 'noWallet', actions: ['keepFields', REFUSE.walletNotConnected] },
          { guard: 'missingInformation', actions: ['keepFields', REFUSE.missingInformation] },
          { guard: 'sameAsUnchecked', actions: ['keepFields', 'forgetUnresolved', REFUSE.unchecked] },
          { guard: 'sameAsUnresolved', target: 'sending.checking', actions: 'keepFields' },
          { guard: 'noToken', actions: ['keepFields', REFUSE.configurationError] },
          { guard: 'fieldsRefused', actions: ['keepFields', REFUSE.fields] },
          { target: 'sending.withWallet', actions: 'keepFields' },
        ],
      },
    },
    sending: sendingState,
  },
});
