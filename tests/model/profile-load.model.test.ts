import { beforeEach, expect } from 'vitest';
import { profileCopy } from '../../src/copy/index.ts';
import type { AuthUser } from '../../src/domain/auth.ts';
import type { Profile } from '../../src/domain/profile.ts';
import { profileLoadMachine, type ProfileLoadFact } from '../../src/machines/profile-load.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { profileRow } from '../support/fixtures.ts';
import { describeModel } from './support/index.ts';

const ada: AuthUser = {
  id: 'u-1',
  email: 'ada@example.com',
  emailConfirmedAt: '2024-01-01',
  web3Address: null,
  metadata: {},
};
const row = (fields: Partial<Profile> = {}) => profileRow(ada, fields);
const offline = new Error('Failed to fetch');

const toasts: ToastRequest[] = [];
const told: ProfileLoadFact[] = [];

beforeEach(() => {
  toasts.length = 0;
  told.length = 0;
});

function model(refetch: boolean) {
  describeModel({
    name: 'profile-load',
    machine: profileLoadMachine,
    input: { user: ada, refetch },
    deferredActors: ['fetchProfile', 'upsertProfile'],
    provide: {
      actions: {
        showToast: (_, params) => void toasts.push(params),
        // The paths run this machine as a root: its parent is this recorder.
        tellParent: (_, fact) => void told.push(fact),
      },
    },
    // The failure count only sets the wait; whether there was one picks the branch.
    serializeState: (snapshot) =>
      JSON.stringify({ value: snapshot.value, retrying: snapshot.context.failures > 0 }),
    events: {
      'session.userUpdated': [
        { type: 'session.userUpdated', user: { ...ada, email: 'lovelace@example.com' } },
      ],
      'xstate.done.actor.fetchProfile': [
        { type: 'xstate.done.actor.fetchProfile', output: row() },
        { type: 'xstate.done.actor.fetchProfile', output: null },
      ],
      'xstate.error.actor.fetchProfile': [{ type: 'xstate.error.actor.fetchProfile', error: offline }],
      'xstate.done.actor.createProfile': [
        { type: 'xstate.done.actor.createProfile', output: row({ username: 'lovelace' }) },
      ],
      'xstate.error.actor.createProfile': [{ type: 'xstate.error.actor.createProfile', error: offline }],
    },
    states: {
      // A wait follows a failure, which it counts.
      waiting: (s) => {
        expect(s.context.failures).toBeGreaterThan(0);
        expect(told.at(-1)?.waiting).toBe(true);
      },
      // A first read ends only with a profile; only a re-read may end without one.
      done: (s) => {
        expect(s.status).toBe('done');
        if (!refetch) expect(s.output).not.toBeNull();
        expect(told.at(-1)?.waiting ?? false).toBe(false);
      },
      '*': () => {
        for (const toast of toasts) {
          expect([profileCopy.fetchError, profileCopy.profileSyncError]).toContain(toast.title);
          expect(toast).toMatchObject({ description: offline.message, variant: 'destructive' });
        }
        // One run, one toast: the retries of a first read are quiet.
        if (!refetch) expect(toasts.length).toBeLessThanOrEqual(1);
      },
    },
  });
}

model(false);
model(true);
