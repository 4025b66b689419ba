import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { profileCopy, walletProofCopy } from '../../../src/copy/index.ts';
import type { AuthUser, UserMetadata } from '../../../src/domain/auth.ts';
import {
  AVATAR_MAX_BYTES,
  isWebsiteAllowed,
  type AvatarFile,
  type Profile,
  type ProfileUpsert,
} from '../../../src/domain/profile.ts';
import type { WalletNonce, WalletProof } from '../../../src/domain/wallet.ts';
import {
  profileMachine,
  type ClearWalletInput,
  type ProfileEvent,
  type RemoveAvatarInput,
  type UploadAvatarInput,
} from '../../../src/machines/profile/profile.machine.ts';
import type { SignProofInput } from '../../../src/machines/profile/wallet-proof.machine.ts';
import { settle } from '../../support/deferred-actor.ts';
import { ada, profileRow } from '../../support/fixtures.ts';
import { ALICE, BOB } from '../../support/machines/fixtures.ts';
import { machineHarness } from '../../support/machines/harness.ts';

// Reading and creating the row, its retries and their toasts are the child's (profile-load.test.ts),
// and so are proving a wallet and its refusals (wallet-proof.test.ts); here they are checked only
// as far as this machine depends on them.

/** What the fake upsert answers: the current row with the upsert applied, as the database would. */
const applied = (base: Profile, upsert: ProfileUpsert): Profile => ({ ...base, ...upsert });

const row = (fields: Partial<Profile> = {}) => profileRow(ada, { wallet_verified_at: null, ...fields });
const VERIFIED_AT = '2026-03-03T00:00:00Z';
/** A profile holding `address` as link-wallet returns it: proven. */
const linked = (address: string, fields: Partial<Profile> = {}) =>
  row({ wallet_address: address, wallet_verified_at: VERIFIED_AT, ...fields });
const NONCE: WalletNonce = { nonce: 'Abc123def456ghi789', expiresAt: '2026-03-03T00:10:00Z' };
const PROOF: WalletProof = { message: 'signed message', signature: `0x${'ab'.repeat(65)}` };

function file(overrides: Partial<AvatarFile> = {}): AvatarFile {
  return { name: 'me.png', type: 'image/png', size: 1024, data: new Blob(['png']), ...overrides };
}

/**
 * Started as the root starts it at sign-in, with the user and the wallet connected then. The
 * reader and the prover are the real profileLoad and walletProof machines, their requests answered
 * by hand like this machine's own. `logFailure` is the logger src/app/provide-portal.ts provides:
 * here a recorder.
 */
function start(options: { user?: AuthUser; walletAddress?: string | null } = {}) {
  const logged: { what: string; error: unknown }[] = [];
  const h = machineHarness(profileMachine, {
    input: { user: options.user ?? ada, walletAddress: options.walletAddress ?? null },
    actions: {
      logFailure: (_: unknown, params: { what: string; error: unknown }) => void logged.push(params),
    },
  });
  /** The reader's creation of a missing row (invoke id createProfile). */
  const creates = h.calls<Profile, ProfileUpsert>('profileLoad.upsertProfile');
  /** This machine's saves of the profile (invoke id saveProfile). */
  const upserts = h.calls<Profile, ProfileUpsert>('upsertProfile');
  /** The proof under way answers: a nonce, the wallet's signature, then link-wallet's row. */
  const prove = async (profile: Profile) => {
    await h.answer('walletProof.requestWalletNonce', NONCE);
    await h.answer('walletProof.signProof', PROOF);
    await h.answer('walletProof.linkWallet', profile);
  };
  return {
    clock: h.clock,
    send: (event: ProfileEvent) => h.send(event),
    context: () => h.snapshot().context,
    state: () => h.snapshot().value,
    /** Forgets the toasts so far. */
    clear: () => void (h.toasts.length = 0),
    prove,
    toasts: h.toasts,
    logged,
    fetches: h.calls<Profile | null, { userId: string }>('profileLoad.fetchProfile'),
    creates,
    upserts,
    /** Every upsert of the profile row, the reader's creations and this machine's saves. */
    allUpserts: () => [...creates, ...upserts],
    metadata: h.calls<unknown, UserMetadata>('updateMetadata'),
    uploads: h.calls<string | null, UploadAvatarInput>('uploadAvatar'),
    nonces: h.calls<WalletNonce, { address: string }>('walletProof.requestWalletNonce'),
    signs: h.calls<WalletProof, SignProofInput>('walletProof.signProof'),
    links: h.calls<Profile, WalletProof>('walletProof.linkWallet'),
    clears: h.calls<Profile, ClearWalletInput>('clearWallet'),
    removals: h.calls<unknown, RemoveAvatarInput>('removeAvatar'),
  };
}

