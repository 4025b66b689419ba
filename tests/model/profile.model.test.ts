import { describe, expect } from 'vitest';
import type { EventObject } from 'xstate';
import type { AuthUser } from '../../src/domain/auth.ts';
import { profileCopy } from '../../src/copy/index.ts';
import type { AvatarFile, Profile } from '../../src/domain/profile.ts';
import {
  profileMachine,
  type ProfileEdits,
  type ProfileInput,
} from '../../src/machines/profile/profile.machine.ts';
import type { ToastRequest } from '../../src/machines/shared.ts';
import { ada, profileRow } from '../support/fixtures.ts';
import { ALICE } from '../support/machines/fixtures.ts';
import { endings, errorOf, outputOf, reversed } from '../support/model/recorders.ts';
import { describeModel, type EventAssertion, type ModelStep } from '../support/model/index.ts';

// The reader (profileLoad) and the prover (walletProof) stand in as promises: the paths decide
// what they end with and send what the reader tells this machine (`profileLoad.waiting`) as events. Their own charts are modelled in profile-load.model.test.ts and wallet-proof.model.test.ts.

/** Another account: its own address here, which the paths' names carry. */
const BOB = '0xabcdef1234567890abcdef1234567890abcdef12';
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

const offline = new Error('Failed to fetch');

type Snapshot = ReturnType<typeof profileMachine.transition>;
type Logged = { what: string; error: unknown };

type Step = ModelStep<typeof profileMachine>;

const destructive = (title: string, description: string): ToastRequest => ({
  title,
  description,
  variant: 'destructive',
});

/** The toast a step's event must show, from its payload and the profile before it. */
function expectedToast(event: EventObject, previous: Snapshot): ToastRequest {
  const { context } = previous;
  switch (event.type) {
    case 'profile.save':
      return destructive(profileCopy.updateFailed, profileCopy.websiteNotHttp);
    case 'profile.uploadAvatar': {
      const { file } = event as EventObject & { file: AvatarFile };
      return destructive(
        profileCopy.avatarUploadFailed,
        file.type === 'image/png' ? profileCopy.avatarTooLarge : profileCopy.avatarTypeRefused,
      );
    }
    case 'xstate.done.actor.walletProof': {
      // A profile that held no wallet (or was created this session) says it was created and linked.
      const address = context.walletTarget ?? '';
      return context.justCreated || !context.profile?.wallet_address
        ? {
            title: profileCopy.createdAndLinked,
            description: profileCopy.createdAndLinkedDescription(address),
          }
        : { title: profileCopy.walletUpdated, description: profileCopy.walletUpdatedDescription(address) };
    }
    case 'xstate.done.actor.clearWallet':
      return { title: profileCopy.walletUpdated, description: profileCopy.walletUpdatedDescription(null) };
    case 'xstate.error.actor.clearWallet':
      return destructive(profileCopy.profileSyncError, (errorOf(event) as Error).message);
    case 'xstate.done.actor.saveProfile':
      return { title: profileCopy.updated, description: profileCopy.updatedDescription };
    case 'xstate.error.actor.saveProfile':
      return destructive(profileCopy.updateFailed, (errorOf(event) as Error).message);
    case 'xstate.done.actor.uploadAvatar':
      return outputOf(event)
        ? profileCopy.avatarUploaded
        : destructive(profileCopy.avatarUploadFailed, profileCopy.publicUrlFailed);
    case 'xstate.error.actor.uploadAvatar':
      return destructive(profileCopy.avatarUploadFailed, (errorOf(event) as Error).message);
    case 'profile.setEmailAlert':
      return destructive(profileCopy.emailAlertsNoEmail.title, profileCopy.emailAlertsNoEmail.description);
    case 'xstate.done.actor.saveEmailAlert':
      return profileCopy.emailAlertsSaved;
    case 'xstate.error.actor.saveEmailAlert':
      return destructive(profileCopy.emailAlertsFailed, (errorOf(event) as Error).message);
    default:
      throw new Error(`no toast expected for ${event.type}`);
  }
}

