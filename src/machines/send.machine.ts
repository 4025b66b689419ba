import { assign, fromPromise, setup } from 'xstate';
import { sendCopy, tokenCopy } from '../copy/index.ts';
import type { AuthUser } from '../domain/auth.ts';
import type {
  BroadcastTransferRequest,
  PreparedTransfer,
  SignedTransfer,
  TokenServiceErrorReason,
  TransferResult,
} from '../domain/token.ts';
import { messageOf, notProvided, reportFact, showToast } from './shared.ts';
import type { ToastRequest } from './shared.ts';

// The token send form (docs/product.md#send-form, #send-steps, #send-toasts). A submit is
// checked in the order of docs/product.md#send-form-order; with a token
// contract configured it then goes through the token service in three steps,
// so the private key is dropped the moment it has signed:
//
//   editing → sending.unsigned.preparing → sending.unsigned.signing → sending.broadcasting
//           → sending.recording (signed in only) → editing
//
// The key enters context only when the submit passes those checks, sealed (see
// SealedKey), and is set to null on every transition out of `unsigned`:
// signed, failed, or cancelled because the wallet or the session changed
// before anything was broadcast. A failure returns to `editing` keeping the
// recipient and amount, so the user loses nothing but the key, by design.
// A success clears the form, so a second press cannot repeat the transfer.

/**
 * The private key as the machine holds it and hands it to its actors. XState reports every
 * actor's input through inspection (`xstate.init` events, child snapshots), so the text is kept
 * in a closure: `reveal()` is the only way to it; JSON and string conversions say '[private key]'.
 * The providers in src/app/provide-portal.ts call `reveal()` when they pass the key to the token service.
 */
export type SealedKey = { readonly reveal: () => string; toJSON(): string; toString(): string };

function sealKey(text: string): SealedKey {
  return Object.freeze({
    reveal: () => text,
    toJSON: () => '[private key]',
    toString: () => '[private key]',
  });
}

export type SendInput = {
  /** False when no DDEX contract address is configured: every send stops with 'Configuration Error'. */
  tokenConfigured: boolean;
};

export type SendContext = {
  tokenConfigured: boolean;
  /** The connected wallet, learned from the root's `wallet.changed`. */
  walletAddress: string | null;
  chainId: number | null;
  /** The signed-in user, learned from the root's `session.changed`; only their sends are recorded. */
  userId: string | null;
  /** The form's fields as last submitted; kept after a failure, cleared after a success. */
  recipient: string;
  amount: string;
  /** Only while preparing and signing; null everywhere else. */
  privateKey: SealedKey | null;
  prepared: PreparedTransfer | null;
  /** The signed transaction, from signing until it is broadcast. */
  signed: SignedTransfer | null;
  /** The hash of the last transfer submitted. */
  lastHash: string | null;
};

export type SendEvent =
  /** The only event that carries the private key. */
  | { type: 'send.submit'; recipient: string; amount: string; privateKey: string }
  | { type: 'wallet.changed'; address: string | null; chainId: number | null }
  | { type: 'session.changed'; user: AuthUser | null };

/** The fact this machine reports to the root: a transfer went out (and was recorded, when signed in). */
export type SendFact = { type: 'send.transferSubmitted'; hash: string };

export type PrepareTransferInput = {
  privateKey: SealedKey;
  to: string;
  amount: string;
  expectedFrom: string;
};
export type SignTransferInput = { privateKey: SealedKey; prepared: PreparedTransfer };
export type RecordTransactionInput = { hash: string };

/** The tag of every state in which the button reads 'Broadcasting Transaction...' and submits are ignored. */
export const sendBusyTag = 'busy';

// Refusals of what the user entered, as opposed to failures of the network or the chain.
const INPUT_REASONS: ReadonlySet<TokenServiceErrorReason> = new Set<TokenServiceErrorReason>([
  'invalid-private-key',
  'wrong-account',
  'invalid-recipient',
  'invalid-address',
  'invalid-amount',
  'insufficient-token-balance',
]);