/** Signed in with `profile` read, the user carrying `meta`; the toasts so far are cleared. */
async function ready(profile: Profile = row(), meta: UserMetadata = {}) {
  const t = start({ user: { ...ada, metadata: meta } });
  t.fetches[0]?.resolve(profile);
  await settle();
  expect(t.state()).toBe('ready');
  t.clear();
  return t;
}

describe('profile machine: loading at sign-in', () => {
  it("reads the user's profile, silently", async () => {
    const t = start();
    expect(t.state()).toBe('loading');
    expect(t.fetches[0]?.input).toEqual({ userId: ada.id });
    t.fetches[0]?.resolve(row({ username: 'lovelace' }));
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context().profile).toEqual(row({ username: 'lovelace' }));
    expect(t.context().loadFailed).toBe(false);
    expect(t.toasts).toEqual([]);
    expect(t.allUpserts()).toHaveLength(0);
  });

  it('creates a missing profile with the default username and holds the created row', async () => {
    const t = start();
    t.fetches[0]?.resolve(null);
    await settle();
    expect(t.state()).toBe('loading');
    expect(t.creates[0]?.input).toEqual({ id: ada.id, email: ada.email, username: 'ada' });
    const created = row({ username: 'ada', updated_at: '2026-02-02T00:00:00Z' });
    t.creates[0]?.resolve(created);
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context().profile).toEqual(created);
    expect(t.toasts).toEqual([]);
  });

  it("shows 'Profile Fetch Error', marks the profile unavailable while it waits, and a user update tries again", async () => {
    const t = start();
    t.fetches[0]?.reject(new Error('JWT expired'));
    await settle();
    expect(t.state()).toBe('loading');
    expect(t.context().loadFailed).toBe(true);
    expect(t.toasts).toEqual([
      { title: profileCopy.fetchError, description: 'JWT expired', variant: 'destructive' },
    ]);
    const updated = { ...ada, metadata: { username: 'ada2' } };
    t.send({ type: 'session.userUpdated', user: updated });
    expect(t.fetches).toHaveLength(2);
    expect(t.context().loadFailed).toBe(false);
    expect(t.context().user).toEqual(updated);
    t.fetches[1]?.resolve(row());
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context().profile).toEqual(row());
  });

  it('reads again after the wait, unavailable only while it waits, and quietly', async () => {
    const t = start();
    t.fetches[0]?.reject(new Error('Failed to fetch'));
    await settle();
    t.clock.increment(1000);
    expect(t.fetches).toHaveLength(2);
    expect(t.context().loadFailed).toBe(false);
    t.fetches[1]?.reject(new Error('Failed to fetch'));
    await settle();
    expect(t.context().loadFailed).toBe(true);
    t.clock.increment(2000);
    t.fetches[2]?.resolve(row());
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context()).toMatchObject({ profile: row(), loadFailed: false });
    expect(t.toasts).toHaveLength(1);
  });

  it("shows 'Profile Sync Error' when the missing profile cannot be created, and has no profile", async () => {
    const t = start();
    t.fetches[0]?.resolve(null);
    await settle();
    t.creates[0]?.reject(new Error('permission denied for table profiles'));
    await settle();
    expect(t.state()).toBe('loading');
    expect(t.context()).toMatchObject({ loadFailed: true, profile: null });
    expect(t.toasts).toEqual([
      {
        title: profileCopy.profileSyncError,
        description: 'permission denied for table profiles',
        variant: 'destructive',
      },
    ]);
  });

  it('a user update while the first read runs is kept for the row it creates', async () => {
    const t = start();
    const renamed = { ...ada, email: 'lovelace@example.com' };
    t.send({ type: 'session.userUpdated', user: renamed });
    expect(t.fetches).toHaveLength(1);
    expect(t.context().user).toEqual(renamed);
    t.fetches[0]?.resolve(null);
    await settle();
    expect(t.creates[0]?.input).toEqual({ id: ada.id, email: 'lovelace@example.com', username: 'lovelace' });
  });
});