const holds = (profile: Profile | null, address: string) =>
  (profile?.wallet_address ?? '').toLowerCase() === address.toLowerCase() && !!profile?.wallet_verified_at;
/** The states in which a request runs: a wallet fact waits for it to end. */
const busy = (snapshot: Snapshot) => !snapshot.matches('ready');

/** What a step must have done with the event it took (docs/product.md#profile, #wallet-sync). */
const afterEvent: EventAssertion<Snapshot> = (event, previous, snapshot, shown) => {
  const was = previous.context;
  const { context } = snapshot;
  switch (event.type) {
    case 'wallet.linked': {
      const { address } = event as EventObject & { address: string };
      if (previous.matches('ready')) {
        // A wallet the profile holds, proven, asks for nothing; any other is proved first.
        if (holds(was.profile, address)) expect(snapshot.value).toBe('ready');
        else expect(snapshot.matches('linkingWallet') && context.walletTarget === address).toBe(true);
      } else if (
        previous.matches({ linkingWallet: 'proving' }) &&
        address.toLowerCase() !== was.walletTarget?.toLowerCase()
      ) {
        // Another account while the wallet is asked: that proof stops, and the new one is proved.
        expect(context.walletTarget).toBe(address);
      } else if (busy(snapshot)) {
        // The fact waits for the request under way; the last one wins.
        if (!previous.matches({ linkingWallet: 'proving' }))
          expect(context.walletIntent).toEqual({ address });
      }
      break;
    }
    case 'wallet.unlinked': {
      const held = !!was.profile?.wallet_address || !!was.user.metadata.wallet_address;
      if (previous.matches('ready') || previous.matches({ linkingWallet: 'proving' })) {
        // Cleared when the profile or the metadata holds a wallet; otherwise nothing to do.
        expect(snapshot.value).toBe(held ? 'unlinkingWallet' : 'ready');
      } else if (busy(snapshot)) {
        expect(context.walletIntent).toEqual({ address: null });
      }
      break;
    }
    case 'session.userUpdated': {
      const { user } = event as EventObject & { user: AuthUser };
      expect(context.user).toEqual(user);
      // When idle, the profile is read again for the updated user; a request under way is not redone.
      if (previous.matches('ready')) expect(snapshot.value).toBe('loading');
      else expect(snapshot.value).toEqual(previous.value);
      break;
    }
    case 'profileLoad.waiting':
      // Unavailable while the reader waits to try again.
      expect(context.loadFailed).toBe((event as EventObject & { waiting: boolean }).waiting);
      break;
    case 'profile.discardEdits':
      expect(context).toMatchObject({ draft: null, draftAvatarUrl: null });
      break;
    case 'profile.save':
      if (!previous.matches('ready')) break;
      // What was typed is kept, saved or refused.
      expect(context.draft).toEqual(
        (({ username, full_name, website }) => ({ username, full_name, website }))(
          event as EventObject & ProfileEdits,
        ),
      );
      expect(snapshot.value).toBe(shown.length > 0 ? 'ready' : 'saving');
      break;
    case 'profile.uploadAvatar':
      if (!previous.matches('ready')) break;
      expect(snapshot.value).toBe(shown.length > 0 ? 'ready' : 'uploadingAvatar');
      break;
    case 'profile.setEmailAlert':
      if (!previous.matches('ready')) break;
      // An account without an email is told why; any other saves the choice at once.
      expect(snapshot.value).toBe(was.user.email ? 'savingEmailAlert' : 'ready');
      expect(shown).toHaveLength(was.user.email ? 0 : 1);
      break;
    case 'xstate.done.actor.saveEmailAlert':
      // Only the preferences change, to what the database now holds.
      expect(context.profile).toEqual({ ...was.profile, notification_preferences: outputOf(event) });
      break;
    case 'xstate.error.actor.saveEmailAlert':
      // The profile, and so the boxes, keep what was saved before.
      expect(context.profile).toEqual(was.profile);
      break;
    case 'xstate.done.actor.profileLoad': {
      const output = outputOf(event) as { profile: Profile; created: boolean } | null;
      // A failed re-read keeps the profile on show.
      expect(context.profile).toEqual(output ? output.profile : was.profile);
      expect(context.justCreated).toBe(was.justCreated || !!output?.created);
      break;
    }
    case 'xstate.done.actor.walletProof': {
      const output = outputOf(event) as { profile: Profile } | null;
      // Refused or failed: the proof has said why; the profile stays as it was.
      if (output === null) {
        expect(context.profile).toEqual(was.profile);
        expect(shown).toEqual([]);
      } else {
        expect(context.profile).toEqual(output.profile);
        expect(context.justCreated).toBe(false);
        expect(shown).toHaveLength(1);
      }
      break;
    }
    case 'xstate.done.actor.clearWallet':
      expect(context.profile).toEqual(outputOf(event));
      break;
    case 'xstate.done.actor.saveProfile': {
      const saved = outputOf(event) as Profile;
      expect(context.profile).toEqual(saved);
      expect(context).toMatchObject({ draft: null, draftAvatarUrl: null });
      // The avatar the save replaced is removed next; one it kept is not.
      const previousAvatar = was.profile?.avatar_url ?? null;
      expect(context.replacedAvatarUrl).toBe(previousAvatar !== saved.avatar_url ? previousAvatar : null);
      break;
    }
    case 'xstate.error.actor.saveProfile':
      // The draft (and the uploaded avatar) stay for another try.
      expect(context).toMatchObject({ draft: was.draft, draftAvatarUrl: was.draftAvatarUrl });
      break;
    case 'xstate.done.actor.uploadAvatar':
      expect(context.draftAvatarUrl).toBe((outputOf(event) as string | null) ?? was.draftAvatarUrl);
      break;
    case 'xstate.done.actor.updateMetadata':
      // The user now carries what the update sent.
      expect(context.user.metadata).toEqual({ ...was.user.metadata, ...was.metadataPatch });
      expect(context.metadataPatch).toEqual({});
      break;
    case 'xstate.error.actor.updateMetadata':
      expect(context.user).toEqual(was.user);
      expect(context.metadataPatch).toEqual({});
      break;
    default:
  }
};

