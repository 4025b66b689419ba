import { expect } from 'vitest';
import type { EventObject } from 'xstate';
import { profileCopy } from '../../src/copy/index.ts';
import type { AuthUser } from '../../src/domain/auth.ts';
import type { Profile } from '../../src/domain/profile.ts';
import { profileLoadMachine, type ProfileLoadFact } from '../../src/machines/profile/profile-load.machine.ts';
import { ada, profileRow } from '../support/fixtures.ts';
import { describeModel } from '../support/model/index.ts';
import { endings } from '../support/model/recorders.ts';

const renamed: AuthUser = { ...ada, email: 'lovelace@example.com' };
const row = (fields: Partial<Profile> = {}) => profileRow(ada, fields);
const found = row();
const created = row({ username: 'lovelace' });
const offline = new Error('Failed to fetch');

/** The waits before each new try (docs/product.md#constants): 1, 2, 5, then every 10 s. */
const RETRY_MS = [1000, 2000, 5000];

type Snapshot = ReturnType<typeof profileLoadMachine.transition>;

function model(refetch: boolean) {
  describeModel({
    name: 'profile-load',
    machine: profileLoadMachine,
    input: { user: ada, refetch },
    // The failure count only sets the wait; whether there was one picks the branch.
    serializeState: (snapshot) =>
      JSON.stringify({ value: snapshot.value, retrying: snapshot.context.failures > 0 }),
    // Every cycle-free path too: a second failure, a user update in each state.
    simplePaths: true,
    maxPaths: 60,
    events: {
      'session.userUpdated': [{ type: 'session.userUpdated', user: renamed }],
      ...endings('fetchProfile', { done: [found, null], error: [offline] }),
      ...endings('createProfile', { done: [created], error: [offline] }),
    },
    // The product's waits, not the machine's: a longer one would leave the path waiting.
    delays: { profileRetry: ({ context }) => RETRY_MS[context.failures - 1] ?? 10_000 },
    states: {
      '*': (snapshot: Snapshot, { before, events: stepEvents, shown, facts }) => {
        expect([ada, renamed]).toContainEqual(snapshot.context.user);
        // A read starts for the session's user, with no failure yet.
        if (!before)
          return expect(snapshot.context).toEqual({ user: ada, refetch, failures: 0, result: null });
        for (const event of stepEvents) {
          if (event.type !== 'session.userUpdated') continue;
          // The newer user is kept; a wait ends at once, a request under way is not redone.
          expect(snapshot.context.user).toEqual((event as EventObject & { user: AuthUser }).user);
          expect(snapshot.value).toBe(before.matches('waiting') ? 'fetching' : before.value);
        }
        // A failure is shown with its title and the service's words: the first of a run of tries,
        // and a re-read's, which ends at once.
        for (const { params, event } of shown) {
          const reread = refetch && event.type === 'xstate.error.actor.fetchProfile';
          expect(reread || before.context.failures === 0).toBe(true);
          expect(params).toEqual({
            title:
              event.type === 'xstate.error.actor.createProfile'
                ? profileCopy.profileSyncError
                : profileCopy.fetchError,
            description: offline.message,
            variant: 'destructive',
          });
        }
        // The parent hears when a wait begins and when it ends, and nothing else.
        const waiting = snapshot.matches('waiting');
        const wasWaiting = before.matches('waiting');
        expect(facts as ProfileLoadFact[]).toEqual(
          waiting === wasWaiting ? [] : [{ type: 'profileLoad.waiting', waiting }],
        );
      },
      // The signed-in user's row is asked for.
      fetching: (_, { inputOf }) => expect(inputOf('fetchProfile')).toEqual({ userId: ada.id }),
      // No row: it is created for the newest user, named after the email's part before the at-sign.
      creating: (snapshot: Snapshot, { before, inputOf }) => {
        const { email } = snapshot.context.user;
        // (A user update while it runs is kept for later; the request under way is not redone.)
        if (before?.matches('creating')) return;
        expect(inputOf('createProfile')).toEqual({
          id: ada.id,
          email,
          username: email?.split('@')[0],
        });
      },
      // A wait follows a failure, which it counts; the failure of a first read is shown once.
      waiting: (snapshot: Snapshot, { before, shown }) => {
        expect(snapshot.context.failures).toBeGreaterThan(0);
        if (before?.matches('waiting') === false) {
          expect(snapshot.context.failures).toBe(before.context.failures + 1);
          expect(shown).toHaveLength(before.context.failures === 0 ? 1 : 0);
        }
      },
      // It ends with the row read, or the one it created; a re-read that failed, without one.
      done: (snapshot: Snapshot, { before, shown }) => {
        expect(snapshot.status).toBe('done');
        if (before?.matches('creating')) {
          expect(snapshot.output).toEqual({ profile: created, created: true });
        } else if (shown.length > 0) {
          expect(refetch).toBe(true);
          expect(snapshot.output).toBeNull();
        } else {
          expect(snapshot.output).toEqual({ profile: found, created: false });
        }
      },
    },
  });
}

model(false);
model(true);