describe('profile machine: the auth metadata wallet at sign-in', () => {
  it('links nothing the metadata names: a wallet is linked only once it is connected and proven', async () => {
    const t = start({ user: { ...ada, metadata: { wallet_address: ALICE } } });
    t.fetches[0]?.resolve(row({ wallet_address: BOB }));
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context().profile?.wallet_address).toBe(BOB);
    expect(t.nonces).toHaveLength(0);
    expect(t.allUpserts()).toHaveLength(0);
    expect(t.toasts).toEqual([]);
  });

  it('a newly created profile does not take the metadata wallet either', async () => {
    const t = start({ user: { ...ada, metadata: { wallet_address: ALICE } } });
    t.fetches[0]?.resolve(null);
    await settle();
    t.creates[0]?.resolve(row());
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.allUpserts()).toHaveLength(1);
    expect(t.nonces).toHaveLength(0);
  });
});

describe('profile machine: linking a connected wallet', () => {
  it("proves the wallet, then links it: 'Profile Created & Wallet Linked', then the metadata", async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    expect(t.state()).toEqual({ linkingWallet: 'proving' });
    expect(t.nonces[0]?.input).toEqual({ address: ALICE });
    await t.prove(linked(ALICE));
    expect(t.signs[0]?.input).toEqual({
      address: ALICE,
      nonce: NONCE.nonce,
      expiresAt: NONCE.expiresAt,
      statement: walletProofCopy.statement,
    });
    expect(t.links[0]?.input).toEqual(PROOF);
    expect(t.allUpserts()).toHaveLength(0);
    expect(t.toasts).toEqual([
      { title: profileCopy.createdAndLinked, description: profileCopy.createdAndLinkedDescription(ALICE) },
    ]);
    expect(t.context().profile).toEqual(linked(ALICE));
    expect(t.state()).toBe('updatingMetadata');
    expect(t.metadata[0]?.input).toEqual({ wallet_address: ALICE });
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context().user.metadata.wallet_address).toBe(ALICE);
    expect(t.logged).toEqual([]);
  });

  it("replaces another wallet: 'Wallet Updated'", async () => {
    const t = await ready(linked(BOB));
    t.send({ type: 'wallet.linked', address: ALICE });
    await t.prove(linked(ALICE));
    expect(t.toasts).toEqual([
      { title: profileCopy.walletUpdated, description: profileCopy.walletUpdatedDescription(ALICE) },
    ]);
  });

  it('proves the wallet connected at sign-in once the profile is read', async () => {
    const t = start({ walletAddress: ALICE });
    expect(t.nonces).toHaveLength(0);
    t.fetches[0]?.resolve(row());
    await settle();
    expect(t.state()).toEqual({ linkingWallet: 'proving' });
    expect(t.nonces[0]?.input).toEqual({ address: ALICE });
    await t.prove(linked(ALICE));
    expect(t.toasts).toEqual([
      { title: profileCopy.createdAndLinked, description: profileCopy.createdAndLinkedDescription(ALICE) },
    ]);
    expect(t.metadata[0]?.input).toEqual({ wallet_address: ALICE });
  });

  it('asks nothing for a wallet connected at sign-in that the profile already holds, proven (any casing)', async () => {
    // A sign-in with Ethereum links its address on the server: the profile is read with it.
    const t = start({ walletAddress: ALICE.toUpperCase() });
    t.fetches[0]?.resolve(linked(ALICE));
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.nonces).toHaveLength(0);
    expect(t.context().walletIntent).toBeNull();
  });

  it('proves a wallet the profile holds without a proof', async () => {
    const t = start({ walletAddress: ALICE });
    t.fetches[0]?.resolve(row({ wallet_address: ALICE }));
    await settle();
    expect(t.state()).toEqual({ linkingWallet: 'proving' });
    await t.prove(linked(ALICE));
    expect(t.context().profile?.wallet_verified_at).toBe(VERIFIED_AT);
  });

  it("a profile created in this session says 'Profile Created & Wallet Linked' for its first link", async () => {
    const t = start();
    t.fetches[0]?.resolve(null);
    await settle();
    t.creates[0]?.resolve(row());
    await settle();
    t.send({ type: 'wallet.linked', address: ALICE });
    await t.prove(linked(ALICE));
    expect(t.toasts[0]?.title).toBe(profileCopy.createdAndLinked);
    t.metadata[0]?.resolve(undefined);
    await settle();
    t.send({ type: 'wallet.linked', address: BOB });
    await t.prove(linked(BOB));
    expect(t.toasts[1]?.title).toBe(profileCopy.walletUpdated);
  });

  it('a profile created in this session stays so through a re-read', async () => {
    const t = start();
    t.fetches[0]?.resolve(null);
    await settle();
    t.creates[0]?.resolve(linked(BOB));
    await settle();
    t.send({ type: 'session.userUpdated', user: ada });
    t.fetches[1]?.resolve(linked(BOB));
    await settle();
    t.send({ type: 'wallet.linked', address: ALICE });
    await t.prove(linked(ALICE));
    expect(t.toasts.map((toast) => toast.title)).toEqual([profileCopy.createdAndLinked]);
  });

  it('does nothing when the profile already holds that wallet, proven (any casing)', async () => {
    const t = await ready(linked(ALICE));
    t.send({ type: 'wallet.linked', address: ALICE.toUpperCase() });
    expect(t.state()).toBe('ready');
    expect(t.nonces).toHaveLength(0);
    expect(t.toasts).toEqual([]);
  });

  it("a declined signature: 'Wallet Not Linked' alone, the profile and the metadata unchanged", async () => {
    const t = await ready(linked(BOB));
    t.send({ type: 'wallet.linked', address: ALICE });
    t.nonces[0]?.resolve(NONCE);
    await settle();
    t.signs[0]?.reject({ code: 'rejected', message: null });
    await settle();
    expect(t.toasts).toEqual([
      { title: walletProofCopy.notLinked, description: walletProofCopy.declined, variant: 'destructive' },
    ]);
    expect(t.state()).toBe('ready');
    expect(t.context().profile).toEqual(linked(BOB));
    expect(t.links).toHaveLength(0);
    expect(t.metadata).toHaveLength(0);
  });

  it("shows 'Database Sync Error' when the backend fails, and leaves the metadata alone", async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    t.nonces[0]?.reject(new Error('Failed to send a request to the Edge Function'));
    await settle();
    expect(t.toasts).toEqual([
      {
        title: profileCopy.databaseSyncError,
        description: 'Failed to send a request to the Edge Function',
        variant: 'destructive',
      },
    ]);
    expect(t.state()).toBe('ready');
    expect(t.context().profile?.wallet_address).toBeNull();
    expect(t.metadata).toHaveLength(0);
  });

  it('a failed proof is not tried again until the wallet is connected again', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    t.nonces[0]?.reject(new Error('offline'));
    await settle();
    t.send({ type: 'profile.save', username: 'ada', full_name: '', website: '' });
    t.upserts[0]?.resolve(row());
    await settle();
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.nonces).toHaveLength(1);
    t.send({ type: 'wallet.linked', address: ALICE });
    expect(t.nonces).toHaveLength(2);
  });

  it('only logs a failed metadata update', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    await t.prove(linked(ALICE));
    t.clear();
    const error = new Error('Auth session missing!');
    t.metadata[0]?.reject(error);
    await settle();
    expect(t.logged).toEqual([{ what: 'auth metadata update', error }]);
    expect(t.toasts).toEqual([]);
    expect(t.state()).toBe('ready');
    expect(t.context().user.metadata.wallet_address).toBeUndefined();
    expect(t.context().metadataPatch).toEqual({});
  });

  it('the default logFailure is a safe no-op', async () => {
    const errors: unknown[] = [];
    const h = machineHarness(profileMachine, {
      input: { user: ada, walletAddress: null },
      actors: {
        'profileLoad.fetchProfile': fromPromise<Profile | null, { userId: string }>(async () => row()),
        'walletProof.requestWalletNonce': fromPromise<WalletNonce, { address: string }>(async () => NONCE),
        'walletProof.signProof': fromPromise<WalletProof, SignProofInput>(async () => PROOF),
        'walletProof.linkWallet': fromPromise<Profile, WalletProof>(async () => linked(ALICE)),
        updateMetadata: fromPromise<unknown, UserMetadata>(async () => Promise.reject(new Error('nope'))),
      },
    });
    h.actor.subscribe({ error: (error) => void errors.push(error) });
    await settle();
    const linkAlice: ProfileEvent = { type: 'wallet.linked', address: ALICE };
    h.send(linkAlice);
    await settle();
    await settle();
    expect(h.snapshot().value).toBe('ready');
    expect(h.snapshot().context.profile?.wallet_address).toBe(ALICE);
    expect(errors).toEqual([]);
  });
});

