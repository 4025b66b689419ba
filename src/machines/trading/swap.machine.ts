import { assign } from 'xstate';
import type { SwapResult } from '../../domain/dex.ts';
import type { Hex } from '../../domain/token.ts';
import { formState } from './swap.form.ts';
import { outcome, swapSetup, toast } from './swap.setup.ts';
import { swapToasts } from './swap-toasts.ts';
import { approvingState, swappingState } from './swap.transactions.ts';
import { initialSwapContext } from './swap-checks.ts';

// The Trading tab's swap form and the swap it makes (docs/product.md#dex-trading), invoked by the
// trading machine. ETH → DDEX (buy) or DDEX → ETH (sell) through the connected wallet, on an
// exact-input quote from the router that follows the chain: typing re-quotes after a short pause,
// each new block re-quotes at once. A sale first needs the router's allowance (the exact amount,
// or unlimited when the user opts in); the form offers the approval when the allowance falls short.
//
//   routing → noWallet | wrongNetwork | form
//   form: empty | invalid | debouncing → quoting → quoted.{insufficientBalance, slippageRefused,
//         needsApproval, ready} | insufficientLiquidity | quoteFailed
//   ready → (a tolerance above 5 %) confirmingHighSlippage → swapping, or back to the quote
//   approving / swapping: preparing (the call is built) → waitingForWallet → pending (the hash)
//   → confirmed (the amounts the pair's events report) | rejected | reverted | failed → form
//
// Slippage above 50 % is refused (quoted.slippageRefused); above 5 % 'Swap' asks the person to
// confirm it before the wallet is asked (`slippageNeedsConfirmation`); above 1 % the view only
// warns (`slippageWarning` in swap-checks.ts). An approval's outcome is a toast and the form again;
// a swap's outcome stays until dismissed. A transaction under way is followed to its outcome first.

export type { SwapFact, SwapInput } from './swap-types.ts';

export { swapTags } from './swap.setup.ts';

export const swapMachine = swapSetup.createMachine({
  id: 'swap',
  context: ({ input }) => initialSwapContext(input),
  on: {
    'wallet.changed': { target: '.routing', actions: 'takeWallet' },
    'session.changed': { actions: assign({ signedIn: ({ event }) => event.user !== null }) },
  },
  initial: 'routing',
  states: {
    /** Where the form starts again: after a wallet change, an approval, or a dismissed outcome. */
    routing: {
      entry: assign({ call: null, order: null, hash: null, result: null, problem: null }),
      always: [
        { guard: 'noWallet', target: 'noWallet' },
        { guard: 'wrongNetwork', target: 'wrongNetwork' },
        { target: 'form' },
      ],
    },
    noWallet: {},
    wrongNetwork: {},
    form: formState,
    /**
     * 'Swap' pressed with a slippage tolerance above 5 % (and up to 50 %): nothing is asked of the
     * wallet until the person confirms. The fields are locked and the quote is not refreshed, so
     * what is confirmed is what was on screen; cancelling finds the form as it was left.
     */
    confirmingHighSlippage: {
      on: {
        'swap.confirmSlippage': { target: 'swapping', actions: 'takeOrder' },
        'swap.cancel': '#swap.form.quoted',
      },
    },
    approving: approvingState,
    swapping: swappingState,
    /** Mined: `result` holds the amounts the pair's events report. */
    confirmed: {
      ...outcome,
      entry: [
        { type: 'showToast', params: ({ context }) => swapToasts.confirmed(context) },
        {
          type: 'tellParent',
          params: ({ context }) => {
            const { hash, side, amountIn, amountOut } = context.result as SwapResult;
            return { type: 'swap.confirmed', hash, side, amountIn, amountOut };
          },
        },
        // The next swap starts from an empty amount.
        assign({ amountText: '', quote: null }),
      ],
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'signedIn', target: 'recording' }, { target: 'done' }] },
        /** A signed-in user's swap goes into the transaction history. */
        recording: {
          invoke: {
            id: 'recordSwap',
            src: 'recordSwap',
            input: ({ context }) => ({ hash: context.hash as Hex }),
            onDone: {
              target: 'done',
              actions: {
                type: 'tellParent',
                params: ({ context }) => ({ type: 'swap.recorded', hash: context.hash as Hex }),
              },
            },
            onError: {
              target: 'done',
              actions: { type: 'showToast', params: ({ context }) => swapToasts.notSaved(context) },
            },
          },
        },
        done: {},
      },
    },
    /** The user refused the swap in the wallet (EIP-1193 4001): nothing was sent. */
    rejected: { ...outcome, entry: toast(swapToasts.swapRejected) },
    /** Mined and refused by the router; `problem` is its reason in plain words. */
    reverted: {
      ...outcome,
      entry: { type: 'showToast', params: ({ context }) => swapToasts.reverted(context) },
    },
    /** Anything else: `problem` says what (the node is down, no receipt in time with the hash, …). */
    failed: {
      ...outcome,
      entry: { type: 'showToast', params: ({ context }) => swapToasts.failed(context) },
    },
  },
});
