import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { authCopy, profileCopy } from '../../../src/copy/index.ts';
import {
  AVATAR_MAX_BYTES,
  isWebsiteAllowed,
  profileMachine,
  type ProfileEvent,
  type ProfileFact,
  type UploadAvatarInput,
} from '../../../src/machines/profile.machine.ts';
import type { ToastRequest } from '../../../src/machines/shared.ts';
import type {
  AuthUser,
  AvatarFile,
  Profile,
  ProfileUpsert,
  UserMetadata,
} from '../../../src/services/supabase/types.ts';
import { profileRow } from '../../support/fixtures.ts';

const ALICE = '0x1234567890abcdef1234567890abcdef1234abcd';
const BOB = '0xb0b0000000000000000000000000000000000b0b';
const ada: AuthUser = {
  id: '11111111-aaaa-4aaa-8aaa-111111111111',
  email: 'ada@example.com',
  emailConfirmedAt: '2024-01-01T00:00:00Z',
  metadata: {},
};
const bob: AuthUser = { ...ada, id: '22222222-bbbb-4bbb-8bbb-222222222222', email: 'bob@example.com' };

/** What the fake upsert answers: the current row with the upsert applied, as the database would. */
const applied = (base: Profile, upsert: ProfileUpsert): Profile => ({ ...base, ...upsert });

const row = (fields: Partial<Profile> = {}) => profileRow(ada, fields);

function file(overrides: Partial<AvatarFile> = {}): AvatarFile {
  return { name: 'me.png', type: 'image/png', size: 1024, data: new Blob(['png']), ...overrides };
}

type Call<T> = { id: string; input: unknown; resolve: (value: T) => void; reject: (error: unknown) => void };

