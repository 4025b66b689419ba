import { assign, fromPromise, setup } from 'xstate';
import type {
  BroadcastTransferRequest,
  ConfirmTransferRequest,
  PreparedTransfer,
  SignedTransfer,
  TransferResult,
} from '../../domain/token.ts';
import { historyOutboxMachine, type HistoryOutboxEvent } from './history-outbox.machine.ts';
import { fieldProblem, isSubmit, missingInformation, sameAddress } from './send-checks.ts';
import { sealKey } from './send-key.ts';
import type { SendEvent } from './send-events.ts';
import type {
  PrepareTransferInput,
  SendContext,
  SendFact,
  SendInput,
  SignTransferInput,
} from './send-types.ts';
import { maybeSent, replacedOnChain } from './send-toasts.ts';
import { repeatsUnresolved } from './send-unresolved.ts';
import { notProvided, reportFact, showToast } from '../shared.ts';
import { tellerOf } from '../tell.ts';
import { walletSendMachine, type WalletSendOutput } from './wallet-send.machine.ts';

// The send machine's setup: its types, actors, actions and guards, which the chart
// (send.machine.ts) and its `sending` state (send.sending.ts) name.

/** Send's typed `sendTo` by child id (tell.ts): its outbox is the one child it addresses. */
const tell = tellerOf<SendContext, SendEvent, { historyOutbox: HistoryOutboxEvent }>();

export const sendSetup = setup({
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
    queueHistory: tell('historyOutbox', ({ context }) => ({
      type: 'historyOutbox.add',
      hash: context.lastHash ?? '',
    })),
    abandonHistory: tell('historyOutbox', { type: 'historyOutbox.abandon' }),
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
});
