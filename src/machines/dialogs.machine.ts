import { assign, setup } from 'xstate';
import { reportFact } from './shared.ts';

// Which of the portal's dialogs is open (at most one; the auth dialog is the
// auth machine's), and whether the user menu is open (docs/product.md#menu-and-dialogs).
// Opening a dialog is a fact other machines react to: the
// notifications list marks everything read, the history loads, and closing
// the profile dialog discards unsaved edits (see the root's routing).

export const dialogs = ['profile', 'notifications', 'transactions', 'apiKeys', 'security'] as const;
export type DialogName = (typeof dialogs)[number];

export type DialogsContext = { open: DialogName | null; menuOpen: boolean };

export type DialogsEvent =
  | { type: 'dialogs.open'; dialog: DialogName }
  | { type: 'dialogs.close' }
  | { type: 'menu.setOpen'; open: boolean }
  | { type: 'session.ended' };

export type DialogsFact =
  { type: 'dialogs.opened'; dialog: DialogName } | { type: 'dialogs.closed'; dialog: DialogName };

export const dialogsMachine = setup({
  types: {} as { context: DialogsContext; events: DialogsEvent },
  actions: {
    report: reportFact<DialogsFact>(),
  },
  guards: {
    // Each entry of the user menu closes the menu and opens its dialog.
    isKnownDialog: ({ event }) => event.type === 'dialogs.open' && dialogs.includes(event.dialog),
  },
}).createMachine({
  id: 'dialogs',
  context: { open: null, menuOpen: false },
  initial: 'closed',
  states: {
    closed: {
      entry: assign({ open: null }),
      on: {
        'dialogs.open': {
          guard: 'isKnownDialog',
          target: 'open',
          actions: [
            assign({ open: ({ event }) => event.dialog, menuOpen: false }),
            { type: 'report', params: ({ event }) => ({ type: 'dialogs.opened', dialog: event.dialog }) },
          ],
        },
      },
    },
    // `context.open` is always set in here, hence the casts below.
    open: {
      on: {
        'dialogs.close': {
          target: 'closed',
          actions: {
            type: 'report',
            params: ({ context }) => ({ type: 'dialogs.closed', dialog: context.open as DialogName }),
          },
        },
        // Signing out closes whatever belonged to the session.
        'session.ended': {
          target: 'closed',
          actions: [
            assign({ menuOpen: false }),
            {
              type: 'report',
              params: ({ context }) => ({ type: 'dialogs.closed', dialog: context.open as DialogName }),
            },
          ],
        },
        // Another menu entry while a dialog is open replaces it.
        'dialogs.open': {
          guard: 'isKnownDialog',
          target: 'open',
          reenter: true,
          actions: [
            {
              type: 'report',
              params: ({ context }) => ({ type: 'dialogs.closed', dialog: context.open as DialogName }),
            },
            assign({ open: ({ event }) => event.dialog, menuOpen: false }),
            { type: 'report', params: ({ event }) => ({ type: 'dialogs.opened', dialog: event.dialog }) },
          ],
        },
      },
    },
  },
  on: {
    'menu.setOpen': { actions: assign({ menuOpen: ({ event }) => event.open }) },
    // A sign-out from anywhere closes the menu, so the next sign-in starts with it shut.
    'session.ended': { actions: assign({ menuOpen: false }) },
  },
});
