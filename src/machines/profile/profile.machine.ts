import { assign, sendTo } from 'xstate';
import { profileCopy } from '../../copy/index.ts';
import { isWebsiteAllowed } from '../../domain/profile.ts';
import { destructive } from './profile-toasts.ts';
import {
  removingReplacedAvatarState,
  savedState,
  savingState,
  uploadingAvatarState,
} from './profile.edits.ts';
import { savingEmailAlertState } from './profile.alerts.ts';
import { profileSetup } from './profile.setup.ts';
import { linkingWalletState, unlinkingWalletState } from './profile.wallet.ts';

// The signed-in user's profile (docs/product.md#profile), its wallet kept in
// step with the connected one (docs/product.md#wallet-sync), its edits and its
// avatar. The root invokes this machine for the length of a session, with the
// user and the wallet connected at sign-in (linked as soon as the profile is
// read). Reading (and creating) the row is its child, profileLoad; linking a
// wallet is its child walletProof, which has the wallet sign a message the
// link-wallet function checks: the profile never takes a wallet on trust.
//
// Which failure shows which title:
// - 'Profile Fetch Error' / 'Profile Sync Error' while reading or creating: see profile-load.
// - 'Wallet Not Linked' / 'Database Sync Error' while proving a wallet: see wallet-proof.
// - 'Profile Sync Error': clearing the wallet when it is disconnected.
// - 'Update Failed': saving the edit form failed (or its website was refused).
// - 'Notification Settings Not Saved': saving the email alerts failed.
// A failed auth metadata update is only logged (logFailure), never shown.
//
// A save that replaces the avatar then removes the one it replaced, so every change does not
// leave an object behind for good. The save has succeeded by then: a removal that fails is only
// logged, and the service leaves alone any URL that is not one of the user's own uploads.
//
// The auth metadata's wallet links nothing by itself: a wallet is linked only with a proof, a proof
// needs the wallet connected, and a connected wallet is already a fact this machine hears. The
// wallet toasts answer a wallet the user links or unlinks.
//
// Wallet facts (wallet.linked / wallet.unlinked) that arrive while a request runs are kept
// (the last one wins) and applied when it ends, in `settling`. A user update that arrives while
// a request runs only refreshes the user: it is most often the echo of this machine's own
// metadata update, and the row the request returns is newer than a fetch would be.
//
// Its shapes are profile-types.ts and its toasts profile-toasts.ts; its setup (actors, actions,
// guards) profile.setup.ts; the wallet states profile.wallet.ts, the edit states profile.edits.ts and
// the email alerts profile.alerts.ts.

export { isWebsiteAllowed };

export type {
  ClearWalletInput,
  ProfileContext,
  ProfileEdits,
  ProfileEvent,
  ProfileInput,
  RemoveAvatarInput,
  UploadAvatarInput,
} from './profile-types.ts';

export const profileMachine = profileSetup.createMachine({
  id: 'profile',
  context: ({ input }) => ({
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
  }),
  initial: 'loading',
  on: {
    // While a request runs: keep the facts for `settling`, keep the user current.
    'wallet.linked': { actions: 'noteWalletIntent' },
    'wallet.unlinked': { actions: 'noteWalletIntent' },
    'session.userUpdated': { actions: 'takeUser' },
    'profile.discardEdits': { actions: 'discardEdits' },
  },
  states: {
    loading: {
      on: {
        // The reader retries at once after a failure for the updated user.
        'session.userUpdated': { actions: ['takeUser', sendTo('profileLoad', ({ event }) => event)] },
        'profileLoad.waiting': { actions: assign({ loadFailed: ({ event }) => event.waiting }) },
      },
      invoke: {
        id: 'profileLoad',
        src: 'profileLoad',
        input: ({ context }) => ({ user: context.user, refetch: context.profile !== null }),
        onDone: {
          target: 'settling',
          // A failed re-read (no output) keeps the profile already shown.
          actions: assign(({ context, event }) =>
            event.output
              ? { profile: event.output.profile, justCreated: context.justCreated || event.output.created }
              : {},
          ),
        },
      },
    },
    settling: {
      always: [
        { guard: 'linkPending', target: 'linkingWallet', actions: 'takeWalletIntent' },
        { guard: 'unlinkPending', target: 'unlinkingWallet', actions: 'takeWalletIntent' },
        { target: 'ready', actions: 'dropWalletIntent' },
      ],
    },
    ready: {
      on: {
        'wallet.linked': { target: 'settling', actions: 'noteWalletIntent' },
        'wallet.unlinked': { target: 'settling', actions: 'noteWalletIntent' },
        'session.userUpdated': { target: 'loading', actions: 'takeUser' },
        'profile.save': [
          {
            guard: 'websiteRefused',
            actions: [
              'takeDraft',
              {
                type: 'showToast',
                params: destructive(profileCopy.updateFailed, profileCopy.websiteNotHttp),
              },
            ],
          },
          { target: 'saving', actions: 'takeDraft' },
        ],
        'profile.uploadAvatar': [
          {
            guard: 'avatarTypeRefused',
            actions: {
              type: 'showToast',
              params: destructive(profileCopy.avatarUploadFailed, profileCopy.avatarTypeRefused),
            },
          },
          {
            guard: 'avatarTooLarge',
            actions: {
              type: 'showToast',
              params: destructive(profileCopy.avatarUploadFailed, profileCopy.avatarTooLarge),
            },
          },
          { target: 'uploadingAvatar' },
        ],
        'profile.setEmailAlert': [
          {
            guard: 'noEmail',
            actions: {
              type: 'showToast',
              params: destructive(
                profileCopy.emailAlertsNoEmail.title,
                profileCopy.emailAlertsNoEmail.description,
              ),
            },
          },
          { target: 'savingEmailAlert' },
        ],
      },
    },
    linkingWallet: linkingWalletState,
    unlinkingWallet: unlinkingWalletState,
    saving: savingState,
    saved: savedState,
    removingReplacedAvatar: removingReplacedAvatarState,
    updatingMetadata: {
      invoke: {
        id: 'updateMetadata',
        src: 'updateMetadata',
        input: ({ context }) => context.metadataPatch,
        onDone: {
          target: 'settling',
          actions: assign({
            user: ({ context }) =>
              context.user && {
                ...context.user,
                metadata: { ...context.user.metadata, ...context.metadataPatch },
              },
            metadataPatch: {},
          }),
        },
        onError: {
          target: 'settling',
          actions: [
            {
              type: 'logFailure',
              params: ({ event }) => ({ what: 'auth metadata update', error: event.error }),
            },
            assign({ metadataPatch: {} }),
          ],
        },
      },
    },
    uploadingAvatar: uploadingAvatarState,
    savingEmailAlert: savingEmailAlertState,
  },
});
