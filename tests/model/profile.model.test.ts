import { beforeEach, expect } from 'vitest';
import type { AuthUser } from '../../src/domain/auth.ts';
import { profileCopy } from '../../src/copy/index.ts';
import type { AvatarFile, Profile } from '../../src/domain/profile.ts';
import { profileMachine, type ProfileInput } from '../../src/machines/profile.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { profileRow } from '../support/fixtures.ts';
import { describeModel } from './support/index.ts';

// The reader (profileLoad) and the prover (walletProof) stand in as deferred actors: the paths
// decide what they end with and send what the reader tells this machine (`profileLoad.waiting`) as
// events. Their own charts are modelled in profile-load.model.test.ts and wallet-proof.model.test.ts.

const ALICE = '0x1234567890abcdef1234567890abcdef1234abcd';
const BOB = '0xabcdef1234567890abcdef1234567890abcdef12';
const ada: AuthUser = {
  id: 'u-1',
  email: 'ada@example.com',
  emailConfirmedAt: '2024-01-01',
  web3Address: null,
  metadata: {},
};
const adaWithWallet: AuthUser = { ...ada, metadata: { wallet_address: ALICE } };
const row = (fields: Partial<Profile> = {}) => profileRow(ada, { wallet_verified_at: null, ...fields });
const proven = row({ wallet_address: ALICE, wallet_verified_at: '2026-03-03T00:00:00Z' });
const AVATAR_URL = 'http://127.0.0.1:54321/storage/v1/object/public/avatars/u-1-1.png';

const png = (overrides: Partial<AvatarFile> = {}): AvatarFile => ({
  name: 'me.png',
  type: 'image/png',
  size: 1024,
  data: new Blob(['png']),
  ...overrides,
});

/**
 * The toasts this machine shows; reading the row and proving a wallet are its children's, so
 * 'Profile Fetch Error', 'Wallet Not Linked' and 'Database Sync Error' are not among them.
 */
const TITLES: string[] = [
  profileCopy.profileSyncError,
  profileCopy.updateFailed,
  profileCopy.avatarUploadFailed,
  profileCopy.createdAndLinked,
  profileCopy.walletUpdated,
  profileCopy.updated,
  profileCopy.avatarUploaded.title,
];

const toasts: ToastRequest[] = [];
const logged: string[] = [];
const offline = new Error('Failed to fetch');

beforeEach(() => {
  toasts.length = 0;
  logged.length = 0;
});

const events = {
  'session.userUpdated': [
    { type: 'session.userUpdated', user: ada },
    { type: 'session.userUpdated', user: adaWithWallet },
  ],
  'wallet.linked': [
    { type: 'wallet.linked', address: ALICE },
    // Another account while ALICE is being proven.
    { type: 'wallet.linked', address: BOB },
  ],
  'walletProof.verifying': [{ type: 'walletProof.verifying' }],
  'profileLoad.waiting': [
    { type: 'profileLoad.waiting', waiting: true },
    { type: 'profileLoad.waiting', waiting: false },
  ],
  'profile.save': [
    { type: 'profile.save', username: 'ada', full_name: 'Ada Lovelace', website: 'https://ada.dev' },
    { type: 'profile.save', username: 'ada', full_name: '', website: 'ftp://ada.dev' },
  ],
  'profile.uploadAvatar': [
    { type: 'profile.uploadAvatar', file: png() },
    { type: 'profile.uploadAvatar', file: png({ type: 'image/webp' }) },
    { type: 'profile.uploadAvatar', file: png({ size: 3 * 1024 * 1024 }) },
  ],
  'xstate.done.actor.profileLoad': [
    { type: 'xstate.done.actor.profileLoad', output: { profile: row(), created: false } },
    { type: 'xstate.done.actor.profileLoad', output: { profile: row(), created: true } },
    {
      type: 'xstate.done.actor.profileLoad',
      output: { profile: row({ wallet_address: ALICE }), created: false },
    },
    { type: 'xstate.done.actor.profileLoad', output: { profile: proven, created: false } },
    // A re-read failed: the profile on show stays.
    { type: 'xstate.done.actor.profileLoad', output: null },
  ],
  'xstate.done.actor.walletProof': [
    { type: 'xstate.done.actor.walletProof', output: { profile: proven } },
    // Refused or failed: the prover has shown why.
    { type: 'xstate.done.actor.walletProof', output: null },
  ],
  'xstate.done.actor.clearWallet': [{ type: 'xstate.done.actor.clearWallet', output: row() }],
  'xstate.error.actor.clearWallet': [{ type: 'xstate.error.actor.clearWallet', error: offline }],
  'xstate.done.actor.saveProfile': [
    { type: 'xstate.done.actor.saveProfile', output: row({ full_name: 'Ada Lovelace' }) },
    // The uploaded avatar saved: whatever the profile held before it is replaced.
    { type: 'xstate.done.actor.saveProfile', output: row({ avatar_url: AVATAR_URL }) },
  ],
  'xstate.error.actor.saveProfile': [{ type: 'xstate.error.actor.saveProfile', error: offline }],
  'xstate.done.actor.updateMetadata': [{ type: 'xstate.done.actor.updateMetadata', output: undefined }],
  'xstate.error.actor.updateMetadata': [{ type: 'xstate.error.actor.updateMetadata', error: offline }],
  'xstate.done.actor.uploadAvatar': [
    { type: 'xstate.done.actor.uploadAvatar', output: AVATAR_URL },
    { type: 'xstate.done.actor.uploadAvatar', output: null },
  ],
  'xstate.error.actor.uploadAvatar': [{ type: 'xstate.error.actor.uploadAvatar', error: offline }],
  'xstate.done.actor.removeAvatar': [{ type: 'xstate.done.actor.removeAvatar', output: true }],
  'xstate.error.actor.removeAvatar': [{ type: 'xstate.error.actor.removeAvatar', error: offline }],
};