function deferredActor<T, I>(calls: Call<T>[]) {
  return fromPromise<T, I>(
    ({ input, self }) =>
      new Promise<T>((resolve, reject) => {
        calls.push({ id: self.id, input, resolve, reject });
      }),
  );
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function start() {
  const toasts: ToastRequest[] = [];
  const reports: ProfileFact[] = [];
  const logged: { what: string; error: unknown }[] = [];
  const fetches: Call<Profile | null>[] = [];
  const upserts: Call<Profile>[] = [];
  const metadata: Call<unknown>[] = [];
  const uploads: Call<string>[] = [];
  const publicUrls: Call<string | null>[] = [];
  const machine = profileMachine.provide({
    actions: {
      showToast: (_, params) => void toasts.push(params),
      report: (_, params) => void reports.push(params),
      logFailure: (_, params) => void logged.push(params),
    },
    actors: {
      fetchProfile: deferredActor<Profile | null, { userId: string }>(fetches),
      upsertProfile: deferredActor<Profile, ProfileUpsert>(upserts),
      updateMetadata: deferredActor<unknown, UserMetadata>(metadata),
      uploadAvatar: deferredActor<string, UploadAvatarInput>(uploads),
      avatarPublicUrl: deferredActor<string | null, { path: string }>(publicUrls),
    },
  });
  const clock = new SimulatedClock();
  const actor = createActor(machine, { clock }).start();
  const send = (event: ProfileEvent) => actor.send(event);
  const context = () => actor.getSnapshot().context;
  const state = () => actor.getSnapshot().value;
  const clear = () => {
    toasts.length = 0;
    reports.length = 0;
  };
  return {
    actor,
    clock,
    send,
    context,
    state,
    clear,
    toasts,
    reports,
    logged,
    fetches,
    upserts,
    metadata,
    uploads,
    publicUrls,
  };
}

/** Signed in with `profile` loaded, the user carrying `meta`; the record so far is cleared. */
async function ready(profile: Profile = row(), meta: UserMetadata = {}) {
  const t = start();
  t.send({ type: 'session.started', user: { ...ada, metadata: meta } });
  t.fetches[0]?.resolve(profile);
  await settle();
  expect(t.state()).toEqual({ signedIn: 'ready' });
  t.clear();
  return t;
}

describe('profile machine: loading on session start', () => {
  it('ignores everything while signed out', () => {
    const t = start();
    t.send({ type: 'wallet.linked', address: ALICE });
    t.send({ type: 'wallet.unlinked' });
    t.send({ type: 'profile.save', username: 'x', full_name: '', website: '' });
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.send({ type: 'session.userUpdated', user: ada });
    expect(t.state()).toBe('signedOut');
    expect([...t.fetches, ...t.upserts, ...t.uploads]).toHaveLength(0);
    expect(t.toasts).toEqual([]);
  });

  it("fetches the user's profile and reports it, silently", async () => {
    const t = start();
    t.send({ type: 'session.started', user: ada });
    expect(t.state()).toEqual({ signedIn: 'loading' });
    expect(t.fetches[0]?.input).toEqual({ userId: ada.id });
    t.fetches[0]?.resolve(row());
    await settle();
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.context().profile).toEqual(row());
    expect(t.reports).toEqual([{ type: 'profile.loaded', profile: row() }]);
    expect(t.toasts).toEqual([]);
    expect(t.upserts).toHaveLength(0);
  });

  it('creates a missing profile with the default username (the email before the at-sign)', async () => {
    const t = start();
    t.send({ type: 'session.started', user: ada });
    t.fetches[0]?.resolve(null);
    await settle();
    expect(t.state()).toEqual({ signedIn: 'creating' });
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, email: ada.email, username: 'ada' });
    const created = row({ username: 'ada' });
    t.upserts[0]?.resolve(created);
    await settle();
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.reports).toEqual([{ type: 'profile.loaded', profile: created }]);
    expect(t.toasts).toEqual([]);
  });

  it("creates it as 'user_' and the id's first 8 characters when there is no email", async () => {
    const t = start();
    t.send({ type: 'session.started', user: { ...ada, email: null } });
    t.fetches[0]?.resolve(null);
    await settle();
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, email: null, username: 'user_11111111' });
  });

  it("shows 'Profile Fetch Error' with the message, and a user update tries again", async () => {
    const t = start();
    t.send({ type: 'session.started', user: ada });
    t.fetches[0]?.reject(new Error('JWT expired'));
    await settle();
    expect(t.state()).toEqual({ signedIn: 'failed' });
    expect(t.toasts).toEqual([
      { title: profileCopy.fetchError, description: 'JWT expired', variant: 'destructive' },
    ]);
    t.send({ type: 'session.userUpdated', user: ada });
    expect(t.fetches).toHaveLength(2);
    t.fetches[1]?.resolve(row());
    await settle();
    expect(t.state()).toEqual({ signedIn: 'ready' });
  });

  it('reads again after 1, 2, 5 and 10 s while the backend is down, showing the failure only once', async () => {
    const t = start();
    t.send({ type: 'session.started', user: ada });
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
    // The backend is back: the next read lands, and a later failure is shown again.
    t.clock.increment(10_000);
    t.fetches.at(-1)?.resolve(row());
    await settle();
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.context().failures).toBe(0);
    expect(t.reports).toContainEqual({ type: 'profile.loaded', profile: row() });
  });

  it("shows 'Profile Sync Error' when the missing profile cannot be created", async () => {
    const t = start();
    t.send({ type: 'session.started', user: ada });
    t.fetches[0]?.resolve(null);
    await settle();
    t.upserts[0]?.reject({});
    await settle();
    expect(t.state()).toEqual({ signedIn: 'failed' });
    expect(t.toasts).toEqual([
      { title: profileCopy.profileSyncError, description: authCopy.unexpectedError, variant: 'destructive' },
    ]);
    expect(t.context().profile).toBeNull();
  });
});