type Failure = { reason: string | undefined; message: string; hash: string | undefined };

function failureOf(error: unknown): Failure {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const message = messageOf(error, tokenCopy.unknown);
  return {
    reason: typeof fields.reason === 'string' ? fields.reason : undefined,
    message,
    hash: typeof fields.hash === 'string' ? fields.hash : undefined,
  };
}

/** The token service never echoes the key; this keeps a toast safe from any other actor that might. */
function withoutKey(message: string, key: SealedKey | null): string {
  const digits = key?.reveal().trim().replace(/^0x/i, '').toLowerCase() ?? '';
  if (digits.length < 8) return message;
  const lower = message.toLowerCase();
  let safe = '';
  let from = 0;
  for (let at = lower.indexOf(digits); at !== -1; at = lower.indexOf(digits, from)) {
    safe += `${message.slice(from, at)}[redacted]`;
    from = at + digits.length;
  }
  return safe + message.slice(from);
}

/** The toast of a failed step; a transfer already out (it has a hash) must not be retried blindly. */
function failureToast(error: unknown, key: SealedKey | null = null): ToastRequest {
  const { reason, message, hash } = failureOf(error);
  const title =
    reason !== undefined && INPUT_REASONS.has(reason as TokenServiceErrorReason)
      ? sendCopy.invalidTransfer
      : reason === 'confirmation-timeout'
        ? sendCopy.transferNotConfirmed
        : sendCopy.transferFailed;
  const safe = withoutKey(message, key);
  return {
    title,
    description: hash === undefined ? `${safe} ${sendCopy.keyCleared}` : safe,
    variant: 'destructive',
  };
}