describe('profile machine: unlinking a disconnected wallet', () => {
  it("clears the profile wallet and the metadata: 'Wallet Updated'", async () => {
    const t = await ready(linked(ALICE), { wallet_address: ALICE });
    t.send({ type: 'wallet.unlinked' });
    expect(t.state()).toBe('unlinkingWallet');
    expect(t.clears[0]?.input).toEqual({ userId: ada.id });
    t.clears[0]?.resolve(row());
    await settle();
    expect(t.toasts).toEqual([
      { title: profileCopy.walletUpdated, description: profileCopy.walletUpdatedDescription(null) },
    ]);
    expect(t.context().profile).toEqual(row());
    expect(t.metadata[0]?.input).toEqual({ wallet_address: null });
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context().user.metadata.wallet_address).toBeNull();
    expect(t.allUpserts()).toHaveLength(0);
  });

  it('clears a wallet left only in the metadata', async () => {
    const t = await ready(row(), { wallet_address: ALICE });
    t.send({ type: 'wallet.unlinked' });
    expect(t.clears[0]?.input).toEqual({ userId: ada.id });
    t.clears[0]?.resolve(row());
    await settle();
    expect(t.metadata[0]?.input).toEqual({ wallet_address: null });
  });

  it('does nothing when no wallet is linked', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.unlinked' });
    expect(t.state()).toBe('ready');
    expect(t.clears).toHaveLength(0);
    expect(t.toasts).toEqual([]);
  });

  it("shows 'Profile Sync Error' when the wallet cannot be cleared", async () => {
    const t = await ready(linked(ALICE));
    t.send({ type: 'wallet.unlinked' });
    t.clears[0]?.reject(new Error('Failed to fetch'));
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
    t.send({ type: 'wallet.linked', address: ALICE });
    expect(t.state()).toBe('loading');
    t.fetches[0]?.resolve(row());
    await settle();
    expect(t.state()).toEqual({ linkingWallet: 'proving' });
    expect(t.nonces[0]?.input).toEqual({ address: ALICE });
  });

  it('a later fact replaces the wallet connected at sign-in', async () => {
    const t = start({ walletAddress: ALICE });
    t.send({ type: 'wallet.unlinked' });
    t.fetches[0]?.resolve(row());
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.nonces).toHaveLength(0);
    expect(t.clears).toHaveLength(0);
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
    expect(t.state()).toEqual({ linkingWallet: 'proving' });
    expect(t.nonces.map((call) => call.input)).toEqual([{ address: BOB }]);
    expect(t.clears).toHaveLength(0);
  });

  it('another account while the wallet is asked stops that proof and proves the new one', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    t.nonces[0]?.resolve(NONCE);
    await settle();
    t.send({ type: 'wallet.linked', address: BOB });
    await settle();
    expect(t.nonces.map((call) => call.input)).toEqual([{ address: ALICE }, { address: BOB }]);
    // ALICE's signature comes late: it is dropped, nothing is linked with it.
    t.signs[0]?.resolve(PROOF);
    await settle();
    expect(t.links).toHaveLength(0);
    await t.prove(linked(BOB));
    expect(t.context().profile?.wallet_address).toBe(BOB);
    expect(t.toasts.map((toast) => toast.title)).toEqual([profileCopy.createdAndLinked]);
  });

  it('a disconnect while the wallet is asked links nothing and has nothing to unlink', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    t.send({ type: 'wallet.unlinked' });
    await settle();
    expect(t.state()).toBe('ready');
    t.nonces[0]?.resolve(NONCE);
    await settle();
    expect(t.signs).toHaveLength(0);
    expect(t.links).toHaveLength(0);
    expect(t.clears).toHaveLength(0);
    expect(t.toasts).toEqual([]);
  });

  it('keeps a wallet fact that arrives once the signed proof is on its way for after it', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    t.nonces[0]?.resolve(NONCE);
    await settle();
    t.signs[0]?.resolve(PROOF);
    await settle();
    expect(t.state()).toEqual({ linkingWallet: 'committing' });
    t.send({ type: 'wallet.linked', address: BOB });
    t.links[0]?.resolve(linked(ALICE));
    await settle();
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.state()).toEqual({ linkingWallet: 'proving' });
    expect(t.nonces[1]?.input).toEqual({ address: BOB });
  });

  it('the same account again while it is asked changes nothing', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    t.send({ type: 'wallet.linked', address: ALICE.toUpperCase().replace('0X', '0x') });
    await settle();
    expect(t.nonces).toHaveLength(1);
    await t.prove(linked(ALICE));
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.nonces).toHaveLength(1);
  });

  it('a user update during a request refreshes the user without a re-read', async () => {
    const t = await ready(row());
    t.send({ type: 'wallet.linked', address: ALICE });
    const updated = { ...ada, metadata: { wallet_address: ALICE } };
    t.send({ type: 'session.userUpdated', user: updated });
    expect(t.context().user).toEqual(updated);
    expect(t.fetches).toHaveLength(1);
    expect(t.state()).toEqual({ linkingWallet: 'proving' });
  });

  it('a user update when idle re-reads the profile, keeping the one shown meanwhile', async () => {
    const t = await ready(row());
    const updated = { ...ada, metadata: { username: 'ada2' } };
    t.send({ type: 'session.userUpdated', user: updated });
    expect(t.state()).toBe('loading');
    expect(t.context().profile).toEqual(row());
    expect(t.fetches[1]?.input).toEqual({ userId: ada.id });
    t.fetches[1]?.resolve(row({ username: 'ada2' }));
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context().profile).toEqual(row({ username: 'ada2' }));
    expect(t.toasts).toEqual([]);
  });

  it("a failed re-read keeps the profile shown: 'Profile Fetch Error', and no wait", async () => {
    const t = await ready(row());
    t.send({ type: 'session.userUpdated', user: ada });
    t.fetches[1]?.reject(new Error('Failed to fetch'));
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context()).toMatchObject({ profile: row(), loadFailed: false });
    expect(t.toasts).toEqual([
      { title: profileCopy.fetchError, description: 'Failed to fetch', variant: 'destructive' },
    ]);
    t.clock.increment(10_000);
    expect(t.fetches).toHaveLength(2);
  });

  it('a re-read applies the wallet facts that arrived meanwhile', async () => {
    const t = await ready(row());
    t.send({ type: 'session.userUpdated', user: ada });
    t.send({ type: 'wallet.linked', address: ALICE });
    t.fetches[1]?.reject(new Error('Failed to fetch'));
    await settle();
    expect(t.state()).toEqual({ linkingWallet: 'proving' });
    expect(t.nonces[0]?.input).toEqual({ address: ALICE });
  });
});

