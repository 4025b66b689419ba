import { assign, fromPromise, sendParent, setup } from 'xstate';
import { authCopy, profileCopy } from '../../copy/index.ts';
import type { AuthUser } from '../../domain/auth.ts';
import type { Profile, ProfileUpsert } from '../../domain/profile.ts';
import { defaultUsername } from './display-name.ts';
import { backoffMs, messageOf, notProvided, showToast } from '../shared.ts';

// Reads the signed-in user's profile for the profile machine, creating the row
// when there is none (a missing row is not a failure), and ends with it.
//
// - A first read that fails shows 'Profile Fetch Error' (a failed creation,
//   'Profile Sync Error') and tries again after 1, 2, 5, then every 10 s, or at
//   once when the user is updated; only the first failure of such a run is
//   shown, so a backend that is down does not repeat its toast.
// - A re-read of a profile already on show (`refetch`) that fails shows its
//   toast and ends without a profile: the one on show stays.

export type ProfileLoadInput = { user: AuthUser; refetch: boolean };

/** The profile read or created; null when a re-read failed and the profile on show stays. */
export type ProfileLoadOutput = { profile: Profile; created: boolean } | null;

export type ProfileLoadEvent = { type: 'session.userUpdated'; user: AuthUser };

/** What this machine tells the profile machine: whether it is waiting to try again after a failure. */
export type ProfileLoadFact = { type: 'profileLoad.waiting'; waiting: boolean };

export type ProfileLoadContext = {
  user: AuthUser;
  refetch: boolean;
  /** Failed reads (or creations) in a row; sets the wait before the next try. */
  failures: number;
  result: ProfileLoadOutput;
};

const fetchFailed = {
  type: 'showToast',
  params: ({ event }: { event: { error: unknown } }) => ({
    title: profileCopy.fetchError,
    description: messageOf(event.error, authCopy.unexpectedError),
    variant: 'destructive' as const,
  }),
} as const;

export const profileLoadMachine = setup({
  types: {} as {
    context: ProfileLoadContext;
    events: ProfileLoadEvent;
    input: ProfileLoadInput;
    output: ProfileLoadOutput;
  },
  actors: {
    /** Null when the user has no row yet. */
    fetchProfile: fromPromise<Profile | null, { userId: string }>(notProvided('fetchProfile')),
    /** Upsert on conflict id; resolves with the saved row. */
    upsertProfile: fromPromise<Profile, ProfileUpsert>(notProvided('upsertProfile')),
  },
  actions: {
    showToast,
    /** Tells the profile machine whether this reader waits to try again. */
    tellParent: sendParent((_, fact: ProfileLoadFact) => fact),
    takeUser: assign({ user: ({ event }) => event.user }),
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
  },
  guards: {
    refetch: ({ context }) => context.refetch,
    /** A retry of a read that already failed: its failure was shown once, so this one is quiet. */
    isRetry: ({ context }) => context.failures > 0,
  },
  delays: {
    profileRetry: ({ context }) => backoffMs(context.failures),
  },
}).createMachine({
  id: 'profileLoad',
  context: ({ input }) => ({ user: input.user, refetch: input.refetch, failures: 0, result: null }),
  initial: 'fetching',
  output: ({ context }) => context.result,
  states: {
    fetching: {
      // The request under way answers for the same user; the newer user is kept for what follows.
      on: { 'session.userUpdated': { actions: 'takeUser' } },
      invoke: {
        id: 'fetchProfile',
        src: 'fetchProfile',
        input: ({ context }) => ({ userId: context.user.id }),
        onDone: [
          { guard: ({ event }) => event.output === null, target: 'creating' },
          {
            target: 'done',
            actions: assign({
              result: ({ event }) => event.output && { profile: event.output, created: false },
            }),
          },
        ],
        onError: [
          { guard: 'refetch', target: 'done', actions: fetchFailed },
          { guard: 'isRetry', target: 'waiting', actions: 'countFailure' },
          { target: 'waiting', actions: [fetchFailed, 'countFailure'] },
        ],
      },
    },
    creating: {
      on: { 'session.userUpdated': { actions: 'takeUser' } },
      invoke: {
        id: 'createProfile',
        src: 'upsertProfile',
        input: ({ context }) => ({
          id: context.user.id,
          email: context.user.email,
          username: defaultUsername(context.user),
        }),
        onDone: {
          target: 'done',
          actions: assign({ result: ({ event }) => ({ profile: event.output, created: true }) }),
        },
        onError: [
          { guard: 'isRetry', target: 'waiting', actions: 'countFailure' },
          {
            target: 'waiting',
            actions: [
              {
                type: 'showToast',
                params: ({ event }) => ({
                  title: profileCopy.profileSyncError,
                  description: messageOf(event.error, authCopy.unexpectedError),
                  variant: 'destructive',
                }),
              },
              'countFailure',
            ],
          },
        ],
      },
    },
    // Read again after the back-off, or at once when the user is updated.
    waiting: {
      entry: { type: 'tellParent', params: { type: 'profileLoad.waiting', waiting: true } },
      exit: { type: 'tellParent', params: { type: 'profileLoad.waiting', waiting: false } },
      after: { profileRetry: 'fetching' },
      on: { 'session.userUpdated': { target: 'fetching', actions: 'takeUser' } },
    },
    done: { type: 'final' },
  },
});
