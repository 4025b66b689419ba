import { expect } from 'vitest';
import { unsubscribeCopy } from '../../src/copy/index.ts';
import { unsubscribeMachine } from '../../src/machines/unsubscribe.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { describeModel, inState } from '../support/model/index.ts';

// The unsubscribe link's chart (docs/product.md#email-alerts), on every generated path: nothing to
// do without a token; with one, it asks first, sends the token only when confirmed, says which
// email stopped, and on a refusal asks again with the server's words.

/** A token whose payload names bot alerts (its signature is the server's to check). */
const payload = btoa(JSON.stringify({ u: '00000000-0000-4000-8000-000000000001', k: 'bots', v: 1 }));
const TOKEN = `${payload.replace(/=+$/, '')}.c2lnbmF0dXJl`;
const refused = new Error('This unsubscribe link is not valid.');

describeModel({
  name: 'unsubscribe',
  machine: unsubscribeMachine,
  input: { token: TOKEN },
  events: {
    'xstate.done.actor.unsubscribeEmail': [{ type: 'xstate.done.actor.unsubscribeEmail', output: 'bots' }],
    'xstate.error.actor.unsubscribeEmail': [{ type: 'xstate.error.actor.unsubscribeEmail', error: refused }],
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
        expect(inState(s, 'asking')).toBe(true);
        expected.push({
          title: unsubscribeCopy.failed,
          description: refused.message,
          variant: 'destructive',
        });
      }
      expect(toasts).toEqual(expected);
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
