import { assign, setup } from 'xstate';
import { reportFact } from './shared.ts';
import type { ToastAction, ToastRequest, ToastVariant } from './shared.ts';

// The one toast on screen (docs/product.md#toasts): a new one replaces the old and starts
// its timer again; it hides after its duration, on dismiss, or when its action
// button is pressed (the action's event then goes to the root, which routes it).

export const toastDurations = {
  /** Default toast duration (docs/product.md#constants). */
  default: 5000,
  /** The welcome toast stays 6 seconds (docs/product.md#loading; pass as `durationMs`). */
  welcome: 6000,
} as const;

/** `id` counts the toasts shown, so the same words shown twice are still a new toast to announce. */
export type ShownToast = Omit<ToastRequest, 'variant'> & { variant: ToastVariant; id: number };

export type ToastContext = { toast: ShownToast | null; shown: number };

export type ToastEvent =
  | { type: 'toast.show'; toast: ToastRequest }
  | { type: 'toast.dismiss' }
  /** The user pressed the toast's action button. */
  | { type: 'toast.action' };

/** The fact this machine reports to the root: the user pressed the shown toast's button. */
export type ToastFact = { type: 'toast.actionPressed'; action: ToastAction };

/** The shown toast's action as a fact; the `hasAction` guard runs first, so it is there. */
function actionPressed({ context }: { context: ToastContext }): ToastFact {
  const action = context.toast?.action?.event;
  if (!action) throw new Error('toast.action taken without an action on the toast');
  return { type: 'toast.actionPressed', action };
}

export const toastMachine = setup({
  types: {} as { context: ToastContext; events: ToastEvent },
  actions: {
    report: reportFact<ToastFact>(),
    show: assign(({ context, event }) => {
      if (event.type !== 'toast.show') return {};
      const id = context.shown + 1;
      return { shown: id, toast: { ...event.toast, variant: event.toast.variant ?? 'default', id } };
    }),
    clear: assign({ toast: null }),
  },
  guards: {
    hasAction: ({ context }) => context.toast?.action !== undefined,
    onlyIfIdle: ({ event }) => event.type === 'toast.show' && event.toast.onlyIfIdle === true,
  },
  delays: {
    toastDuration: ({ context }) => context.toast?.durationMs ?? toastDurations.default,
  },
}).createMachine({
  id: 'toast',
  context: { toast: null, shown: 0 },
  initial: 'idle',
  states: {
    idle: {
      entry: 'clear',
      on: { 'toast.show': { target: 'showing', actions: 'show' } },
    },
    showing: {
      after: { toastDuration: 'idle' },
      on: {
        'toast.show': [
          // A toast that must not interrupt another one waits for nobody: it is dropped.
          { guard: 'onlyIfIdle' },
          // Re-entering restarts the timer for the new toast.
          { target: 'showing', reenter: true, actions: 'show' },
        ],
        'toast.dismiss': 'idle',
        'toast.action': {
          guard: 'hasAction',
          target: 'idle',
          actions: { type: 'report', params: actionPressed },
        },
      },
    },
  },
});
