import { assign } from 'xstate';
import { sendCopy } from '../../copy/index.ts';
import type { Hex, PreparedTransfer, SignedTransfer } from '../../domain/token.ts';
import { sealKey } from './send-key.ts';
import {
  cancelledToast,
  failureToast,
  maybeSentToast,
  replacedToast,
  REPORT_SUBMITTED,
  SUBMITTED,
} from './send-toasts.ts';
import type { UnresolvedTransfer } from './send-types.ts';
import { nonceToReuse, unresolvedTransfer } from './send-unresolved.ts';
import { sendSetup } from './send.setup.ts';

// The send machine's `sending` state: a submit that passed the form's checks, from the key's
// preparing and signing to the broadcast, the check of an unresolved transfer, or the wallet's own
// send, until the form is free again (the path is drawn in send.machine.ts).

/** The tag of every state in which the button reads 'Broadcasting Transaction...' and submits are ignored. */
export const sendBusyTag = 'busy';

export const sendingState = sendSetup.createStateConfig({
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
          actions: ['rememberWallet', 'forgetPrivateKey', cancelledToast(sendCopy.cancelledWalletChanged)],
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
                unresolved: ({ context }) => unresolvedTransfer(context, context.signed as SignedTransfer),
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
});