const sameAddress = (a: string | null, b: string | null) =>
  (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

export const sendMachine = setup({
  types: {} as { context: SendContext; events: SendEvent; input: SendInput },
  actors: {
    prepareTransfer: fromPromise<PreparedTransfer, PrepareTransferInput>(notProvided('prepareTransfer')),
    signTransfer: fromPromise<SignedTransfer, SignTransferInput>(notProvided('signTransfer')),
    broadcastTransfer: fromPromise<TransferResult, BroadcastTransferRequest>(
      notProvided('broadcastTransfer'),
    ),
    recordTransaction: fromPromise<unknown, RecordTransactionInput>(notProvided('recordTransaction')),
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
      event.type === 'send.submit' ? { recipient: event.recipient, amount: event.amount } : {},
    ),
    takePrivateKey: assign(({ event }) =>
      event.type === 'send.submit' ? { privateKey: sealKey(event.privateKey) } : {},
    ),
    forgetPrivateKey: assign({ privateKey: null }),
    forgetTransfer: assign({ prepared: null, signed: null }),
  },
  guards: {
    noWallet: ({ context }) => context.walletAddress === null,
    missingInformation: ({ event }) =>
      event.type === 'send.submit' && (event.recipient.trim() === '' || event.amount.trim() === ''),
    noPrivateKey: ({ event }) => event.type === 'send.submit' && event.privateKey.trim() === '',
    noToken: ({ context }) => !context.tokenConfigured,
    walletMoved: ({ context, event }) =>
      event.type === 'wallet.changed' &&
      (!sameAddress(event.address, context.walletAddress) || event.chainId !== context.chainId),
    sessionLost: ({ context, event }) =>
      event.type === 'session.changed' && context.userId !== null && event.user?.id !== context.userId,
    signedIn: ({ context }) => context.userId !== null,
  },
}).createMachine({
  id: 'send',
  context: ({ input }) => ({
    tokenConfigured: input.tokenConfigured,
    walletAddress: null,
    chainId: null,
    userId: null,
    recipient: '',
    amount: '',
    privateKey: null,
    prepared: null,
    signed: null,
    lastHash: null,
  }),
  on: {
    'wallet.changed': { actions: 'rememberWallet' },
    'session.changed': { actions: 'rememberUser' },
  },
  initial: 'editing',
  states: {
    editing: {
      entry: 'forgetTransfer',
      on: {
        // The checks of docs/product.md#send-form-order, in this order.
        'send.submit': [
          {
            guard: 'noWallet',
            actions: [
              'keepFields',
              { type: 'showToast', params: { ...sendCopy.walletNotConnected, variant: 'destructive' } },
            ],
          },
          {
            guard: 'missingInformation',
            actions: [
              'keepFields',
              { type: 'showToast', params: { ...sendCopy.missingInformation, variant: 'destructive' } },
            ],
          },
          {
            guard: 'noPrivateKey',
            actions: [
              'keepFields',
              { type: 'showToast', params: { ...sendCopy.privateKeyRequired, variant: 'destructive' } },
            ],
          },
          {
            guard: 'noToken',
            actions: [
              'keepFields',
              { type: 'showToast', params: { ...sendCopy.configurationError, variant: 'destructive' } },
            ],
          },
          { target: 'sending', actions: ['keepFields', 'takePrivateKey'] },
        ],
      },
    },
    sending: {
      tags: [sendBusyTag],
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
                {
                  type: 'showToast',
                  params: { title: sendCopy.transferCancelled, description: sendCopy.cancelledWalletChanged },
                },
              ],
            },
            'session.changed': {
              guard: 'sessionLost',
              target: '#send.editing',
              actions: [
                'rememberUser',
                'forgetPrivateKey',
                {
                  type: 'showToast',
                  params: {
                    title: sendCopy.transferCancelled,
                    description: sendCopy.cancelledSessionChanged,
                  },
                },
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
                      params: ({ context, event }) => failureToast(event.error, context.privateKey),
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
                input: ({ context }) => ({
                  privateKey: context.privateKey ?? sealKey(''),
                  prepared: context.prepared as PreparedTransfer,
                }),
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
                      params: ({ context, event }) => failureToast(event.error, context.privateKey),
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
            onDone: [
              {
                guard: 'signedIn',
                target: 'recording',
                actions: [
                  assign({ lastHash: ({ event }) => event.output.hash, recipient: '', amount: '' }),
                  {
                    type: 'showToast',
                    params: ({ event }) => ({
                      title: sendCopy.transferSubmitted,
                      description: sendCopy.transferSubmittedDescription(event.output.hash),
                    }),
                  },
                ],
              },
              {
                target: '#send.editing',
                actions: [
                  assign({ lastHash: ({ event }) => event.output.hash, recipient: '', amount: '' }),
                  {
                    type: 'showToast',
                    params: ({ event }) => ({
                      title: sendCopy.transferSubmitted,
                      description: sendCopy.transferSubmittedDescription(event.output.hash),
                    }),
                  },
                  {
                    type: 'report',
                    params: ({ event }) => ({ type: 'send.transferSubmitted', hash: event.output.hash }),
                  },
                ],
              },
            ],
            onError: {
              target: '#send.editing',
              actions: { type: 'showToast', params: ({ event }) => failureToast(event.error) },
            },
          },
        },
        /** Signed in: the transfer is added to the history before the root refreshes it. */
        recording: {
          invoke: {
            id: 'recordTransaction',
            src: 'recordTransaction',
            input: ({ context }) => ({ hash: context.lastHash ?? '' }),
            onDone: {
              target: '#send.editing',
              actions: {
                type: 'report',
                params: ({ context }) => ({ type: 'send.transferSubmitted', hash: context.lastHash ?? '' }),
              },
            },
            // The transfer went through; only the history entry is missing.
            onError: {
              target: '#send.editing',
              actions: [
                {
                  type: 'showToast',
                  params: ({ context }) => ({
                    title: sendCopy.historyNotSaved,
                    description: sendCopy.historyNotSavedDescription(context.lastHash ?? ''),
                  }),
                },
                {
                  type: 'report',
                  params: ({ context }) => ({ type: 'send.transferSubmitted', hash: context.lastHash ?? '' }),
                },
              ],
            },
          },
        },
      },
    },
  },
});