describe('profile machine: editing', () => {
  it("saves the fields (empty ones as none): 'Profile Updated', then the auth metadata", async () => {
    const t = await ready(row({ avatar_url: 'http://127.0.0.1/old.png' }));
    t.send({ type: 'profile.save', username: ' ada_l ', full_name: '', website: 'https://ada.dev' });
    expect(t.state()).toBe('saving');
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
    expect(t.context().profile).toEqual(saved);
    expect(t.context().draft).toBeNull();
    expect(t.metadata[0]?.input).toEqual({
      username: 'ada_l',
      avatar_url: 'http://127.0.0.1/old.png',
      full_name: null,
    });
    t.metadata[0]?.reject(new Error('offline'));
    await settle();
    expect(t.toasts).toHaveLength(1);
    expect(t.logged).toEqual([{ what: 'auth metadata update', error: new Error('offline') }]);
    expect(t.state()).toBe('ready');
  });

  it('keeps the saved names in the user once the metadata is updated', async () => {
    const t = await ready(row());
    t.send({ type: 'profile.save', username: 'ada_l', full_name: 'Ada Lovelace', website: '' });
    t.upserts[0]?.resolve(row({ username: 'ada_l', full_name: 'Ada Lovelace' }));
    await settle();
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.context().user.metadata).toEqual({
      username: 'ada_l',
      avatar_url: null,
      full_name: 'Ada Lovelace',
    });
    expect(t.context().metadataPatch).toEqual({});
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
    expect(t.allUpserts()).toHaveLength(0);
    expect(t.state()).toBe('ready');
    expect(t.context().draft).toEqual({ username: 'ada', full_name: 'Ada L', website });
  });

  it("shows 'Update Failed' with the message and keeps what was typed and the uploaded avatar", async () => {
    const t = await ready();
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.uploads[0]?.resolve('http://127.0.0.1/a.png');
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
    expect(t.state()).toBe('ready');
  });

  it('drops an avatar still uploading when the dialog closes, so it never reappears', async () => {
    const t = await ready();
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.send({ type: 'profile.discardEdits' });
    expect(t.state()).toBe('ready');
    // Whatever the stopped request would have answered changes nothing now.
    t.uploads[0]?.resolve('http://127.0.0.1/a.png');
    await settle();
    expect(t.context()).toMatchObject({ draftAvatarUrl: null, draft: null });
    expect(t.toasts).toEqual([]);
  });

  it("uploads an avatar into the draft: 'Avatar Uploaded!', persisted only by Save", async () => {
    const t = await ready();
    const avatar = file({ name: 'me.gif', type: 'image/gif' });
    t.send({ type: 'profile.uploadAvatar', file: avatar });
    expect(t.state()).toBe('uploadingAvatar');
    expect(t.uploads[0]?.input).toEqual({ userId: ada.id, file: avatar });
    t.uploads[0]?.resolve('http://127.0.0.1/storage/v1/object/public/avatars/me.gif');
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.toasts).toEqual([profileCopy.avatarUploaded]);
    expect(t.context().draftAvatarUrl).toBe('http://127.0.0.1/storage/v1/object/public/avatars/me.gif');
    expect(t.context().profile?.avatar_url).toBeNull();
    expect(t.allUpserts()).toHaveLength(0);

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
    t.uploads[0]?.resolve('http://127.0.0.1/p.png');
    await settle();
    expect(t.context().draftAvatarUrl).toBe('http://127.0.0.1/p.png');
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
    expect(t.state()).toBe('ready');
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
    expect(t.state()).toBe('ready');
  });

  it("shows 'Could not get public URL for avatar.' when there is no public URL", async () => {
    const t = await ready();
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.uploads[0]?.resolve(null);
    await settle();
    expect(t.toasts).toEqual([
      {
        title: profileCopy.avatarUploadFailed,
        description: profileCopy.publicUrlFailed,
        variant: 'destructive',
      },
    ]);
    expect(t.context().draftAvatarUrl).toBeNull();
    expect(t.state()).toBe('ready');
  });
});

