import { assign, fromPromise, setup, type DoneActorEvent } from 'xstate';
import { sendCopy, tokenCopy } from '../../copy/index.ts';
import type {
  ConfirmTransferRequest,
  Hex,
  PrepareWalletTransferRequest,
  TransferResult,
  WalletTransfer,
  WalletTransferCall,
} from '../../domain/token.ts';
import { isWalletError } from '../../domain/wallet.ts';
import { transferFailureWords, walletSendWords } from '../error-words.ts';
import { messageOf, notProvided, showToast, type ToastRequest } from '../shared.ts';

// One DDEX transfer sent by the connected wallet, invoked by the send machine once the form has
// passed its checks (docs/product.md#send-with-wallet). The token service checks it against the
// chain, the wallet signs and broadcasts it (EIP-1193 eth_sendTransaction: the wallet shows it and
// estimates gas), then the receipt is awaited:
//
//   preparing → requesting (the wallet's prompt) → pending (the hash) → done
//
// Each step and outcome is one toast. It ends with what the send machine must know: confirmed (the
// form is cleared, the history and balances refresh), unconfirmed (sent, no receipt yet: the same
// form must not send again), maybeSent (the wallet failed in a way that can come after it broadcast,
// and gave no hash: the same form warns before sending again), or stopped (nothing moved; the form
// is kept).

export type WalletSendInput = PrepareWalletTransferRequest;

export type WalletSendOutput =
  | { outcome: 'confirmed'; hash: string }
  | { outcome: 'unconfirmed'; hash: string }
  | { outcome: 'maybeSent' }
  | { outcome: 'stopped' };

export type WalletSendContext = {
  request: PrepareWalletTransferRequest;
  call: WalletTransferCall | null;
  hash: Hex | null;
  outcome: WalletSendOutput;
};

/** The tags a view reads to word the wallet's button. */
export const walletSendTags = { waiting: 'waitingForWallet', pending: 'pending' } as const;

const INPUT_REASONS: ReadonlySet<string> = new Set([
  'invalid-recipient',
  'invalid-amount',
  'insufficient-token-balance',
]);

/**
 * The wallet failures that prove it broadcast nothing: refused by the user, on another chain, absent,
 * busy with another request, or refused by the node for a nonce past the account's. Anything else (an answer that is not a hash, an internal error, a
 * relay's timeout) can come after the wallet broadcast the transfer.
 */
const NOTHING_SENT: ReadonlySet<string> = new Set([
  'rejected',
  'wrong-chain',
  'not-installed',
  'pending',
  'nonce-ahead',
]);

const reasonOf = (error: unknown): string | undefined => {
  const reason =
    typeof error === 'object' && error !== null ? (error as { reason?: unknown }).reason : undefined;
  return typeof reason === 'string' ? reason : undefined;
};

/** A refusal of the chain's checks: 'Invalid Transfer' for what was entered, else 'Transfer Failed'. */
function preparingFailed(error: unknown, recipient: string): ToastRequest {
  return {
    title: INPUT_REASONS.has(reasonOf(error) ?? '') ? sendCopy.invalidTransfer : sendCopy.transferFailed,
    description: transferFailureWords(error, recipient),
    variant: 'destructive',
  };
}

