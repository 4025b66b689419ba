import { expect } from 'vitest';
import { profileMachine, type ProfileFact } from '../../src/machines/profile.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import type { AuthUser, AvatarFile, Profile } from '../../src/services/supabase/types.ts';
import { profileRow } from '../support/fixtures.ts';
import { describeModel } from './support/index.ts';

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

const toasts: ToastRequest[] = [];
const reports: ProfileFact[] = [];
const offline = new Error('Failed to fetch');

describeModel({
  name: 'profile',
  machine: profileMachine,
  deferredActors: ['fetchProfile', 'upsertProfile', 'updateMetadata', 'uploadAvatar', 'avatarPublicUrl'],
  provide: {
    actions: {
      showToast: (_, params) => void toasts.push(params),
      report: (_, params) => void reports.push(params),
      logFailure: () => {},
    },
  },
  // A vertex is the state plus the facts the guards read; drafts and toasts are not branches.
  serializeState: (snapshot) =>
    JSON.stringify({
      value: snapshot.value,
      profile: snapshot.context.profile && { wallet: snapshot.context.profile.wallet_address },
      metadataWallet: snapshot.context.user?.metadata.wallet_address,
      intent: snapshot.context.walletIntent,
      // A first failure and a retry's failure take different transitions.
      retrying: snapshot.context.failures > 0,
    }),
  events: {
    'session.started': [
      { type: 'session.started', user: ada },
      { type: 'session.started', user: adaWithWallet },
    ],
    'session.userUpdated': [{ type: 'session.userUpdated', user: ada }],
    'wallet.linked': [{ type: 'wallet.linked', address: ALICE }],
    'profile.save': [
      { type: 'profile.save', username: 'ada', full_name: 'Ada Lovelace', website: 'https://ada.dev' },
      { type: 'profile.save', username: 'ada', full_name: '', website: 'ftp://ada.dev' },
    ],
    'profile.uploadAvatar': [
      { type: 'profile.uploadAvatar', file: png() },
      { type: 'profile.uploadAvatar', file: png({ type: 'image/webp' }) },
      { type: 'profile.uploadAvatar', file: png({ size: 3 * 1024 * 1024 }) },
    ],
    'xstate.done.actor.fetchProfile': [
      { type: 'xstate.done.actor.fetchProfile', output: row() },
      { type: 'xstate.done.actor.fetchProfile', output: row({ wallet_address: ALICE }) },
      { type: 'xstate.done.actor.fetchProfile', output: null },
    ],
    'xstate.error.actor.fetchProfile': [{ type: 'xstate.error.actor.fetchProfile', error: offline }],
    'xstate.done.actor.createProfile': [{ type: 'xstate.done.actor.createProfile', output: row() }],
    'xstate.error.actor.createProfile': [{ type: 'xstate.error.actor.createProfile', error: offline }],
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
    'xstate.done.actor.uploadAvatar': [{ type: 'xstate.done.actor.uploadAvatar', output: 'u-1-1.png' }],
    'xstate.error.actor.uploadAvatar': [{ type: 'xstate.error.actor.uploadAvatar', error: offline }],
    'xstate.done.actor.avatarPublicUrl': [
      { type: 'xstate.done.actor.avatarPublicUrl', output: AVATAR_URL },
      { type: 'xstate.done.actor.avatarPublicUrl', output: null },
    ],
    'xstate.error.actor.avatarPublicUrl': [{ type: 'xstate.error.actor.avatarPublicUrl', error: offline }],
  },
  states: {
    signedOut: (s) => expect(s.context).toMatchObject({ user: null, profile: null, draftAvatarUrl: null }),
    'signedIn.ready': (s) => expect(s.context.profile).not.toBeNull(),
    'signedIn.failed': (s) => expect(s.context.profile).toBeNull(),
    'signedIn.saving': (s) => expect(s.context.draft).not.toBeNull(),
    'signedIn.linkingWallet': (s) => expect(s.context.walletTarget).toBe(ALICE),
    'signedIn.updatingMetadata': (s) => expect(s.context.metadataPatch).not.toEqual({}),
  },
});
