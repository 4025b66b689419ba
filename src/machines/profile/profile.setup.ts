import { assign, fromPromise, setup } from 'xstate';
import type { UserMetadata } from '../../domain/auth.ts';
import type { Json } from '../../domain/database.types.ts';
import { avatarProblem, isWebsiteAllowed, type Profile, type ProfileUpsert } from '../../domain/profile.ts';
import { profileLoadMachine } from './profile-load.machine.ts';
import {
  sameAddress,
  type ClearWalletInput,
  type ProfileContext,
  type ProfileEvent,
  type ProfileInput,
  type RemoveAvatarInput,
  type SetEmailAlertInput,
  type UploadAvatarInput,
} from './profile-types.ts';
import { notProvided, showToast } from '../shared.ts';
import { walletProofMachine } from './wallet-proof.machine.ts';

// The profile machine's setup: its actors, actions and guards, which the chart (profile.machine.ts)
// and its states (profile.wallet.ts, profile.edits.ts) name.

export const profileSetup = setup({
  types: {} as { context: ProfileContext; events: ProfileEvent; input: ProfileInput },
  actors: {
    profileLoad: profileLoadMachine,
    walletProof: walletProofMachine,
    /** Upsert on conflict id of the client-owned fields; resolves with the saved row (invoke id saveProfile). */
    upsertProfile: fromPromise<Profile, ProfileUpsert>(notProvided('upsertProfile')),
    clearWallet: fromPromise<Profile, ClearWalletInput>(notProvided('clearWallet')),
    /** One email alert kind on or off; resolves with the preferences as the database now holds them. */
    setEmailAlert: fromPromise<Json, SetEmailAlertInput>(notProvided('setEmailAlert')),
    updateMetadata: fromPromise<unknown, UserMetadata>(notProvided('updateMetadata')),
    /** Stores the file (user id + timestamp + extension) and resolves with its public URL. */
    uploadAvatar: fromPromise<string | null, UploadAvatarInput>(notProvided('uploadAvatar')),
    removeAvatar: fromPromise<unknown, RemoveAvatarInput>(notProvided('removeAvatar')),
  },
  actions: {
    showToast,
    /** src/app/provide-portal.ts provides a logger; by default a failure that is only to be logged goes nowhere. */
    logFailure: (_, params: { what: string; error: unknown }) => void params,
    takeUser: assign({
      user: ({ context, event }) => (event.type === 'session.userUpdated' ? event.user : context.user),
    }),
    noteWalletIntent: assign({
      walletIntent: ({ context, event }) =>
        event.type === 'wallet.linked'
          ? { address: event.address }
          : event.type === 'wallet.unlinked'
            ? { address: null }
            : context.walletIntent,
    }),
    takeWalletIntent: assign(({ context }) => ({
      walletTarget: context.walletIntent?.address ?? null,
      walletIntent: null,
    })),
    dropWalletIntent: assign({ walletIntent: null }),
    takeDraft: assign({
      draft: ({ context, event }) =>
        event.type === 'profile.save'
          ? { username: event.username, full_name: event.full_name, website: event.website }
          : context.draft,
    }),
    discardEdits: assign({ draft: null, draftAvatarUrl: null }),
  },
  guards: {
    /** A wallet to link that the profile does not hold, or holds without a proof. */
    linkPending: ({ context }) => {
      const address = context.walletIntent?.address;
      const { profile } = context;
      return !!address && (!sameAddress(address, profile?.wallet_address) || !profile?.wallet_verified_at);
    },
    unlinkPending: ({ context }) =>
      context.walletIntent !== null &&
      context.walletIntent.address === null &&
      (!!context.profile?.wallet_address || !!context.user.metadata.wallet_address),
    websiteRefused: ({ event }) => event.type === 'profile.save' && !isWebsiteAllowed(event.website),
    avatarTypeRefused: ({ event }) =>
      event.type === 'profile.uploadAvatar' && avatarProblem(event.file) === 'invalid-type',
    avatarTooLarge: ({ event }) =>
      event.type === 'profile.uploadAvatar' && avatarProblem(event.file) === 'too-large',
    avatarReplaced: ({ context }) => context.replacedAvatarUrl !== null,
    /** A wallet-only account: there is no address to mail alerts to. */
    noEmail: ({ context }) => !context.user.email,
  },
});
