import { assign, setup } from 'xstate';
import type { EventObject } from 'xstate';
import { report } from './shared.ts';
import type { ToastRequest, ToastVariant } from './shared.ts';

// The one toast on screen (spec §4, §9): a new one replaces the old and starts
// its timer again; it hides after its duration, on dismiss, or when its action
// button is pressed (the action's event then goes to the root, which routes it).

export const toastDurations = {
  /** Spec §9: default toast duration. */
  default: 5000,
  /** Spec §2/§9: the welcome toast stays 6 seconds (pass as `durationMs`). */
  welcome: 6000,
} as const;

export type ShownToast = Omit<ToastRequest, 'variant'> & { variant: ToastVariant };

export type ToastContext = { toast: ShownToast | null };

export type ToastEvent =
  | { type: 'toast.show'; toast: ToastRequest }
  | { type: 'toast.dismiss' }
  /** The user pressed the toast's action button. */
  | { type: 'toast.action' };

/** The event of the shown toast's action; the `hasAction` guard runs first, so it is there. */
function actionEvent({ context }: { context: ToastContext }): EventObject {
  const event = context.toast?.action?.event;
  if (!event) throw new Error('toast.action taken without an action on the toast');
  return event;
}

export const toastMachine = setup({
  types: {} as { context: ToastContext; events: ToastEvent },
  actions: {
    report,
    show: assign({
      toast: ({ event }) => {
        if (event.type !== 'toast.show') return null;
        return { ...event.toast, variant: event.toast.variant ?? 'default' };
      },
    }),
    clear: assign({ toast: null }),
  },
  guards: {
    hasAction: ({ context }) => context.toast?.action !== undefined,
  },
  delays: {
    toastDuration: ({ context }) => context.toast?.durationMs ?? toastDurations.default,
  },
}).createMachine({
  id: 'toast',
  context: { toast: null },
  initial: 'idle',
  states: {
    idle: {
      entry: 'clear',
      on: { 'toast.show': { target: 'showing', actions: 'show' } },
    },
    showing: {
      after: { toastDuration: 'idle' },
      on: {
        // Re-entering restarts the timer for the new toast.
        'toast.show': { target: 'showing', reenter: true, actions: 'show' },
        'toast.dismiss': 'idle',
        'toast.action': {
          guard: 'hasAction',
          target: 'idle',
          actions: { type: 'report', params: actionEvent },
        },
      },
    },
  },
});
