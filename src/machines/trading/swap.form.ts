import { assign, spawnChild, stopChild } from 'xstate';
import { quoteInput, formProblem } from './swap-checks.ts';
import { swapSetup } from './swap.setup.ts';

// The swap machine's `form`: the amount typed, checked and quoted, re-quoted after a pause and on
// every block (swap.machine.ts holds the chart).

export const formState = swapSetup.createStateConfig({
  initial: 'checking',
  on: {
    // Another side or amount makes the quote another one; the old must not be shown.
    'swap.side': {
      target: '.edited',
      actions: assign({ side: ({ event }) => event.side, quote: null, problem: null }),
    },
    'swap.amount': {
      target: '.edited',
      actions: assign({ amountText: ({ event }) => event.text, quote: null, problem: null }),
    },
    'swap.slippage': {
      target: '.edited',
      actions: assign({ slippageText: ({ event }) => event.text, problem: null }),
    },
    'swap.deadline': {
      target: '.edited',
      actions: assign({ deadlineMinutes: ({ event }) => event.minutes, problem: null }),
    },
    'swap.unlimited': { actions: assign({ unlimitedApproval: ({ event }) => event.on }) },
  },
  states: {
    /** Entering the form: a quote at once. */
    checking: {
      always: [
        { guard: 'amountBlank', target: 'empty' },
        { guard: 'formInvalid', target: 'invalid' },
        { target: 'quoting' },
      ],
    },
    /** A field changed: a quote once the typing pauses. */
    edited: {
      always: [
        { guard: 'amountBlank', target: 'empty' },
        { guard: 'formInvalid', target: 'invalid' },
        { target: 'debouncing' },
      ],
    },
    empty: {},
    /** `problem` names the first field refused. */
    invalid: { entry: assign({ problem: ({ context }) => formProblem(context) }) },
    debouncing: { after: { quoteDebounce: 'quoting' } },
    quoting: {
      entry: assign({ problem: null }),
      invoke: {
        id: 'quote',
        src: 'quote',
        input: ({ context }) => quoteInput(context),
        onDone: {
          target: 'quoted',
          actions: 'takeQuote',
        },
        onError: [
          {
            guard: 'insufficientLiquidity',
            target: 'insufficientLiquidity',
            actions: assign({ quote: null }),
          },
          { target: 'quoteFailed', actions: 'dropQuote' },
        ],
      },
    },
    quoted: {
      // Resting on a quote, each new block refreshes it in the background: the button keeps
      // its word and takes a press meanwhile (leaving for 'quoting' would disable it for the
      // length of a request), and the answer decides again.
      exit: stopChild('quote'),
      on: {
        'market.block': {
          actions: [
            stopChild('quote'),
            spawnChild('quote', { id: 'quote', input: ({ context }) => quoteInput(context) }),
          ],
        },
        'xstate.done.actor.quote': {
          target: '.deciding',
          actions: 'takeQuote',
        },
        'xstate.error.actor.quote': [
          {
            guard: 'insufficientLiquidity',
            target: 'insufficientLiquidity',
            actions: assign({ quote: null }),
          },
          { target: 'quoteFailed', actions: 'dropQuote' },
        ],
      },
      initial: 'deciding',
      states: {
        deciding: {
          always: [
            { guard: 'insufficientBalance', target: 'insufficientBalance' },
            { guard: 'slippageRefused', target: 'slippageRefused' },
            { guard: 'needsApproval', target: 'needsApproval' },
            { target: 'ready' },
          ],
        },
        insufficientBalance: {},
        slippageRefused: {},
        needsApproval: { on: { 'swap.approve': '#swap.approving' } },
        ready: {
          on: {
            // A tolerance above 5 % is confirmed first (swap.machine.ts), before the wallet is asked.
            'swap.submit': [
              { guard: 'highSlippage', target: '#swap.confirmingHighSlippage' },
              { target: '#swap.swapping', actions: 'takeOrder' },
            ],
          },
        },
      },
    },
    // The pool, or the node, may have changed by the next block.
    insufficientLiquidity: { on: { 'market.block': 'quoting' } },
    quoteFailed: { on: { 'market.block': 'quoting' } },
  },
});
