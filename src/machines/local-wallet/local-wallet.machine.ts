import { assign, fromCallback, fromPromise, sendTo, setup, type EventObject } from 'xstate';
import { localWalletCopy } from '../../copy/local-wallet.ts';
import type { LocalWalletAsk, LocalWalletRequest } from '../../domain/local-wallet.ts';
import type { SealedKey } from '../send/send-key.ts';
import { notProvided, showToast } from '../shared.ts';

// The local test wallet's own chart (issue: a wallet for every newcomer on the local chain). Its
// code loads only when a person takes the wallet, in a build for the local chain; the wallet
// machine spawns it then (system id `localWallet`). Two regions:
// - `approval`: every connect, signature and transaction the wallet is asked for waits here, one
//   at a time and in order, until the person approves or rejects it in the dialog; the answer goes
//   back to the wallet (a rejection is EIP-1193's 4001 there).
// - `menu`: the wallet's key revealed (sealed, so the journal never holds it) and hidden, and the
//   wallet replaced by a new one after a confirmation.

export type { LocalWalletAsk, LocalWalletRequest };

export type LocalWalletInput = { address: string };

export type LocalWalletContext = {
  address: string;
  /** Asked and not answered yet; the first is in the dialog. */
  pending: LocalWalletAsk[];
  /** The key while it is shown, sealed: only the view that shows it opens it. */
  revealedKey: SealedKey | null;
};

/** What the `approvals` actor sends back: the wallet asks. */
export type LocalWalletAsked = { type: 'localWallet.asked' } & LocalWalletAsk;

/** What the `approvals` actor is told: the person's answer to one ask. */
export type LocalWalletAnswer = { type: 'localWallet.answer'; id: number; approved: boolean };

export type LocalWalletEvent =
  | LocalWalletAsked
  | { type: 'localWallet.approve' }
  | { type: 'localWallet.reject' }
  | { type: 'localWallet.revealKey' }
  | { type: 'localWallet.hideKey' }
  | { type: 'localWallet.replace' }
  | { type: 'localWallet.replaceConfirmed' }
  | { type: 'localWallet.cancel' };

export const localWalletMachine = setup({
  types: {} as { context: LocalWalletContext; events: LocalWalletEvent; input: LocalWalletInput },
  actors: {
    /** The wallet's asks, sent back as `localWallet.asked`; it takes the answers. */
    approvals: fromCallback<EventObject>(notProvided('approvals')),
    /** The stored key, sealed. */
    readKey: fromPromise<SealedKey>(notProvided('readKey')),
    /** A new key in place of the stored one, then the page loads again with the new wallet. */
    replaceWallet: fromPromise<unknown>(notProvided('replaceWallet')),
  },
  actions: {
    showToast,
    /** The answer to the ask in the dialog goes back to the wallet. */
    answer: sendTo('approvals', ({ context }, params: { approved: boolean }): LocalWalletAnswer => ({
      type: 'localWallet.answer',
      id: context.pending[0]?.id ?? -1,
      approved: params.approved,
    })),
    /** The next ask moves up. */
    dropAnswered: assign({ pending: ({ context }) => context.pending.slice(1) }),
  },
  guards: { asked: ({ context }) => context.pending.length > 0 },
}).createMachine({
  id: 'localWallet',
  context: ({ input }) => ({ address: input.address, pending: [], revealedKey: null }),
  invoke: { id: 'approvals', src: 'approvals' },
  on: {
    'localWallet.asked': {
      actions: assign({
        pending: ({ context, event }) => [...context.pending, { id: event.id, request: event.request }],
      }),
    },
  },
  type: 'parallel',
  states: {
    approval: {
      initial: 'idle',
      states: {
        idle: { always: { guard: 'asked', target: 'asking' } },
        asking: {
          on: {
            'localWallet.approve': {
              target: 'answered',
              actions: [{ type: 'answer', params: { approved: true } }, 'dropAnswered'],
            },
            'localWallet.reject': {
              target: 'answered',
              actions: [{ type: 'answer', params: { approved: false } }, 'dropAnswered'],
            },
          },
        },
        /** The next ask, if any, takes the dialog at once. */
        answered: { always: [{ guard: 'asked', target: 'asking' }, { target: 'idle' }] },
      },
    },
    menu: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'localWallet.revealKey': 'revealing', 'localWallet.replace': 'confirmingReplace' },
        },
        revealing: {
          invoke: {
            id: 'readKey',
            src: 'readKey',
            onDone: { target: 'revealed', actions: assign({ revealedKey: ({ event }) => event.output }) },
            onError: 'closed',
          },
        },
        revealed: {
          exit: assign({ revealedKey: null }),
          on: { 'localWallet.hideKey': 'closed', 'localWallet.replace': 'confirmingReplace' },
        },
        confirmingReplace: {
          on: { 'localWallet.replaceConfirmed': 'replacing', 'localWallet.cancel': 'closed' },
        },
        replacing: {
          invoke: {
            id: 'replaceWallet',
            src: 'replaceWallet',
            onError: {
              target: 'closed',
              actions: {
                type: 'showToast',
                params: ({ event }) => ({
                  title: localWalletCopy.replaceFailed,
                  description: event.error instanceof Error ? event.error.message : String(event.error),
                  variant: 'destructive' as const,
                }),
              },
            },
          },
        },
      },
    },
  },
});
