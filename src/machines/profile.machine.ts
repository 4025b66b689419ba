import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import { authCopy, profileCopy } from '../copy/index.ts';
import type { UserMetadata } from '../domain/auth.ts';
import { avatarProblem, isWebsiteAllowed, type Profile, type ProfileUpsert } from '../domain/profile.ts';
import { profileLoadMachine } from './profile-load.machine.ts';
import {
  optional,
  sameAddress,
  type ClearWalletInput,
  type ProfileContext,
  type ProfileEvent,
  type ProfileInput,
  type RemoveAvatarInput,
  type UploadAvatarInput,
} from './profile-types.ts';
import { messageOf, notProvided, showToast } from './shared.ts';
import { walletProofMachine } from './wallet-proof.machine.ts';

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

const destructive = (title: string, description: string) =>
  ({ title, description, variant: 'destructive' }) as const;

/** Every failure's toast here: its title, and the service's words or the generic fallback. */
const failed = (title: string) =>
  ({
    type: 'showToast',
    params: ({ event }: { event: { error: unknown } }) =>
      destructive(title, messageOf(event.error, authCopy.unexpectedError)),
  }) as const;

export const profileMachine = setup({
  types: {} as { context: ProfileContext; events: ProfileEvent; input: ProfileInput },
  actors: {
    profileLoad: profileLoadMachine,
    walletProof: walletProofMachine,
    /** Upsert on conflict id of the client-owned fields; resolves with the saved row (invoke id saveProfile). */
    upsertProfile: fromPromise<Profile, ProfileUpsert>(notProvided('upsertProfile')),
    clearWallet: fromPromise<Profile, ClearWalletInput>(notProvided('clearWallet')),
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
  },
}).createMachine({
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
      },
    },
    linkingWallet: {
      // While the wallet is asked, another account or a disconnect makes the proof moot: it stops
      // (a late signature is dropped) and the new fact decides. Once the proof is on its way to
      // the server the link may already be made, so it ends and the fact waits for `settling`.
      initial: 'proving',
      states: {
        proving: {
          on: {
            'walletProof.verifying': { target: 'committing' },
            'wallet.linked': {
              guard: ({ context, event }) => !sameAddress(event.address, context.walletTarget),
              target: '#profile.settling',
              actions: 'noteWalletIntent',
            },
            'wallet.unlinked': { target: '#profile.settling', actions: 'noteWalletIntent' },
          },
        },
        committing: {},
      },
      invoke: {
        id: 'walletProof',
        src: 'walletProof',
        input: ({ context }) => ({ address: context.walletTarget ?? '' }),
        onDone: [
          // Refused or failed: the proof has said why.
          { guard: ({ event }) => event.output === null, target: 'settling' },
          {
            target: 'updatingMetadata',
            actions: [
              // Before the row is replaced: did the profile hold a wallet until now?
              {
                type: 'showToast',
                params: ({ context }) => {
                  const address = context.walletTarget ?? '';
                  return context.justCreated || !context.profile?.wallet_address
                    ? {
                        title: profileCopy.createdAndLinked,
                        description: profileCopy.createdAndLinkedDescription(address),
                      }
                    : {
                        title: profileCopy.walletUpdated,
                        description: profileCopy.walletUpdatedDescription(address),
                      };
                },
              },
              assign({
                profile: ({ context, event }) => event.output?.profile ?? context.profile,
                justCreated: false,
                metadataPatch: ({ context }) => ({ wallet_address: context.walletTarget }),
              }),
            ],
          },
        ],
      },
    },
    unlinkingWallet: {
      invoke: {
        id: 'clearWallet',
        src: 'clearWallet',
        input: ({ context }) => ({ userId: context.user.id }),
        onDone: {
          target: 'updatingMetadata',
          actions: [
            {
              type: 'showToast',
              params: {
                title: profileCopy.walletUpdated,
                description: profileCopy.walletUpdatedDescription(null),
              },
            },
            assign({ profile: ({ event }) => event.output, metadataPatch: { wallet_address: null } }),
          ],
        },
        onError: {
          target: 'settling',
          actions: failed(profileCopy.profileSyncError),
        },
      },
    },
    saving: {
      invoke: {
        id: 'saveProfile',
        src: 'upsertProfile',
        input: ({ context }) => ({
          id: context.user.id,
          username: optional(context.draft?.username ?? ''),
          full_name: optional(context.draft?.full_name ?? ''),
          website: optional(context.draft?.website ?? ''),
          avatar_url: context.draftAvatarUrl ?? context.profile?.avatar_url ?? null,
        }),
        onDone: {
          target: 'saved',
          actions: [
            {
              type: 'showToast',
              params: { title: profileCopy.updated, description: profileCopy.updatedDescription },
            },
            assign({
              profile: ({ event }) => event.output,
              draft: null,
              draftAvatarUrl: null,
              metadataPatch: ({ event }) => ({
                username: event.output.username,
                avatar_url: event.output.avatar_url,
                full_name: event.output.full_name,
              }),
              replacedAvatarUrl: ({ context, event }) => {
                const previous = context.profile?.avatar_url ?? null;
                return previous !== event.output.avatar_url ? previous : null;
              },
            }),
          ],
        },
        // The draft (and the uploaded avatar) stay for another try.
        onError: {
          target: 'settling',
          actions: failed(profileCopy.updateFailed),
        },
      },
    },
    saved: {
      always: [{ guard: 'avatarReplaced', target: 'removingReplacedAvatar' }, { target: 'updatingMetadata' }],
    },
    removingReplacedAvatar: {
      invoke: {
        id: 'removeAvatar',
        src: 'removeAvatar',
        input: ({ context }) => ({ userId: context.user.id, avatarUrl: context.replacedAvatarUrl ?? '' }),
        onDone: 'updatingMetadata',
        onError: {
          target: 'updatingMetadata',
          actions: {
            type: 'logFailure',
            params: ({ event }) => ({ what: 'replaced avatar removal', error: event.error }),
          },
        },
      },
    },
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
    uploadingAvatar: {
      // Closing the dialog mid-upload drops the avatar with the rest of the edits.
      on: { 'profile.discardEdits': { target: 'settling', actions: 'discardEdits' } },
      invoke: {
        id: 'uploadAvatar',
        src: 'uploadAvatar',
        input: ({ context, event }) => {
          assertEvent(event, 'profile.uploadAvatar');
          return { userId: context.user.id, file: event.file };
        },
        onDone: [
          {
            guard: ({ event }) => !event.output,
            target: 'settling',
            actions: {
              type: 'showToast',
              params: destructive(profileCopy.avatarUploadFailed, profileCopy.publicUrlFailed),
            },
          },
          {
            target: 'settling',
            actions: [
              assign({ draftAvatarUrl: ({ event }) => event.output }),
              { type: 'showToast', params: profileCopy.avatarUploaded },
            ],
          },
        ],
        onError: { target: 'settling', actions: failed(profileCopy.avatarUploadFailed) },
      },
    },
  },
});
