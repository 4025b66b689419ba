import { expect } from 'vitest';
import { unsubscribeCopy } from '../../src/copy/index.ts';
import { unsubscribeMachine } from '../../src/machines/unsubscribe.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { describeModel, inState } from '../support/model/index.ts';

// The unsubscribe link's chart (docs/product.md#email-alerts), on every generated path: nothing to
// do without a token; with one, it asks first, sends the token only when confirmed, says which
// email stopped; a link the server refuses is given up with the server's words, and a failure to
// reach it asks again. Once done with, the page holds the token no longer.

/** A token whose payload names bot alerts (its signature is the server's to check). */
const payload = btoa(JSON.stringify({ u: '00000000-0000-4000-8000-000000000001', k: 'bots', v: 1 }));
const TOKEN = `${payload.replace(/=+$/, '')}.c2lnbmF0dXJl`;
/** The server's answer to a link it did not make (email-unsubscribe), as the service reports it. */
const refused = {
  name: 'BackendError',
  message: 'This unsubscribe link is not valid; turn emails off in your profile',
  code: 'invalid_token',
  status: 400,
};
const offline = new Error('Failed to fetch');

describeModel({
  name: 'unsubscribe',
  machine: unsubscribeMachine,
  input: { token: TOKEN },
  events: {
    'xstate.done.actor.unsubscribeEmail': [{ type: 'xstate.done.actor.unsubscribeEmail', output: 'bots' }],
    'xstate.error.actor.unsubscribeEmail': [
      { type: 'xstate.error.actor.unsubscribeEmail', error: refused },
      { type: 'xstate.error.actor.unsubscribeEmail', error: offline },
    ],
  },
  states: {
    '*': (s, { before, events, toasts, facts, inputOf }) => {
      // The words name the kind the token carries.
      expect(s.context.kind).toBe('bots');
      const event = events.at(-1);
      const expected: ToastRequest[] = [];
      if (!before) expect(inState(s, 'asking')).toBe(true);
      if (event?.type === 'unsubscribe.confirm') {
        expect(inState(s, 'sending')).toBe(true);
        expect(inputOf('unsubscribeEmail')).toEqual({ token: TOKEN });
      }
      if (event?.type === 'unsubscribe.dismiss') expect(inState(s, 'idle')).toBe(true);
      if (event?.type === 'xstate.done.actor.unsubscribeEmail') {
        expect(inState(s, 'idle')).toBe(true);
        expected.push(unsubscribeCopy.done('bots'));
        // The root hears it, so a signed-in page reads the profile again.
        expect(facts).toEqual([{ type: 'unsubscribe.done', kind: 'bots' }]);
      } else expect(facts).toEqual([]);
      if (event?.type === 'xstate.error.actor.unsubscribeEmail') {
        const error = (event as unknown as { error: { message: string } }).error;
        // A refused link cannot work on a second try; a server out of reach may.
        expect(inState(s, error === refused ? 'idle' : 'asking')).toBe(true);
        expected.push({ title: unsubscribeCopy.failed, description: error.message, variant: 'destructive' });
      }
      expect(toasts).toEqual(expected);
      expect(s.context.token).toBe(inState(s, 'idle') ? null : TOKEN);
    },
  },
});

// Opened without a link: nothing to ask, nothing sent.
describeModel({
  name: 'unsubscribe',
  machine: unsubscribeMachine,
  input: { token: null },
  states: {
    '*': (s, { toasts }) => {
      expect(inState(s, 'idle')).toBe(true);
      expect(s.context.kind).toBeNull();
      expect(toasts).toEqual([]);
    },
  },
});