describe('profile machine: the wallet sync rule at session start (§4)', () => {
  it('writes the metadata wallet into the profile when they differ, without a toast', async () => {
    const t = start();
    t.send({ type: 'session.started', user: { ...ada, metadata: { wallet_address: ALICE } } });
    t.fetches[0]?.resolve(row({ wallet_address: BOB }));
    await settle();
    expect(t.state()).toEqual({ signedIn: 'syncingWallet' });
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, wallet_address: ALICE });
    t.upserts[0]?.resolve(row({ wallet_address: ALICE }));
    await settle();
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.context().profile?.wallet_address).toBe(ALICE);
    expect(t.reports.at(-1)).toEqual({ type: 'profile.loaded', profile: row({ wallet_address: ALICE }) });
    expect(t.toasts).toEqual([]);
    expect(t.metadata).toHaveLength(0);
  });

  it('syncs a newly created profile to the metadata wallet', async () => {
    const t = start();
    t.send({ type: 'session.started', user: { ...ada, metadata: { wallet_address: ALICE } } });
    t.fetches[0]?.resolve(null);
    await settle();
    t.upserts[0]?.resolve(row());
    await settle();
    expect(t.upserts[1]?.input).toEqual({ id: ada.id, wallet_address: ALICE });
  });

  it.each([
    {
      label: 'the same address in another casing',
      meta: { wallet_address: ALICE.toUpperCase() },
      wallet: ALICE,
    },
    { label: 'no metadata wallet (the profile keeps its own)', meta: {}, wallet: BOB },
    { label: 'no wallet anywhere', meta: { wallet_address: null }, wallet: null },
  ])('writes nothing for $label', async ({ meta, wallet }) => {
    const t = await ready(row({ wallet_address: wallet }), meta);
    expect(t.upserts).toHaveLength(0);
    expect(t.context().profile?.wallet_address).toBe(wallet);
  });

  it("shows 'Profile Sync Error' when the sync fails and keeps the profile as fetched", async () => {
    const t = start();
    t.send({ type: 'session.started', user: { ...ada, metadata: { wallet_address: ALICE } } });
    t.fetches[0]?.resolve(row({ wallet_address: BOB }));
    await settle();
    t.upserts[0]?.reject(new Error('permission denied for table profiles'));
    await settle();
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.context().profile?.wallet_address).toBe(BOB);
    expect(t.toasts).toEqual([
      {
        title: profileCopy.profileSyncError,
        description: 'permission denied for table profiles',
        variant: 'destructive',
      },
    ]);
  });
});

describe('profile machine: linking a connected wallet', () => {
  it("links the wallet to a profile without one: 'Profile Created & Wallet Linked', then the metadata", async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    expect(t.state()).toEqual({ signedIn: 'linkingWallet' });
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, wallet_address: ALICE });
    t.upserts[0]?.resolve(row({ wallet_address: ALICE }));
    await settle();
    expect(t.toasts).toEqual([
      { title: profileCopy.createdAndLinked, description: profileCopy.createdAndLinkedDescription(ALICE) },
    ]);
    expect(t.reports).toEqual([{ type: 'profile.loaded', profile: row({ wallet_address: ALICE }) }]);
    expect(t.state()).toEqual({ signedIn: 'updatingMetadata' });
    expect(t.metadata[0]?.input).toEqual({ wallet_address: ALICE });
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.context().user?.metadata.wallet_address).toBe(ALICE);
    expect(t.logged).toEqual([]);
  });

  it("replaces another wallet: 'Wallet Updated'", async () => {
    const t = await ready(row({ wallet_address: BOB }));
    t.send({ type: 'wallet.linked', address: ALICE });
    t.upserts[0]?.resolve(row({ wallet_address: ALICE }));
    await settle();
    expect(t.toasts).toEqual([
      { title: profileCopy.walletUpdated, description: profileCopy.walletUpdatedDescription(ALICE) },
    ]);
  });

  it("a profile created in this session says 'Profile Created & Wallet Linked' for its first link", async () => {
    const t = start();
    t.send({ type: 'session.started', user: { ...ada, metadata: { wallet_address: BOB } } });
    t.fetches[0]?.resolve(null);
    await settle();
    t.upserts[0]?.resolve(row());
    await settle();
    t.upserts[1]?.resolve(row({ wallet_address: BOB }));
    await settle();
    t.clear();
    t.send({ type: 'wallet.linked', address: ALICE });
    t.upserts[2]?.resolve(row({ wallet_address: ALICE }));
    await settle();
    expect(t.toasts[0]?.title).toBe(profileCopy.createdAndLinked);
    t.metadata[0]?.resolve(undefined);
    await settle();
    t.send({ type: 'wallet.linked', address: BOB });
    t.upserts[3]?.resolve(row({ wallet_address: BOB }));
    await settle();
    expect(t.toasts[1]?.title).toBe(profileCopy.walletUpdated);
  });

  it('does nothing when the profile already holds that wallet (any casing)', async () => {
    const t = await ready(row({ wallet_address: ALICE }));
    t.send({ type: 'wallet.linked', address: ALICE.toUpperCase() });
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.upserts).toHaveLength(0);
    expect(t.toasts).toEqual([]);
  });

  it("shows 'Database Sync Error' when the profile cannot be written, and leaves the metadata alone", async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    t.upserts[0]?.reject(new Error('duplicate key value violates unique constraint'));
    await settle();
    expect(t.toasts).toEqual([
      {
        title: profileCopy.databaseSyncError,
        description: 'duplicate key value violates unique constraint',
        variant: 'destructive',
      },
    ]);
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.context().profile?.wallet_address).toBeNull();
    expect(t.metadata).toHaveLength(0);
  });

  it('only logs a failed metadata update', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    t.upserts[0]?.resolve(row({ wallet_address: ALICE }));
    await settle();
    t.clear();
    const error = new Error('Auth session missing!');
    t.metadata[0]?.reject(error);
    await settle();
    expect(t.logged).toEqual([{ what: 'auth metadata update', error }]);
    expect(t.toasts).toEqual([]);
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.context().user?.metadata.wallet_address).toBeUndefined();
  });

  it('the default logFailure is a safe no-op', async () => {
    const logged: unknown[] = [];
    const machine = profileMachine.provide({
      actions: { showToast: () => {}, report: () => {} },
      actors: {
        fetchProfile: fromPromise<Profile | null, { userId: string }>(async () => row()),
        upsertProfile: fromPromise<Profile, ProfileUpsert>(async ({ input }) => applied(row(), input)),
        updateMetadata: fromPromise<unknown, UserMetadata>(async () => Promise.reject(new Error('nope'))),
      },
    });
    const actor = createActor(machine).start();
    actor.subscribe({ error: (error) => void logged.push(error) });
    actor.send({ type: 'session.started', user: ada });
    await settle();
    actor.send({ type: 'wallet.linked', address: ALICE });
    await settle();
    await settle();
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'ready' });
    expect(logged).toEqual([]);
  });
});