describe('profile machine: the avatar a save replaces', () => {
  const OLD = 'http://127.0.0.1/storage/v1/object/public/avatars/old.png';
  const NEW = 'http://127.0.0.1/storage/v1/object/public/avatars/new.png';

  /** Ready with `previous` as the saved avatar and NEW uploaded into the draft. */
  async function withNewAvatar(previous: string | null) {
    const t = await ready(row({ avatar_url: previous }));
    t.send({ type: 'profile.uploadAvatar', file: file() });
    t.uploads[0]?.resolve(NEW);
    await settle();
    t.clear();
    t.send({ type: 'profile.save', username: 'ada', full_name: '', website: '' });
    return t;
  }

  it('removes the replaced avatar once the save has succeeded, then updates the metadata', async () => {
    const t = await withNewAvatar(OLD);
    expect(t.state()).toBe('saving');
    expect(t.removals).toEqual([]);
    t.upserts[0]?.resolve(row({ avatar_url: NEW }));
    await settle();
    expect(t.toasts).toEqual([{ title: profileCopy.updated, description: profileCopy.updatedDescription }]);
    expect(t.removals.map((call) => call.input)).toEqual([{ userId: ada.id, avatarUrl: OLD }]);
    expect(t.metadata).toEqual([]);

    t.removals[0]?.resolve(true);
    await settle();
    expect(t.metadata[0]?.input).toMatchObject({ avatar_url: NEW });
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context().profile).toEqual(row({ avatar_url: NEW }));
    expect(t.toasts).toHaveLength(1);
  });

  it('removes nothing when the save fails, and the one that succeeds later removes it', async () => {
    const t = await withNewAvatar(OLD);
    t.upserts[0]?.reject(new Error('Failed to fetch'));
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.context()).toMatchObject({ profile: row({ avatar_url: OLD }), draftAvatarUrl: NEW });

    t.send({ type: 'profile.save', username: 'ada', full_name: '', website: '' });
    t.upserts[1]?.resolve(row({ avatar_url: NEW }));
    await settle();
    expect(t.removals.map((call) => call.input)).toEqual([{ userId: ada.id, avatarUrl: OLD }]);
  });

  it.each([
    ['the save keeps the avatar', OLD, OLD],
    ['there was no avatar before', null, NEW],
  ])('removes nothing when %s', async (_case, previous, saved) => {
    const t = await ready(row({ avatar_url: previous }));
    t.send({ type: 'profile.save', username: 'ada', full_name: '', website: '' });
    t.upserts[0]?.resolve(row({ avatar_url: saved }));
    await settle();
    // Straight on to the metadata: nothing was asked to go first.
    expect(t.state()).toBe('updatingMetadata');
    expect(t.metadata).toHaveLength(1);
    expect(t.removals).toEqual([]);
  });

  it('only logs a removal that fails: the save stands and no toast says otherwise', async () => {
    const t = await withNewAvatar(OLD);
    t.upserts[0]?.resolve(row({ avatar_url: NEW }));
    await settle();
    t.clear();
    const error = new Error('Failed to fetch');
    t.removals[0]?.reject(error);
    await settle();
    expect(t.logged).toEqual([{ what: 'replaced avatar removal', error }]);
    t.metadata[0]?.resolve(undefined);
    await settle();
    expect(t.state()).toBe('ready');
    expect(t.toasts).toEqual([]);
    expect(t.context().profile).toEqual(row({ avatar_url: NEW }));
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
