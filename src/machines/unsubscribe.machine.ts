import { assign, fromPromise, setup } from 'xstate';
import { unsubscribeCopy } from '../copy/index.ts';
import { unsubscribeKindOf, type EmailAlertKind } from '../domain/email-alerts.ts';
import { isBackendFailure } from './error-words.ts';
import { failedToast, notProvided, reportFact, showToast } from './shared.ts';

// An email alert's unsubscribe link (docs/product.md#email-alerts): the mail links to the portal
// with `?unsubscribe=<token>`, and the portal asks before it turns that kind of email off, since
// mail scanners open links on their own. Signed in or not: the token names the user, and the
// server (email-unsubscribe) checks it. Without a token there is nothing to do; once done with
// (turned off, kept, or refused), the page holds the token no longer.

export type UnsubscribeInput = { token: string | null };

export type UnsubscribeContext = {
  token: string | null;
  /** The kind the token names, for the words; the server decides what it really is. */
  kind: EmailAlertKind | null;
};

export type UnsubscribeEvent = { type: 'unsubscribe.confirm' } | { type: 'unsubscribe.dismiss' };

/** What it tells the root: that kind of email is off (a signed-in page then reads the profile again). */
export type UnsubscribeFact = { type: 'unsubscribe.done'; kind: EmailAlertKind };

export const unsubscribeMachine = setup({
  types: {} as { context: UnsubscribeContext; events: UnsubscribeEvent; input: UnsubscribeInput },
  actors: {
    /** Turns the token's kind off; resolves with the kind the server turned off. */
    unsubscribeEmail: fromPromise<EmailAlertKind, { token: string }>(notProvided('unsubscribeEmail')),
  },
  actions: {
    showToast,
    report: reportFact<UnsubscribeFact>(),
    dropToken: assign({ token: null }),
  },
  guards: {
    /** The server's refusal of a link it did not make: asking again cannot change its answer. */
    linkRefused: ({ event }) =>
      'error' in event && isBackendFailure(event.error) && event.error.code === 'invalid_token',
  },
}).createMachine({
  id: 'unsubscribe',
  context: ({ input }) => ({
    token: input.token,
    kind: input.token ? unsubscribeKindOf(input.token) : null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: ({ context }) => context.token === null, target: 'idle' }, { target: 'asking' }],
    },
    idle: { entry: 'dropToken' },
    asking: {
      on: {
        'unsubscribe.confirm': 'sending',
        'unsubscribe.dismiss': 'idle',
      },
    },
    sending: {
      invoke: {
        id: 'unsubscribeEmail',
        src: 'unsubscribeEmail',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: {
          target: 'idle',
          actions: [
            assign({ kind: ({ event }) => event.output }),
            { type: 'showToast', params: ({ event }) => unsubscribeCopy.done(event.output) },
            { type: 'report', params: ({ event }) => ({ type: 'unsubscribe.done', kind: event.output }) },
          ],
        },
        // A refused link is given up; a server out of reach leaves the question open, so the
        // person may try again or keep the emails.
        onError: [
          { guard: 'linkRefused', target: 'idle', actions: failedToast(unsubscribeCopy.failed) },
          { target: 'asking', actions: failedToast(unsubscribeCopy.failed) },
        ],
      },
    },
  },
});
