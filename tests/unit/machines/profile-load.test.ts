import { describe, expect, it } from 'vitest';
import { authCopy, profileCopy } from '../../../src/copy/index.ts';
import type { AuthUser } from '../../../src/domain/auth.ts';
import type { Profile, ProfileUpsert } from '../../../src/domain/profile.ts';
import {
  profileLoadMachine,
  type ProfileLoadFact,
  type ProfileLoadOutput,
} from '../../../src/machines/profile/profile-load.machine.ts';
import { settle } from '../../support/deferred-actor.ts';
import { profileRow } from '../../support/fixtures.ts';
import { machineHarness } from '../../support/machines/harness.ts';

const ada: AuthUser = {
  id: '11111111-aaaa-4aaa-8aaa-111111111111',
  email: 'ada@example.com',
  emailConfirmedAt: '2024-01-01T00:00:00Z',
  web3Address: null,
  metadata: {},
};

const row = (fields: Partial<Profile> = {}) => profileRow(ada, fields);

/**
 * The reader as the profile machine invokes it: under a parent (the harness's stand-in root, which
 * records what it is told) on the simulated clock, with the user and whether a profile is on show.
 */
function start(options: { user?: AuthUser; refetch?: boolean } = {}) {
  const h = machineHarness(profileLoadMachine, {
    input: { user: options.user ?? ada, refetch: options.refetch ?? false },
  });
  return {
    actor: h.actor,
    clock: h.clock,
    toasts: h.toasts,
    fetches: h.calls<Profile | null, { userId: string }>('fetchProfile'),
    upserts: h.calls<Profile, ProfileUpsert>('upsertProfile'),
    state: () => h.snapshot().value,
    /** What the reader said about waiting, in order. */
    waiting: () =>
      h.facts
        .filter((event): event is ProfileLoadFact => event.type === 'profileLoad.waiting')
        .map((event) => event.waiting),
    /** The reader's result once it has ended, or 'running'. */
    output: (): ProfileLoadOutput | 'running' => {
      const snapshot = h.snapshot();
      return snapshot.status === 'done' ? snapshot.output : 'running';
    },
  };
}

