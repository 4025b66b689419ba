import { beforeEach, expect } from 'vitest';
import type { AuthUser } from '../../src/domain/auth.ts';
import { profileCopy } from '../../src/copy/index.ts';
import type { AvatarFile, Profile } from '../../src/domain/profile.ts';
import { profileMachine, type ProfileInput } from '../../src/machines/profile.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { profileRow } from '../support/fixtures.ts';
import { describeModel } from './support/index.ts';

// The reader (profileLoad) stands in as a deferred actor: the paths decide what it ends with and
// send what it tells this machine (`profileLoad.waiting`) as events. Its own chart is modelled in
// profile-load.model.test.ts.

const ALICE = '0x1234567890abcdef1234567890abcdef1234abcd';
const ada: AuthUser = { id: 'u-1', email: 'ada@example.com', emailConfirmedAt: '2024-01-01', metadata: {} };
const adaWithWallet: AuthUser = { ...ada, metadata: { wallet_address: ALICE } };
const row = (fields: Partial<Profile> = {}) => profileRow(ada, fields);
const AVATAR_URL = 'http://127.0.0.1:54321/storage/v1/object/public/avatars/u-1-1.png';

const png = (overrides: Partial<AvatarFile> = {}): AvatarFile => ({
  name: 'me.png',
  type: 'image/png',
  size: 1024,
  data: new Blob(['png']),
  ...overrides,
});

/** The toasts this machine shows; reading the row is the child's, so 'Profile Fetch Error' is not one. */
const TITLES: string[] = [
  profileCopy.profileSyncError,
  profileCopy.databaseSyncError,
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
  'wallet.linked': [{ type: 'wallet.linked', address: ALICE }],
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
    // A re-read failed: the profile on show stays.
    { type: 'xstate.done.actor.profileLoad', output: null },
  ],
  'xstate.done.actor.syncWallet': [
    { type: 'xstate.done.actor.syncWallet', output: row({ wallet_address: ALICE }) },
  ],
  'xstate.error.actor.syncWallet': [{ type: 'xstate.error.actor.syncWallet', error: offline }],
  'xstate.done.actor.linkWallet': [
    { type: 'xstate.done.actor.linkWallet', output: row({ wallet_address: ALICE }) },
  ],
  'xstate.error.actor.linkWallet': [{ type: 'xstate.error.actor.linkWallet', error: offline }],
  'xstate.done.actor.unlinkWallet': [{ type: 'xstate.done.actor.unlinkWallet', output: row() }],
  'xstate.error.actor.unlinkWallet': [{ type: 'xstate.error.actor.unlinkWallet', error: offline }],
  'xstate.done.actor.saveProfile': [
    { type: 'xstate.done.actor.saveProfile', output: row({ full_name: 'Ada Lovelace' }) },
  ],
  'xstate.error.actor.saveProfile': [{ type: 'xstate.error.actor.saveProfile', error: offline }],
  'xstate.done.actor.updateMetadata': [{ type: 'xstate.done.actor.updateMetadata', output: undefined }],
  'xstate.error.actor.updateMetadata': [{ type: 'xstate.error.actor.updateMetadata', error: offline }],
  'xstate.done.actor.uploadAvatar': [
    { type: 'xstate.done.actor.uploadAvatar', output: AVATAR_URL },
    { type: 'xstate.done.actor.uploadAvatar', output: null },
  ],
  'xstate.error.actor.uploadAvatar': [{ type: 'xstate.error.actor.uploadAvatar', error: offline }],
};

function model(input: ProfileInput) {
  describeModel({
    name: 'profile',
    machine: profileMachine,
    input,
    deferredActors: ['profileLoad', 'upsertProfile', 'updateMetadata', 'uploadAvatar'],
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
        profile: snapshot.context.profile && { wallet: snapshot.context.profile.wallet_address },
        metadataWallet: snapshot.context.user.metadata.wallet_address,
        intent: snapshot.context.walletIntent,
      }),
    events,
    states: {
      // Every wallet fact is taken or dropped on the way here.
      ready: (s) => expect(s.context.walletIntent).toBeNull(),
      saving: (s) => expect(s.context.draft).not.toBeNull(),
      linkingWallet: (s) => expect(s.context).toMatchObject({ walletTarget: ALICE, walletIntent: null }),
      unlinkingWallet: (s) => expect(s.context).toMatchObject({ walletTarget: null, walletIntent: null }),
      updatingMetadata: (s) => expect(s.context.metadataPatch).not.toEqual({}),
      // Every toast says what happened; a failed metadata update is only logged.
      '*': () => {
        for (const toast of toasts) {
          expect(TITLES).toContain(toast.title);
          expect(toast.description).toBeTruthy();
        }
        for (const what of logged) expect(what).toBe('auth metadata update');
      },
    },
  });
}

model({ user: ada, walletAddress: null });
// A wallet connected when the user signs in: linked once the profile is read.
model({ user: adaWithWallet, walletAddress: ALICE });
