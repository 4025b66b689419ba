import { assign, enqueueActions, fromPromise, sendTo, setup } from 'xstate';
import { sendCopy } from '../copy/index.ts';
import type {
  BroadcastTransferRequest,
  ConfirmTransferRequest,
  Hex,
  PreparedTransfer,
  SignedTransfer,
  TransferResult,
} from '../domain/token.ts';
import { historyOutboxMachine } from './history-outbox.machine.ts';
import { fieldProblem, isSubmit, missingInformation, sameAddress } from './send-checks.ts';
import { sealKey } from './send-key.ts';
import type {
  PrepareTransferInput,
  SendContext,
  SendEvent,
  SendFact,
  SendInput,
  SignTransferInput,
} from './send-types.ts';
import {
  cancelledToast,
  failureToast,
  maybeSent,
  maybeSentToast,
  REFUSE,
  replacedOnChain,
  replacedToast,
  REPORT_SUBMITTED,
  SUBMITTED,
} from './send-toasts.ts';
import {
  nonceToReuse,
  repeatsUnresolved,
  unresolvedTransfer,
  type UnresolvedTransfer,
} from './send-unresolved.ts';
import { notProvided, reportFact, showToast } from './shared.ts';
import { walletSendMachine, type WalletSendOutput } from './wallet-send.machine.ts';

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
// Beside it: its shapes (send-types.ts), the form checks (send-checks.ts), the sealed key (send-key.ts), the unresolved
// transfer (send-unresolved.ts) and the toasts (send-toasts.ts). SealedKey is re-exported for the
// providers and tests that hand the machine a key.
export type { SealedKey } from './send-key.ts';

export type {
  PrepareTransferInput,
  RecordTransactionInput,
  SendContext,
  SendEvent,
  SendFact,
  SendInput,
  SignTransferInput,
} from './send-types.ts';

/** The tag of every state in which the button reads 'Broadcasting Transaction...' and submits are ignored. */
export const sendBusyTag = 'busy';