/** Trimmed, and none when empty: every profile field is optional. */
const field = (text: string | undefined) => (text ?? '').trim() || null;

/** The Notifications section's choice in these paths: incoming transfers by email turned on. */
const CHOICE = { kind: 'transfers', on: true } as const;
/** A profile whose preferences hold a key of something else, which a saved choice keeps. */
const withOtherPreference = row({ notification_preferences: { digest: 'weekly' } });
/**
 * The preferences as the database answers the choice: bots were turned off meanwhile (an alert
 * mail's link), which the page did not know and must show.
 */
const SAVED_PREFERENCES = { digest: 'weekly', email: { transfers: true, bots: false } };
const alertEvents = {
  'profile.setEmailAlert': [{ type: 'profile.setEmailAlert', ...CHOICE }],
  ...endings('profileLoad', { done: [{ profile: withOtherPreference, created: false }] }),
  ...endings('saveEmailAlert', { done: [SAVED_PREFERENCES], error: [offline] }),
};
const notAlerts = (event: EventObject) => !(event.type in alertEvents) && !event.type.includes('profileLoad');
const onlyAlerts = (event: EventObject) => event.type === 'profile.setEmailAlert';

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
    // Typed with spaces and a field left empty: saved trimmed, the empty one as none.
    { type: 'profile.save', username: ' ada ', full_name: 'Ada Lovelace ', website: '' },
    { type: 'profile.save', username: 'ada', full_name: 'Ada', website: 'ftp://ada.dev' },
  ],
  'profile.uploadAvatar': [
    { type: 'profile.uploadAvatar', file: png() },
    { type: 'profile.uploadAvatar', file: png({ type: 'image/webp' }) },
    { type: 'profile.uploadAvatar', file: png({ size: 3 * 1024 * 1024 }) },
  ],
  ...endings('profileLoad', {
    done: [
      { profile: row(), created: false },
      { profile: row(), created: true },
      { profile: row({ wallet_address: ALICE }), created: false },
      { profile: proven, created: false },
      // A re-read failed: the profile on show stays.
      null,
    ],
  }),
  // Refused or failed (null): the prover has shown why.
  ...endings('walletProof', { done: [{ profile: proven }, null] }),
  ...endings('clearWallet', { done: [row()], error: [offline] }),
  ...endings('saveProfile', {
    // The uploaded avatar saved: whatever the profile held before it is replaced.
    done: [row({ full_name: 'Ada Lovelace' }), row({ avatar_url: AVATAR_URL })],
    error: [offline],
  }),
  ...endings('updateMetadata', { done: [undefined], error: [offline] }),
  ...endings('uploadAvatar', { done: [AVATAR_URL, null], error: [offline] }),
  ...endings('removeAvatar', { done: [true], error: [offline] }),
};