describe('profile machine: unlinking a disconnected wallet', () => {
  it("clears the profile wallet and the metadata: 'Wallet Updated'", async () => {
    const t = await ready(row({ wallet_address: ALICE }), { wallet_address: ALICE });
    t.send({ type: 'wallet.unlinked' });
    expect(t.state()).toEqual({ signedIn: 'unlinkingWallet' });
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, wallet_address: null });
    t.upserts[0]?.resolve(row());
    await settle();
    expect(t.toasts).toEqual([
      { title: profileCopy.walletUpdated, description: profileCopy.walletUpdatedDescription(null) },
    ]);
    expect(t.reports).toEqual([{ type: 'profile.loaded', profile: row() }]);
    expect(t.metadata[0]?.input).toEqual({ wallet_address: null });
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.context().user?.metadata.wallet_address).toBeNull();
  });

  it('clears a wallet left only in the metadata (after a failed session-start sync)', async () => {
    const t = start();
    t.send({ type: 'session.started', user: { ...ada, metadata: { wallet_address: ALICE } } });
    t.fetches[0]?.resolve(row());
    await settle();
    t.upserts[0]?.reject(new Error('Failed to fetch'));
    await settle();
    t.send({ type: 'wallet.unlinked' });
    expect(t.upserts[1]?.input).toEqual({ id: ada.id, wallet_address: null });
    t.upserts[1]?.resolve(row());
    await settle();
    expect(t.metadata[0]?.input).toEqual({ wallet_address: null });
  });

  it('does nothing when no wallet is linked', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.unlinked' });
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.upserts).toHaveLength(0);
    expect(t.toasts).toEqual([]);
  });

  it("shows 'Profile Sync Error' when the wallet cannot be cleared", async () => {
    const t = await ready(row({ wallet_address: ALICE }));
    t.send({ type: 'wallet.unlinked' });
    t.upserts[0]?.reject(new Error('Failed to fetch'));
    await settle();
    expect(t.toasts).toEqual([
      { title: profileCopy.profileSyncError, description: 'Failed to fetch', variant: 'destructive' },
    ]);
    expect(t.context().profile?.wallet_address).toBe(ALICE);
    expect(t.metadata).toHaveLength(0);
  });
});