function model(input: ProfileInput) {
  describeModel({
    name: 'profile',
    machine: profileMachine,
    input,
    deferredActors: [
      'profileLoad',
      'walletProof',
      'upsertProfile',
      'clearWallet',
      'updateMetadata',
      'uploadAvatar',
      'removeAvatar',
    ],
    provide: {
      actions: {
        showToast: (_, params) => void toasts.push(params),
        logFailure: (_, params) => void logged.push(params.what),
      },
    },
    // A vertex is the state plus the facts the guards read; drafts and toasts are not branches.
    serializeState: (snapshot) =>
      JSON.stringify({
        value: snapshot.value,
        profile: snapshot.context.profile && {
          wallet: snapshot.context.profile.wallet_address,
          proven: !!snapshot.context.profile.wallet_verified_at,
        },
        metadataWallet: snapshot.context.user.metadata.wallet_address,
        intent: snapshot.context.walletIntent,
        // The wallet being proved decides whether another account stops the proof.
        target: snapshot.context.walletTarget,
        // Whether a save replaces an avatar depends on the one the profile holds.
        avatar: snapshot.context.profile?.avatar_url ?? null,
        replacedAvatar: snapshot.context.replacedAvatarUrl,
      }),
    events,
    states: {
      // Every wallet fact is taken or dropped on the way here.
      ready: (s) => expect(s.context.walletIntent).toBeNull(),
      saving: (s) => expect(s.context.draft).not.toBeNull(),
      'linkingWallet.proving': (s) => expect(s.context.walletTarget).not.toBeNull(),
      'linkingWallet.committing': (s) => expect(s.context.walletTarget).not.toBeNull(),
      unlinkingWallet: (s) => expect(s.context).toMatchObject({ walletTarget: null, walletIntent: null }),
      updatingMetadata: (s) => expect(s.context.metadataPatch).not.toEqual({}),
      // Only ever after a save that changed the avatar, and never the avatar the save kept.
      removingReplacedAvatar: (s) => {
        expect(s.context.replacedAvatarUrl).not.toBeNull();
        expect(s.context.replacedAvatarUrl).not.toBe(s.context.profile?.avatar_url);
      },
      // Every toast says what happened; a failed metadata update or avatar removal is only logged.
      '*': () => {
        for (const toast of toasts) {
          expect(TITLES).toContain(toast.title);
          expect(toast.description).toBeTruthy();
        }
        for (const what of logged)
          expect(['auth metadata update', 'replaced avatar removal']).toContain(what);
      },
    },
  });
}

model({ user: ada, walletAddress: null });
// A wallet connected when the user signs in: linked once the profile is read.
model({ user: adaWithWallet, walletAddress: ALICE });