function model(
  input: ProfileInput,
  order: 'as written' | 'reversed' = 'as written',
  only: 'everything but alerts' | 'alerts' = 'everything but alerts',
) {
  describeModel({
    name: 'profile',
    machine: profileMachine,
    input,
    promises: ['profileLoad', 'walletProof'],
    exclude: only === 'alerts' ? notAlerts : onlyAlerts,
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
    events: only === 'alerts' ? alertEvents : order === 'reversed' ? reversed(events) : events,
    states: {
      '*': (snapshot: Snapshot, { before, events: stepEvents, shown, actions }: Step) => {
        if (!before) {
          // A session starts with nothing read, typed or pending but the wallet connected at sign-in.
          expect(snapshot.context).toEqual({
            user: input.user,
            profile: null,
            draftAvatarUrl: null,
            draft: null,
            walletIntent: input.walletAddress ? { address: input.walletAddress } : null,
            walletTarget: null,
            justCreated: false,
            metadataPatch: {},
            loadFailed: false,
            replacedAvatarUrl: null,
          });
          return;
        }
        const previous = before;
        for (const event of stepEvents) afterEvent(event, previous, snapshot, shown);
        for (const { params, event } of shown) expect(params).toEqual(expectedToast(event, previous));
        // A failed metadata update or avatar removal is only logged, with its failure.
        for (const { params, event } of actions<Logged>('logFailure')) {
          expect(params).toEqual({
            what:
              event.type === 'xstate.error.actor.removeAvatar'
                ? 'replaced avatar removal'
                : 'auth metadata update',
            error: errorOf(event),
          });
        }
        expect(
          shown.some(
            ({ event }) => event.type.includes('updateMetadata') || event.type.includes('removeAvatar'),
          ),
        ).toBe(false);
        // A refused website keeps what was typed.
        for (const { event } of shown.filter(({ event }) => event.type === 'profile.save')) {
          const { username, full_name, website } = event as EventObject & ProfileEdits;
          expect(snapshot.context.draft).toEqual({ username, full_name, website });
        }
      },
      // Reading the row: a re-read when a profile is on show.
      loading: (s: Snapshot, { before, inputOf }: Step) => {
        if (before?.matches('loading')) {
          // Whether the reader waits to try again is what the profile shows as unavailable.
          return;
        }
        expect(inputOf('profileLoad')).toEqual({
          user: s.context.user,
          refetch: s.context.profile !== null,
        });
      },
      // Every wallet fact is taken or dropped on the way here.
      ready: (s: Snapshot) => expect(s.context.walletIntent).toBeNull(),
      saving: (s: Snapshot, { inputOf }: Step) => {
        const { draft, draftAvatarUrl, profile, user } = s.context;
        expect(draft).not.toBeNull();
        // The fields as typed (trimmed, empty as none), and the new avatar or the one held.
        expect(inputOf('saveProfile')).toEqual({
          id: user.id,
          username: field(draft?.username),
          full_name: field(draft?.full_name),
          website: field(draft?.website),
          avatar_url: draftAvatarUrl ?? profile?.avatar_url ?? null,
        });
      },
      // The wallet proved is the one connected.
      linkingWallet: (s: Snapshot, { before, inputOf }: Step) => {
        expect(s.context.walletTarget).not.toBeNull();
        expect(inputOf('walletProof')).toEqual({ address: s.context.walletTarget });
        // The fact that started it is taken: nothing waits behind it yet.
        if (!before?.matches('linkingWallet')) {
          expect([ALICE, BOB]).toContain(s.context.walletTarget);
          expect(s.context.walletIntent).toBeNull();
        }
      },
      unlinkingWallet: (s: Snapshot, { inputOf }: Step) => {
        expect(s.context).toMatchObject({ walletTarget: null, walletIntent: null });
        expect(inputOf('clearWallet')).toEqual({ userId: ada.id });
      },
      // The metadata follows what was saved: the names and avatar, or the wallet.
      updatingMetadata: (s: Snapshot, { before, inputOf }: Step) => {
        const { metadataPatch, profile } = s.context;
        expect(metadataPatch).not.toEqual({});
        expect(inputOf('updateMetadata')).toEqual(metadataPatch);
        if (before?.matches('saving')) {
          expect(metadataPatch).toEqual({
            username: profile?.username,
            avatar_url: profile?.avatar_url,
            full_name: profile?.full_name,
          });
          expect(s.context).toMatchObject({ draft: null, draftAvatarUrl: null });
        }
        if (before?.matches('linkingWallet'))
          expect(metadataPatch).toEqual({ wallet_address: before.context.walletTarget });
        if (before?.matches('unlinkingWallet')) expect(metadataPatch).toEqual({ wallet_address: null });
      },
      // Only ever after a save that changed the avatar, and never the avatar the save kept.
      removingReplacedAvatar: (s: Snapshot, { before, inputOf }: Step) => {
        const { replacedAvatarUrl, profile } = s.context;
        expect(replacedAvatarUrl).not.toBeNull();
        expect(replacedAvatarUrl).not.toBe(profile?.avatar_url);
        expect(inputOf('removeAvatar')).toEqual({ userId: ada.id, avatarUrl: replacedAvatarUrl });
        if (before?.matches('saving')) expect(replacedAvatarUrl).toBe(before.context.profile?.avatar_url);
      },
      // Only the one choice is sent; the database keeps every other key as it holds it.
      savingEmailAlert: (s: Snapshot, { inputOf }: Step) => {
        expect(inputOf('saveEmailAlert')).toEqual(CHOICE);
        expect(s.context.profile).toEqual(withOtherPreference);
      },
      uploadingAvatar: (_: Snapshot, { inputOf }: Step) => {
        const { userId, file } = inputOf('uploadAvatar') as { userId: string; file: AvatarFile };
        expect(userId).toBe(ada.id);
        expect(file).toMatchObject({ name: 'me.png', type: 'image/png', size: 1024 });
      },
      settling: (s: Snapshot, { before, actions }: Step) => {
        // After the metadata update, the user carries what it sent.
        if (before?.matches('updatingMetadata') && actions('logFailure').length === 0) {
          expect(s.context.user.metadata).toMatchObject(before.context.metadataPatch);
        }
        expect(s.context.metadataPatch).toEqual(
          before?.matches('updatingMetadata') ? {} : s.context.metadataPatch,
        );
      },
    },
  });
}

model({ user: ada, walletAddress: null });
// A wallet connected when the user signs in: linked once the profile is read.
model({ user: adaWithWallet, walletAddress: ALICE });
// Each transition's other payloads: a profile created rather than read, a failed re-read, the user's
// metadata wallet (in a describe of its own, so that its paths are named apart).
describe('every payload list reversed', () => model({ user: ada, walletAddress: null }, 'reversed'));
// The Notifications section's email choices (docs/product.md#email-alerts): saved at once for an
// account with an email, refused with the reason for a wallet-only one.
describe('email alerts', () => model({ user: ada, walletAddress: null }, 'as written', 'alerts'));
describe('email alerts without an email', () =>
  model({ user: { ...ada, email: null, web3Address: ALICE }, walletAddress: null }, 'as written', 'alerts'));