describe('profile machine: facts that arrive while a request runs', () => {
  it('applies a wallet link that arrived during the first load', async () => {
    const t = start();
    t.send({ type: 'session.started', user: ada });
    t.send({ type: 'wallet.linked', address: ALICE });
    t.fetches[0]?.resolve(row());
    await settle();
    expect(t.state()).toEqual({ signedIn: 'linkingWallet' });
    expect(t.upserts[0]?.input).toEqual({ id: ada.id, wallet_address: ALICE });
  });

  it('applies only the last wallet fact', async () => {
    const t = await ready(row());
    t.send({ type: 'profile.save', username: 'ada', full_name: '', website: '' });
    t.send({ type: 'wallet.linked', address: ALICE });
    t.send({ type: 'wallet.unlinked' });
    t.send({ type: 'wallet.linked', address: BOB });
    t.upserts[0]?.resolve(row());
    await settle();
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.state()).toEqual({ signedIn: 'linkingWallet' });
    expect(t.upserts[1]?.input).toEqual({ id: ada.id, wallet_address: BOB });
    expect(t.upserts).toHaveLength(2);
  });

  it('a user update during a request refreshes the user without a re-fetch', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    const updated = { ...ada, metadata: { wallet_address: ALICE } };
    t.send({ type: 'session.userUpdated', user: updated });
    expect(t.context().user).toEqual(updated);
    expect(t.fetches).toHaveLength(1);
  });

  it('a user update when idle re-fetches the profile', async () => {
    const t = await ready(row());
    const updated = { ...ada, metadata: { username: 'ada2' } };
    t.send({ type: 'session.userUpdated', user: updated });
    expect(t.state()).toEqual({ signedIn: 'loading' });
    expect(t.context().profile).toEqual(row());
    t.fetches[1]?.resolve(row({ username: 'ada2' }));
    await settle();
    expect(t.reports).toEqual([{ type: 'profile.loaded', profile: row({ username: 'ada2' }) }]);
  });

  it("a failed re-fetch keeps the profile shown: 'Profile Fetch Error'", async () => {
    const t = await ready(row());
    t.send({ type: 'session.userUpdated', user: ada });
    t.fetches[1]?.reject(new Error('Failed to fetch'));
    await settle();
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.context().profile).toEqual(row());
    expect(t.toasts).toEqual([
      { title: profileCopy.fetchError, description: 'Failed to fetch', variant: 'destructive' },
    ]);
  });
});

describe('profile machine: session end and change of user', () => {
  it('clears everything on session end and reports no profile, even mid-request', async () => {
    const t = await ready(row({ wallet_address: ALICE }));
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.send({ type: 'session.ended' });
    expect(t.state()).toBe('signedOut');
    expect(t.context()).toMatchObject({ user: null, profile: null, draft: null, draftAvatarUrl: null });
    expect(t.reports).toEqual([{ type: 'profile.loaded', profile: null }]);
    t.uploads[0]?.resolve('late.png');
    await settle();
    expect(t.publicUrls).toHaveLength(0);
  });

  it("another user's session forgets the first user's profile and loads theirs", async () => {
    const t = await ready(row());
    t.send({ type: 'session.started', user: bob });
    expect(t.state()).toEqual({ signedIn: 'loading' });
    expect(t.context()).toMatchObject({ user: bob, profile: null });
    expect(t.fetches[1]?.input).toEqual({ userId: bob.id });
  });

  it("the same user's session start re-fetches and keeps the profile meanwhile", async () => {
    const t = await ready(row());
    t.send({ type: 'session.started', user: ada });
    expect(t.context().profile).toEqual(row());
    expect(t.fetches).toHaveLength(2);
  });
});