export const sendMachine = setup({
  types: {} as { context: SendContext; events: SendEvent; input: SendInput },
  actors: {
    prepareTransfer: fromPromise<PreparedTransfer, PrepareTransferInput>(notProvided('prepareTransfer')),
    signTransfer: fromPromise<SignedTransfer, SignTransferInput>(notProvided('signTransfer')),
    broadcastTransfer: fromPromise<TransferResult, BroadcastTransferRequest>(
      notProvided('broadcastTransfer'),
    ),
    confirmTransfer: fromPromise<TransferResult, ConfirmTransferRequest>(notProvided('confirmTransfer')),
    walletSend: walletSendMachine,
    historyOutbox: historyOutboxMachine,
  },
  actions: {
    showToast,
    report: reportFact<SendFact>(),
    rememberWallet: assign(({ event }) =>
      event.type === 'wallet.changed' ? { walletAddress: event.address, chainId: event.chainId } : {},
    ),
    rememberUser: assign(({ event }) =>
      event.type === 'session.changed' ? { userId: event.user?.id ?? null } : {},
    ),
    keepFields: assign(({ event }) =>
      isSubmit(event) ? { recipient: event.recipient, amount: event.amount } : {},
    ),
    /** A transfer went out and was confirmed: the form is cleared and nothing is left to check. */
    submitted: assign((_, params: { hash: string }) => ({
      lastHash: params.hash,
      recipient: '',
      amount: '',
      unresolved: null,
    })),
    forgetUnresolved: assign({ unresolved: null }),
    takePrivateKey: assign(({ event }) =>
      event.type === 'send.submit' ? { privateKey: sealKey(event.privateKey) } : {},
    ),
    forgetPrivateKey: assign({ privateKey: null }),
    forgetTransfer: assign({ prepared: null, signed: null }),
    queueHistory: sendTo('historyOutbox', ({ context }) => ({
      type: 'historyOutbox.add' as const,
      hash: context.lastHash ?? '',
    })),
    abandonHistory: sendTo('historyOutbox', { type: 'historyOutbox.abandon' as const }),
  },
  guards: {
    noWallet: ({ context }) => context.walletAddress === null,
    missingInformation: ({ event }) => isSubmit(event) && missingInformation(event),
    fieldsRefused: ({ event }) => fieldProblem(event) !== null,
    /** The same form, from the same wallet, as a transfer that may have been sent. */
    sameAsUnresolved: ({ context, event }) => isSubmit(event) && repeatsUnresolved(context, event),
    /** ... and the wallet gave no hash for it: nothing to check, so the user is warned first. */
    sameAsUnchecked: ({ context, event }) =>
      isSubmit(event) && repeatsUnresolved(context, event) && context.unresolved?.hash === null,
    replacedOnChain: ({ event }) => 'error' in event && replacedOnChain(event.error),
    maybeSent: ({ event }) => 'error' in event && maybeSent(event.error),
    walletConfirmed: ({ event }) =>
      'output' in event && (event.output as WalletSendOutput).outcome === 'confirmed',
    walletUnconfirmed: ({ event }) =>
      'output' in event && (event.output as WalletSendOutput).outcome === 'unconfirmed',
    walletMaybeSent: ({ event }) =>
      'output' in event && (event.output as WalletSendOutput).outcome === 'maybeSent',
    noPrivateKey: ({ event }) => event.type === 'send.submit' && event.privateKey.trim() === '',
    noToken: ({ context }) => !context.tokenConfigured,
    walletMoved: ({ context, event }) =>
      event.type === 'wallet.changed' &&
      (!sameAddress(event.address, context.walletAddress) || event.chainId !== context.chainId),
    sessionLost: ({ context, event }) =>
      event.type === 'session.changed' && context.userId !== null && event.user?.id !== context.userId,
    /**
     * Signed in, and not as another account than the one that sent it: a visitor who signs in
     * mid-send keeps the transfer (record-transaction checks the wallet is theirs), but a switch
     * from one account to another must not file the first one's transfer under the second.
     */
    signedIn: ({ context }) =>
      context.userId !== null && (context.sentBy === null || context.sentBy === context.userId),
  },
}).createMachine({
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
    sending: {
      tags: [sendBusyTag],
      entry: assign({ sentBy: ({ context }) => context.userId }),
      initial: 'unsigned',
      states: {
        /** The key is in context; every way out of here forgets it. */
        unsigned: {
          initial: 'preparing',
          on: {
            // Nothing has left the machine yet, so a send meant for another wallet or
            // account is stopped rather than finished under the new one.
            'wallet.changed': {
              guard: 'walletMoved',
              target: '#send.editing',
              actions: [
                'rememberWallet',
                'forgetPrivateKey',
                cancelledToast(sendCopy.cancelledWalletChanged),
              ],
            },
            'session.changed': {
              guard: 'sessionLost',
              target: '#send.editing',
              actions: [
                'rememberUser',
                'abandonHistory',
                'forgetPrivateKey',
                cancelledToast(sendCopy.cancelledSessionChanged),
              ],
            },
          },
          states: {
            preparing: {
              invoke: {
                id: 'prepareTransfer',
                src: 'prepareTransfer',
                input: ({ context }) => ({
                  privateKey: context.privateKey ?? sealKey(''),
                  to: context.recipient,
                  amount: context.amount,
                  expectedFrom: context.walletAddress ?? '',
                }),
                onDone: { target: 'signing', actions: assign({ prepared: ({ event }) => event.output }) },
                onError: {
                  target: '#send.editing',
                  actions: [
                    {
                      type: 'showToast',
                      params: ({ context, event }) =>
                        failureToast(event.error, context.recipient, context.privateKey),
                    },
                    'forgetPrivateKey',
                  ],
                },
              },
            },
            signing: {
              invoke: {
                id: 'signTransfer',
                src: 'signTransfer',
                input: ({ context }) => {
                  const replaces = nonceToReuse(context);
                  const prepared = context.prepared as PreparedTransfer;
                  return {
                    privateKey: context.privateKey ?? sealKey(''),
                    prepared: replaces === null ? prepared : { ...prepared, replaces },
                  };
                },
                // The signed transaction replaces the key in one step.
                onDone: {
                  target: '#send.sending.broadcasting',
                  actions: assign({ signed: ({ event }) => event.output, privateKey: null }),
                },
                onError: {
                  target: '#send.editing',
                  actions: [
                    {
                      type: 'showToast',
                      params: ({ context, event }) =>
                        failureToast(event.error, context.recipient, context.privateKey),
                    },
                    'forgetPrivateKey',
                  ],
                },
              },
            },
          },
        },
        broadcasting: {
          invoke: {
            id: 'broadcastTransfer',
            src: 'broadcastTransfer',
            input: ({ context }) => ({ serialized: (context.signed as SignedTransfer).serialized }),
            onDone: SUBMITTED,
            onError: [
              {
                // The hash was known before sending: this form now checks it instead of sending again.
                guard: 'maybeSent',
                target: '#send.editing',
                actions: [
                  assign({
                    unresolved: ({ context }) =>
                      unresolvedTransfer(context, context.signed as SignedTransfer),
                  }),
                  { type: 'showToast', params: ({ event }) => maybeSentToast(event.error) },
                ],
              },
              {
                target: '#send.editing',
                actions: {
                  type: 'showToast',
                  params: ({ context, event }) => failureToast(event.error, context.recipient),
                },
              },
            ],
          },
        },
        /** A submit of the form of an unresolved transfer: that transaction is looked up, nothing signed. */
        checking: {
          invoke: {
            id: 'confirmTransfer',
            src: 'confirmTransfer',
            input: ({ context }) => {
              const { hash, serialized, from } = context.unresolved as UnresolvedTransfer;
              return { hash: hash as Hex, serialized, ...(serialized === null ? {} : { from }) };
            },
            onDone: SUBMITTED,
            onError: [
              {
                // Its nonce went to another transaction: this one can never be mined.
                guard: 'replacedOnChain',
                target: '#send.editing',
                actions: [
                  'forgetUnresolved',
                  { type: 'showToast', params: ({ event }) => replacedToast(event.error) },
                ],
              },
              {
                guard: 'maybeSent',
                target: '#send.editing',
                actions: { type: 'showToast', params: ({ event }) => maybeSentToast(event.error) },
              },
              {
                // Reverted, or refused before it was ever accepted: nothing moved, a new send may go.
                target: '#send.editing',
                actions: [
                  'forgetUnresolved',
                  {
                    type: 'showToast',
                    params: ({ context, event }) => failureToast(event.error, context.recipient),
                  },
                ],
              },
            ],
          },
        },
        withWallet: {
          invoke: {
            id: 'walletSend',
            src: 'walletSend',
            input: ({ context }) => ({
              from: context.walletAddress ?? '',
              to: context.recipient,
              amount: context.amount,
            }),
            // The child has shown each step's toast, 'Transfer Submitted' included.
            onDone: [
              {
                guard: 'walletConfirmed',
                target: 'recordingIfSignedIn',
                actions: {
                  type: 'submitted',
                  params: ({ event }) => ({ hash: (event.output as { hash: string }).hash }),
                },
              },
              {
                guard: 'walletUnconfirmed',
                target: '#send.editing',
                actions: assign({
                  unresolved: ({ context, event }) =>
                    unresolvedTransfer(context, {
                      hash: (event.output as { hash: Hex }).hash,
                      serialized: null,
                    }),
                }),
              },
              {
                guard: 'walletMaybeSent',
                target: '#send.editing',
                actions: assign({
                  unresolved: ({ context }) => unresolvedTransfer(context, { hash: null, serialized: null }),
                }),
              },
              { target: '#send.editing' },
            ],
          },
        },
        /** A signed-in user's confirmed transfer is queued for its history row; a visitor's is only reported. */
        recordingIfSignedIn: {
          always: [
            { guard: 'signedIn', target: '#send.editing', actions: 'queueHistory' },
            { target: '#send.editing', actions: REPORT_SUBMITTED },
          ],
        },
      },
    },
  },
});
