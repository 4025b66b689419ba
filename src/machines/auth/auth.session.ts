import { assign } from 'xstate';
import { authCopy } from '../../copy/index.ts';
import type { AuthUser } from '../../domain/auth.ts';
import type { AuthEvent } from './auth-types.ts';
import { authSetup, changeOf } from './auth.setup.ts';

// The auth machine's `session` region: what the backend says (getSession, then the auth change
// stream). Only this region reports signedIn / signedOut / userUpdated, so a fact is reported once
// whatever order the stream and the requests answer in.

/** The user of a change that a guard has already checked to carry one. */
function changeUser(event: AuthEvent): AuthUser {
  const user = changeOf(event)?.user;
  if (!user) throw new Error('auth: this transition is guarded to changes that carry a user');
  return user;
}

export const sessionRegion = authSetup.createStateConfig({
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'clientMissing', target: 'unavailable' }, { target: 'available' }],
    },
    unavailable: {
      entry: [
        { type: 'showToast', params: { ...authCopy.initError, variant: 'destructive' } },
        { type: 'report', params: { type: 'auth.ready', user: null } },
      ],
    },
    available: {
      invoke: { id: 'authChanges', src: 'authChanges' },
      initial: 'loading',
      states: {
        // Changes that arrive before getSession answers are ignored (the stream's first
        // event, INITIAL_SESSION, says what getSession says, and anything later arrives
        // after it and is handled below), except a SIGNED_OUT: the stored session was
        // dropped as it was read, which 'Session Ended' then says.
        loading: {
          // supabase-js drops a stored session it cannot refresh (SIGNED_OUT) before the read answers.
          on: { 'auth.change': { guard: 'sessionEndedUnasked', actions: assign({ sessionLost: true }) } },
          invoke: {
            id: 'getSession',
            src: 'getSession',
            onDone: [
              {
                guard: ({ event }) => event.output !== null,
                target: 'signedIn',
                actions: [
                  assign({ user: ({ event }) => event.output }),
                  { type: 'report', params: ({ event }) => ({ type: 'auth.ready', user: event.output }) },
                ],
              },
              {
                guard: 'sessionWasLost',
                target: 'signedOut',
                actions: [
                  { type: 'showToast', params: { ...authCopy.sessionEnded, variant: 'destructive' } },
                  { type: 'report', params: { type: 'auth.ready', user: null } },
                ],
              },
              {
                target: 'signedOut',
                actions: { type: 'report', params: { type: 'auth.ready', user: null } },
              },
            ],
            onError: {
              target: 'signedOut',
              actions: [
                { type: 'showToast', params: { ...authCopy.sessionError, variant: 'destructive' } },
                { type: 'report', params: { type: 'auth.ready', user: null } },
              ],
            },
          },
        },
        // Any change that carries a user means there is a session (SIGNED_IN,
        // INITIAL_SESSION, but also PASSWORD_RECOVERY from a recovery link).
        signedOut: {
          on: {
            'auth.change': {
              guard: 'changeHasUser',
              target: 'signedIn',
              actions: [
                'takeChangeUser',
                {
                  type: 'report',
                  params: ({ event }) => ({ type: 'auth.signedIn', user: changeUser(event) }),
                },
              ],
            },
          },
        },
        signedIn: {
          on: {
            'auth.change': [
              {
                guard: 'sessionEndedUnasked',
                target: 'signedOut',
                actions: [
                  'forgetUser',
                  { type: 'report', params: { type: 'auth.signedOut' } },
                  { type: 'showToast', params: { ...authCopy.sessionEnded, variant: 'destructive' } },
                ],
              },
              {
                guard: 'changeHasNoUser',
                target: 'signedOut',
                actions: ['forgetUser', { type: 'report', params: { type: 'auth.signedOut' } }],
              },
              {
                // Another tab signed in as someone else: end one session, start the other.
                guard: 'changeIsOtherUser',
                actions: [
                  'takeChangeUser',
                  { type: 'report', params: { type: 'auth.signedOut' } },
                  {
                    type: 'report',
                    params: ({ event }) => ({ type: 'auth.signedIn', user: changeUser(event) }),
                  },
                ],
              },
              {
                guard: 'changeIsUserUpdate',
                actions: [
                  'takeChangeUser',
                  {
                    type: 'report',
                    params: ({ event }) => ({ type: 'auth.userUpdated', user: changeUser(event) }),
                  },
                ],
              },
              // TOKEN_REFRESHED, PASSWORD_RECOVERY, a repeated SIGNED_IN / INITIAL_SESSION:
              // the same user, kept current, nothing to tell anyone.
              { actions: 'takeChangeUser' },
            ],
          },
        },
      },
    },
  },
});
