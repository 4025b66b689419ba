import { assign, fromPromise, setup } from 'xstate';
import { faucetCopy } from '../../copy/faucet.ts';
import type { FaucetClaim } from '../../domain/faucet.ts';
import { notProvided, reportFact, showToast } from '../shared.ts';
import { paidToast, refusedToast } from './faucet-toasts.ts';

// The faucet (issue 33, docs/product.md#faucet): 'Get test DDEX' beside the DDEX balance of a
// signed-in user whose proven wallet is connected. A press loads the human check (hCaptcha's
// widget, or on a local build its stand-in), whose token the claim carries to the `faucet`
// function; the answer is one toast. A paid claim's transfer is awaited, then the root is told
// `faucet.claimed` and refreshes the balances (the server records the transfer in the history and
// notifies it as any transfer in). The root spawns this machine for a signed-in session once its
// code has loaded (src/app/faucet.ts); the views show the button only where the faucet pays.

/** The human check the page shows: the local build's stand-in, or hCaptcha's widget for `sitekey`. */
export type HumanCheckWidget = { kind: 'local' } | { kind: 'hosted'; sitekey: string };

export type FaucetContext = {
  /** The human check to show, once loaded. */
  widget: HumanCheckWidget | null;
  /**
   * The check's response token, only while the claim that spends it is under way. Named a token so
   * that the journal replaces it wherever it sits (src/devtools/redact.ts).
   */
  captchaToken: string | null;
  /** The paid transfer's hash, while its receipt is awaited. */
  txHash: string | null;
};

export type FaucetEvent =
  | { type: 'faucet.claim' }
  /** The widget passed: hCaptcha's response token (the local stand-in's is hCaptcha's test token). */
  | { type: 'faucet.humanChecked'; token: string }
  /** The widget reported an error (hCaptcha's error-callback); it stays to be tried again. */
  | { type: 'faucet.humanCheckError' }
  | { type: 'faucet.cancel' };

/** What the faucet reports to the root. */
export type FaucetFact = { type: 'faucet.claimed' };

export const faucetMachine = setup({
  types: {} as { context: FaucetContext; events: FaucetEvent },
  actors: {
    /** Loads the human check's widget (hCaptcha's script on a hosted build) and says which to show. */
    loadHumanCheck: fromPromise<HumanCheckWidget>(notProvided('loadHumanCheck')),
    /** POST /functions/v1/faucet with the token; rejects with a FaucetFailure saying why not. */
    claimFaucet: fromPromise<FaucetClaim, { captchaToken: string }>(notProvided('claimFaucet')),
    /** Waits for the paid transfer's receipt, so the balances read afterwards show it. */
    confirmClaim: fromPromise<unknown, { txHash: string }>(notProvided('confirmClaim')),
  },
  actions: { showToast, report: reportFact<FaucetFact>() },
}).createMachine({
  id: 'faucet',
  context: { widget: null, captchaToken: null, txHash: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'faucet.claim': 'checking' },
    },
    /** The human check is shown beside the button until it passes or is cancelled. */
    checking: {
      initial: 'loading',
      on: { 'faucet.cancel': 'idle' },
      states: {
        loading: {
          invoke: {
            id: 'loadHumanCheck',
            src: 'loadHumanCheck',
            onDone: { target: 'ready', actions: assign({ widget: ({ event }) => event.output }) },
            onError: {
              target: '#faucet.idle',
              actions: {
                type: 'showToast',
                params: { ...faucetCopy.humanCheckUnavailable, variant: 'destructive' },
              },
            },
          },
        },
        ready: {
          on: {
            'faucet.humanChecked': {
              target: '#faucet.claiming',
              actions: assign({ captchaToken: ({ event }) => event.token }),
            },
            'faucet.humanCheckError': {
              actions: {
                type: 'showToast',
                params: { ...faucetCopy.humanCheckFailed, variant: 'destructive' },
              },
            },
          },
        },
      },
    },
    claiming: {
      tags: ['busy'],
      // The token is spent by this one claim, whatever its answer.
      exit: assign({ captchaToken: null }),
      invoke: {
        id: 'claimFaucet',
        src: 'claimFaucet',
        input: ({ context }) => ({ captchaToken: context.captchaToken ?? '' }),
        onDone: {
          target: 'confirming',
          actions: [
            assign({ txHash: ({ event }) => event.output.txHash }),
            { type: 'showToast', params: ({ event }) => paidToast(event.output) },
          ],
        },
        onError: {
          target: 'idle',
          actions: { type: 'showToast', params: ({ event }) => refusedToast(event.error) },
        },
      },
    },
    /** Paid: the transfer is awaited before the balances are read again, whatever the wait ends in. */
    confirming: {
      tags: ['busy'],
      exit: assign({ txHash: null }),
      invoke: {
        id: 'confirmClaim',
        src: 'confirmClaim',
        input: ({ context }) => ({ txHash: context.txHash ?? '' }),
        onDone: { target: 'idle', actions: { type: 'report', params: { type: 'faucet.claimed' } } },
        onError: { target: 'idle', actions: { type: 'report', params: { type: 'faucet.claimed' } } },
      },
    },
  },
});