describe('profile load: a first read', () => {
  it('reads the profile and ends with it, silently', async () => {
    const t = start();
    expect(t.state()).toBe('fetching');
    expect(t.fetches[0]?.input).toEqual({ userId: ada.id });
    t.fetches[0]?.resolve(row({ username: 'lovelace' }));
    await settle();
    expect(t.output()).toEqual({ profile: row({ username: 'lovelace' }), created: false });
    expect(t.toasts).toEqual([]);
    expect(t.upserts).toHaveLength(0);
    expect(t.waiting()).toEqual([]);
  });

  it('creates a missing profile with the default username (the email before the at-sign)', async () => {
    const t = start();
    t.fetches[0]?.resolve(null);
    await settle();
    expect(t.state()).toBe('creating');
    expect(t.upserts[0]?.id).toBe('createProfile');
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, email: ada.email, username: 'ada' });
    const created = row({ username: 'ada', updated_at: '2026-02-02T00:00:00Z' });
    t.upserts[0]?.resolve(created);
    await settle();
    expect(t.output()).toEqual({ profile: created, created: true });
    expect(t.toasts).toEqual([]);
  });

  it("creates it as 'user_' and the id's first 8 characters when there is no email", async () => {
    const t = start({ user: { ...ada, email: null } });
    t.fetches[0]?.resolve(null);
    await settle();
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, email: null, username: 'user_11111111' });
  });

  it("shows 'Profile Fetch Error' with the message, tells the parent it waits, and reads again after 1 s", async () => {
    const t = start();
    t.fetches[0]?.reject(new Error('JWT expired'));
    await settle();
    expect(t.state()).toBe('waiting');
    expect(t.toasts).toEqual([
      { title: profileCopy.fetchError, description: 'JWT expired', variant: 'destructive' },
    ]);
    expect(t.waiting()).toEqual([true]);
    t.clock.increment(999);
    expect(t.fetches).toHaveLength(1);
    t.clock.increment(1);
    expect(t.fetches).toHaveLength(2);
    expect(t.waiting()).toEqual([true, false]);
    t.fetches[1]?.resolve(row());
    await settle();
    expect(t.output()).toEqual({ profile: row(), created: false });
    expect(t.toasts).toHaveLength(1);
  });

  it('words a failure that says nothing with the generic message', async () => {
    const t = start();
    t.fetches[0]?.reject({});
    await settle();
    expect(t.toasts).toEqual([
      { title: profileCopy.fetchError, description: authCopy.unexpectedError, variant: 'destructive' },
    ]);
  });

  it('reads again after 1, 2, 5 and 10 s while the backend is down, showing the failure only once', async () => {
    const t = start();
    t.fetches[0]?.reject(new Error('Failed to fetch'));
    await settle();
    for (const [index, wait] of [1000, 2000, 5000, 10_000, 10_000].entries()) {
      t.clock.increment(wait - 1);
      expect(t.fetches).toHaveLength(index + 1);
      t.clock.increment(1);
      expect(t.fetches).toHaveLength(index + 2);
      t.fetches[index + 1]?.reject(new Error('Failed to fetch'));
      await settle();
    }
    expect(t.toasts).toEqual([
      { title: profileCopy.fetchError, description: 'Failed to fetch', variant: 'destructive' },
    ]);
    expect(t.waiting()).toEqual([true, false, true, false, true, false, true, false, true, false, true]);
    // The backend is back: the next read lands.
    t.clock.increment(10_000);
    t.fetches.at(-1)?.resolve(row());
    await settle();
    expect(t.output()).toEqual({ profile: row(), created: false });
    expect(t.waiting().at(-1)).toBe(false);
  });

  it("shows 'Profile Sync Error' when the missing profile cannot be created, and waits as for a read", async () => {
    const t = start();
    t.fetches[0]?.resolve(null);
    await settle();
    t.upserts[0]?.reject({});
    await settle();
    expect(t.state()).toBe('waiting');
    expect(t.toasts).toEqual([
      { title: profileCopy.profileSyncError, description: authCopy.unexpectedError, variant: 'destructive' },
    ]);
    expect(t.waiting()).toEqual([true]);
    // The retry reads first, and its failures are quiet: one run, one toast.
    t.clock.increment(1000);
    expect(t.fetches).toHaveLength(2);
    t.fetches[1]?.resolve(null);
    await settle();
    t.upserts[1]?.reject(new Error('permission denied for table profiles'));
    await settle();
    t.clock.increment(1999);
    expect(t.fetches).toHaveLength(2);
    t.clock.increment(1);
    t.fetches[2]?.reject(new Error('Failed to fetch'));
    await settle();
    expect(t.toasts).toHaveLength(1);
    expect(t.state()).toBe('waiting');
  });

  it('a user update while it waits reads again at once, for that user', async () => {
    const t = start();
    t.fetches[0]?.reject(new Error('Failed to fetch'));
    await settle();
    const renamed = { ...ada, email: 'lovelace@example.com' };
    t.actor.send({ type: 'session.userUpdated', user: renamed });
    expect(t.fetches).toHaveLength(2);
    expect(t.waiting()).toEqual([true, false]);
    // The timer of the wait it left is gone.
    t.clock.increment(10_000);
    expect(t.fetches).toHaveLength(2);
    t.fetches[1]?.resolve(null);
    await settle();
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, email: 'lovelace@example.com', username: 'lovelace' });
  });

  it('a user update while a request runs waits for its answer, and the newer user is kept', async () => {
    const t = start();
    t.actor.send({ type: 'session.userUpdated', user: { ...ada, email: 'lovelace@example.com' } });
    expect(t.fetches).toHaveLength(1);
    t.fetches[0]?.resolve(null);
    await settle();
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, email: 'lovelace@example.com', username: 'lovelace' });
    t.actor.send({ type: 'session.userUpdated', user: { ...ada, email: 'countess@example.com' } });
    t.upserts[0]?.reject(new Error('Failed to fetch'));
    await settle();
    t.clock.increment(1000);
    t.fetches[1]?.resolve(null);
    await settle();
    expect(t.upserts[1]?.input).toEqual({ id: ada.id, email: 'countess@example.com', username: 'countess' });
  });
});

describe('profile load: a re-read of the profile on show', () => {
  it('ends with the row read', async () => {
    const t = start({ refetch: true });
    t.fetches[0]?.resolve(row({ username: 'ada2' }));
    await settle();
    expect(t.output()).toEqual({ profile: row({ username: 'ada2' }), created: false });
  });

  it("shows 'Profile Fetch Error' and ends at once with nothing, so the profile on show stays", async () => {
    const t = start({ refetch: true });
    t.fetches[0]?.reject(new Error('Failed to fetch'));
    await settle();
    expect(t.output()).toBeNull();
    expect(t.toasts).toEqual([
      { title: profileCopy.fetchError, description: 'Failed to fetch', variant: 'destructive' },
    ]);
    expect(t.waiting()).toEqual([]);
    t.clock.increment(10_000);
    expect(t.fetches).toHaveLength(1);
  });

  it('creates the row when it has gone, and waits when that fails', async () => {
    const t = start({ refetch: true });
    t.fetches[0]?.resolve(null);
    await settle();
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, email: ada.email, username: 'ada' });
    t.upserts[0]?.reject(new Error('Failed to fetch'));
    await settle();
    expect(t.state()).toBe('waiting');
    expect(t.toasts).toEqual([
      { title: profileCopy.profileSyncError, description: 'Failed to fetch', variant: 'destructive' },
    ]);
    expect(t.waiting()).toEqual([true]);
  });
});