export const walletSendMachine = setup({
  types: {} as {
    context: WalletSendContext;
    input: WalletSendInput;
    output: WalletSendOutput;
  },
  actors: {
    prepareWalletTransfer: fromPromise<WalletTransfer, PrepareWalletTransferRequest>(
      notProvided('prepareWalletTransfer'),
    ),
    requestWalletTransfer: fromPromise<Hex, WalletTransferCall>(notProvided('requestWalletTransfer')),
    confirmTransfer: fromPromise<TransferResult, ConfirmTransferRequest>(notProvided('confirmTransfer')),
  },
  actions: { showToast },
  guards: {
    rejected: ({ event }) =>
      'error' in event && isWalletError(event.error) && event.error.code === 'rejected',
    nothingSent: ({ event }) =>
      'error' in event && isWalletError(event.error) && NOTHING_SENT.has(event.error.code),
    reverted: ({ event }) => 'error' in event && reasonOf(event.error) === 'reverted',
  },
}).createMachine({
  id: 'walletSend',
  context: ({ input }) => ({ request: input, call: null, hash: null, outcome: { outcome: 'stopped' } }),
  output: ({ context }) => context.outcome,
  initial: 'preparing',
  states: {
    preparing: {
      invoke: {
        id: 'prepareWalletTransfer',
        src: 'prepareWalletTransfer',
        input: ({ context }) => context.request,
        onDone: {
          target: 'requesting',
          actions: assign({
            call: ({ event }: { event: DoneActorEvent<WalletTransfer> }) => event.output.call,
          }),
        },
        onError: {
          target: 'done',
          actions: {
            type: 'showToast',
            params: ({ context, event }) => preparingFailed(event.error, context.request.to),
          },
        },
      },
    },
    requesting: {
      tags: [walletSendTags.waiting],
      entry: { type: 'showToast', params: sendCopy.walletPrompt },
      invoke: {
        id: 'requestWalletTransfer',
        src: 'requestWalletTransfer',
        input: ({ context }) => context.call as WalletTransferCall,
        onDone: { target: 'pending', actions: assign({ hash: ({ event }) => event.output }) },
        onError: [
          {
            guard: 'rejected',
            target: 'done',
            actions: { type: 'showToast', params: sendCopy.walletRejected },
          },
          {
            guard: 'nothingSent',
            target: 'done',
            actions: {
              type: 'showToast',
              params: ({ event }) => ({
                title: sendCopy.transferFailed,
                description: walletSendWords(event.error),
                variant: 'destructive',
              }),
            },
          },
          {
            // No hash to check: the send machine holds the form until the user has seen the warning.
            target: 'done',
            actions: [
              assign({ outcome: { outcome: 'maybeSent' } }),
              {
                type: 'showToast',
                params: ({ event }) => ({
                  title: sendCopy.mayHaveBeenSent,
                  description: `${walletSendWords(event.error)} ${sendCopy.walletMaybeSent}`,
                  variant: 'destructive',
                }),
              },
            ],
          },
        ],
      },
    },
    /** The wallet has broadcast it: from here on it may be mined whatever else happens. */
    pending: {
      tags: [walletSendTags.pending],
      entry: {
        type: 'showToast',
        params: ({ context }) => ({
          title: sendCopy.transferPending,
          description: sendCopy.transferPendingDescription(context.hash ?? ''),
        }),
      },
      invoke: {
        id: 'confirmTransfer',
        src: 'confirmTransfer',
        input: ({ context }) => ({ hash: context.hash as Hex, serialized: null }),
        onDone: {
          target: 'done',
          actions: [
            assign({ outcome: ({ event }) => ({ outcome: 'confirmed', hash: event.output.hash }) }),
            {
              type: 'showToast',
              params: ({ event }) => ({
                title: sendCopy.transferSubmitted,
                description: sendCopy.transferSubmittedDescription(event.output.hash),
              }),
            },
          ],
        },
        onError: [
          {
            guard: 'reverted',
            target: 'done',
            actions: {
              type: 'showToast',
              params: ({ context }) => ({
                title: sendCopy.transferFailed,
                description: `${tokenCopy.reverted} ${sendCopy.transactionHash(context.hash ?? '')}`,
                variant: 'destructive',
              }),
            },
          },
          {
            // No receipt in time, or the node could not be asked: it may still be mined.
            target: 'done',
            actions: [
              assign({ outcome: ({ context }) => ({ outcome: 'unconfirmed', hash: context.hash ?? '' }) }),
              {
                type: 'showToast',
                params: ({ event }) => ({
                  title: sendCopy.transferNotConfirmed,
                  description: `${messageOf(event.error, tokenCopy.unknown)} ${sendCopy.checksInsteadOfResending}`,
                  variant: 'destructive',
                }),
              },
            ],
          },
        ],
      },
    },
    done: { type: 'final' },
  },
});