describe('profile machine: editing', () => {
  it("saves the fields (empty ones as none): 'Profile Updated', then the auth metadata", async () => {
    const t = await ready(row({ avatar_url: 'http://127.0.0.1/old.png' }));
    t.send({ type: 'profile.save', username: ' ada_l ', full_name: '', website: 'https://ada.dev' });
    expect(t.state()).toEqual({ signedIn: 'saving' });
    const upsert = {
      id: ada.id,
      username: 'ada_l',
      full_name: null,
      website: 'https://ada.dev',
      avatar_url: 'http://127.0.0.1/old.png',
    };
    expect(t.upserts[0]?.input).toEqual(upsert);
    const saved = applied(row({ avatar_url: 'http://127.0.0.1/old.png' }), upsert);
    t.upserts[0]?.resolve(saved);
    await settle();
    expect(t.toasts).toEqual([{ title: profileCopy.updated, description: profileCopy.updatedDescription }]);
    expect(t.reports).toEqual([{ type: 'profile.loaded', profile: saved }]);
    expect(t.context().draft).toBeNull();
    expect(t.metadata[0]?.input).toEqual({
      username: 'ada_l',
      avatar_url: 'http://127.0.0.1/old.png',
      full_name: null,
    });
    t.metadata[0]?.reject(new Error('offline'));
    await settle();
    expect(t.toasts).toHaveLength(1);
    expect(t.logged).toHaveLength(1);
    expect(t.state()).toEqual({ signedIn: 'ready' });
  });

  it.each([
    'ftp://ada.dev',
    'javascript:alert(1)',
    'ada.dev',
    'not a url',
    // URLs the database's check refuses although a URL parser takes them.
    'https:ada.dev',
    'http:/ada.dev',
    'https://ada.dev/a b',
  ])("refuses the website %s before any request: 'Update Failed', the input kept", async (website) => {
    const t = await ready();
    t.send({ type: 'profile.save', username: 'ada', full_name: 'Ada L', website });
    expect(t.toasts).toEqual([
      { title: profileCopy.updateFailed, description: profileCopy.websiteNotHttp, variant: 'destructive' },
    ]);
    expect(t.upserts).toHaveLength(0);
    expect(t.state()).toEqual({ signedIn: 'ready' });
    expect(t.context().draft).toEqual({ username: 'ada', full_name: 'Ada L', website });
  });

  it("shows 'Update Failed' with the message and keeps what was typed and the uploaded avatar", async () => {
    const t = await ready();
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.uploads[0]?.resolve('avatars/a.png');
    await settle();
    t.publicUrls[0]?.resolve('http://127.0.0.1/a.png');
    await settle();
    t.clear();
    t.send({ type: 'profile.save', username: 'taken', full_name: 'Ada', website: '' });
    t.upserts[0]?.reject(new Error('duplicate key value violates unique constraint "profiles_username_key"'));
    await settle();
    expect(t.toasts).toEqual([
      {
        title: profileCopy.updateFailed,
        description: 'duplicate key value violates unique constraint "profiles_username_key"',
        variant: 'destructive',
      },
    ]);
    expect(t.context()).toMatchObject({
      draft: { username: 'taken', full_name: 'Ada', website: '' },
      draftAvatarUrl: 'http://127.0.0.1/a.png',
      profile: row(),
    });
    expect(t.metadata).toHaveLength(0);
    expect(t.state()).toEqual({ signedIn: 'ready' });
  });

  it.each(['uploading', 'resolving its URL'])(
    'drops an avatar still %s when the dialog closes, so it never reappears',
    async (step) => {
      const t = await ready();
      t.send({ type: 'profile.uploadAvatar', file: file() });
      if (step === 'resolving its URL') {
        t.uploads[0]?.resolve('avatars/a.png');
        await settle();
      }
      t.clear();
      t.send({ type: 'profile.discardEdits' });
      expect(t.state()).toEqual({ signedIn: 'ready' });
      // Whatever the stopped request would have answered changes nothing now.
      t.uploads[0]?.resolve('avatars/a.png');
      t.publicUrls[0]?.resolve('http://127.0.0.1/a.png');
      await settle();
      expect(t.context()).toMatchObject({ draftAvatarUrl: null, draft: null });
      expect(t.toasts).toEqual([]);
    },
  );

  it("uploads an avatar into the draft: 'Avatar Uploaded!', persisted only by Save", async () => {
    const t = await ready();
    const avatar = file({ name: 'me.gif', type: 'image/gif' });
    t.send({ type: 'profile.uploadAvatar', file: avatar });
    expect(t.state()).toEqual({ signedIn: 'uploadingAvatar' });
    expect(t.uploads[0]?.input).toEqual({ userId: ada.id, file: avatar });
    t.uploads[0]?.resolve(`${ada.id}-1700000000000.gif`);
    await settle();
    expect(t.publicUrls[0]?.input).toEqual({ path: `${ada.id}-1700000000000.gif` });
    t.publicUrls[0]?.resolve('http://127.0.0.1/storage/v1/object/public/avatars/me.gif');
    await settle();
    expect(t.toasts).toEqual([profileCopy.avatarUploaded]);
    expect(t.context().draftAvatarUrl).toBe('http://127.0.0.1/storage/v1/object/public/avatars/me.gif');
    expect(t.context().profile?.avatar_url).toBeNull();
    expect(t.upserts).toHaveLength(0);
    expect(t.reports).toEqual([]);

    t.send({ type: 'profile.save', username: 'ada', full_name: '', website: '' });
    expect(t.upserts[0]?.input).toMatchObject({
      avatar_url: 'http://127.0.0.1/storage/v1/object/public/avatars/me.gif',
    });
    t.upserts[0]?.resolve(row({ avatar_url: 'http://127.0.0.1/storage/v1/object/public/avatars/me.gif' }));
    await settle();
    expect(t.context().draftAvatarUrl).toBeNull();
  });

  it('discards the draft avatar and the typed fields', async () => {
    const t = await ready();
    t.send({ type: 'profile.save', username: 'x', full_name: '', website: 'nope' });
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.uploads[0]?.resolve('p.png');
    await settle();
    t.publicUrls[0]?.resolve('http://127.0.0.1/p.png');
    await settle();
    t.send({ type: 'profile.discardEdits' });
    expect(t.context()).toMatchObject({ draft: null, draftAvatarUrl: null });
    t.send({ type: 'profile.save', username: 'ada', full_name: '', website: '' });
    expect(t.upserts[0]?.input).toMatchObject({ avatar_url: null });
  });

  it.each([
    { label: 'a webp', avatar: file({ type: 'image/webp' }), message: profileCopy.avatarTypeRefused },
    { label: 'an svg', avatar: file({ type: 'image/svg+xml' }), message: profileCopy.avatarTypeRefused },
    {
      label: 'a file over 2 MB',
      avatar: file({ size: AVATAR_MAX_BYTES + 1 }),
      message: profileCopy.avatarTooLarge,
    },
  ])('refuses $label before any upload', async ({ avatar, message }) => {
    const t = await ready();
    t.send({ type: 'profile.uploadAvatar', file: avatar });
    expect(t.toasts).toEqual([
      { title: profileCopy.avatarUploadFailed, description: message, variant: 'destructive' },
    ]);
    expect(t.uploads).toHaveLength(0);
    expect(t.state()).toEqual({ signedIn: 'ready' });
  });

  it.each(['image/png', 'image/jpeg', 'image/gif'])('accepts %s up to exactly 2 MB', async (type) => {
    const t = await ready();
    t.send({ type: 'profile.uploadAvatar', file: file({ type, size: AVATAR_MAX_BYTES }) });
    expect(t.uploads).toHaveLength(1);
  });

  it("shows 'Avatar Upload Failed' with the message when the upload fails", async () => {
    const t = await ready();
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.uploads[0]?.reject(new Error('The object exceeded the maximum allowed size'));
    await settle();
    expect(t.toasts).toEqual([
      {
        title: profileCopy.avatarUploadFailed,
        description: 'The object exceeded the maximum allowed size',
        variant: 'destructive',
      },
    ]);
    expect(t.context().draftAvatarUrl).toBeNull();
    expect(t.state()).toEqual({ signedIn: 'ready' });
  });

  it("shows 'Could not get public URL for avatar.' when there is no public URL", async () => {
    const t = await ready();
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.uploads[0]?.resolve('p.png');
    await settle();
    t.publicUrls[0]?.resolve(null);
    await settle();
    expect(t.toasts).toEqual([
      {
        title: profileCopy.avatarUploadFailed,
        description: profileCopy.publicUrlFailed,
        variant: 'destructive',
      },
    ]);
    expect(t.context().draftAvatarUrl).toBeNull();
  });

  it("shows 'Avatar Upload Failed' when the public URL cannot be built", async () => {
    const t = await ready();
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.uploads[0]?.resolve('p.png');
    await settle();
    t.publicUrls[0]?.reject(new Error('bad path'));
    await settle();
    expect(t.toasts).toEqual([
      { title: profileCopy.avatarUploadFailed, description: 'bad path', variant: 'destructive' },
    ]);
    expect(t.state()).toEqual({ signedIn: 'ready' });
  });
});

describe('isWebsiteAllowed', () => {
  it('allows nothing, http and https addresses only', () => {
    expect(isWebsiteAllowed('')).toBe(true);
    expect(isWebsiteAllowed('  ')).toBe(true);
    expect(isWebsiteAllowed('http://127.0.0.1:8080/me')).toBe(true);
    expect(isWebsiteAllowed(' HTTPS://ada.dev ')).toBe(true);
    expect(isWebsiteAllowed('mailto:ada@example.com')).toBe(false);
    expect(isWebsiteAllowed('//ada.dev')).toBe(false);
  });
});
