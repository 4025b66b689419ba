import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { authCopy, profileCopy } from '../copy/index.ts';
import type { AuthUser, UserMetadata } from '../domain/auth.ts';
import type { AvatarFile, Profile, ProfileUpsert } from '../domain/profile.ts';
import { defaultUsername } from './display-name.ts';
import { notProvided, report, showToast } from './shared.ts';

// Spec §3 profile, §4 wallet sync, §8 profile toasts.
//
// Which failure shows which title:
// - 'Profile Fetch Error': reading the profile failed (a missing row is not a failure: it is created).
// - 'Profile Sync Error': bringing the stored profile in step with the account failed — creating
//   the missing row, writing the auth metadata's wallet into it at session start, or clearing the
//   wallet when it is disconnected.
// - 'Database Sync Error': writing a wallet the user has just connected into the profile failed.
// - 'Update Failed': saving the edit form failed (or its website was refused).
// A failed auth metadata update is only logged (logFailure), never shown.
// A profile that could not be read or created is read again after 1, 2, 5, then every 10 s; only
// the first failure of such a run is shown, so a backend that is down does not repeat its toast.
//
// The session-start sync is silent when it succeeds: it runs right after sign-in, and a toast
// would replace 'Login Successful!'. The wallet toasts answer a wallet the user links or unlinks.
//
// Wallet facts (wallet.linked / wallet.unlinked) that arrive while a request runs are kept
// (the last one wins) and applied when it ends, in `settling`. A user update that arrives while
// a request runs only refreshes the user: it is most often the echo of this machine's own
// metadata update, and the row the request returns is newer than a fetch would be.

/** Spec §5: png, jpeg, gif; at most 2 MB, the avatars bucket's own limit (migration 20261121000004). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export type ProfileEdits = { username: string; full_name: string; website: string };

export type ProfileContext = {
  user: AuthUser | null;
  profile: Profile | null;
  /** Public URL of an uploaded avatar, persisted only by the next save. */
  draftAvatarUrl: string | null;
  /** What the user last submitted, kept until a save succeeds so nothing typed is lost. */
  draft: ProfileEdits | null;
  /** A wallet fact waiting for the current request: an address to link, null to unlink. */
  walletIntent: { address: string | null } | null;
  /** The wallet the link / unlink request in flight writes. */
  walletTarget: string | null;
  /** Created in this session: its first linked wallet is 'Profile Created & Wallet Linked'. */
  justCreated: boolean;
  /** What the next auth metadata update sends. */
  metadataPatch: UserMetadata;
  /** Storage path of the avatar just uploaded, until its public URL is known. */
  avatarPath: string | null;
  /** Failed reads (or creations) in a row since the profile was last read; sets the retry wait. */
  failures: number;
};

export type ProfileEvent =
  | { type: 'session.started'; user: AuthUser }
  | { type: 'session.userUpdated'; user: AuthUser }
  | { type: 'session.ended' }
  | { type: 'wallet.linked'; address: string }
  | { type: 'wallet.unlinked' }
  | ({ type: 'profile.save' } & ProfileEdits)
  | { type: 'profile.uploadAvatar'; file: AvatarFile }
  | { type: 'profile.discardEdits' };

/** The fact this machine reports to the root (README protocol). */
export type ProfileFact = { type: 'profile.loaded'; profile: Profile | null };

export type UploadAvatarInput = { userId: string; file: AvatarFile };

function failureMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message } = error;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return authCopy.unexpectedError;
}

/** Addresses compare without their checksum casing. */
function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  return (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
}

/** Trimmed, and null when empty: every profile field is optional. */
function optional(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Spec §5 says the website is of URL type; only web addresses are stored. */
export function isWebsiteAllowed(website: string): boolean {
  const value = website.trim();
  if (value === '') return true;
  // The database's own rule (profiles_website_is_http): http:// or https:// and no spaces. URL parsing
  // alone would let 'https:example.com' through, which the database then refuses in its own words.
  if (!/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

const IDLE: Omit<ProfileContext, 'user'> = {
  profile: null,
  draftAvatarUrl: null,
  draft: null,
  walletIntent: null,
  walletTarget: null,
  justCreated: false,
  metadataPatch: {},
  avatarPath: null,
  failures: 0,
};

/** Reports the profile as it is after the assigns before it in the same transition. */
const reportProfile = {
  type: 'report',
  params: ({ context }: { context: ProfileContext }): ProfileFact => ({
    type: 'profile.loaded',
    profile: context.profile,
  }),
} as const;

const PROFILE_RETRY_MS = [1000, 2000, 5000, 10_000] as const;

const destructive = (title: string, description: string) =>
  ({ title, description, variant: 'destructive' }) as const;

export const profileMachine = setup({
  types: {} as { context: ProfileContext; events: ProfileEvent },
  actors: {
    /** Null when the user has no row yet (the service maps PGRST116 to null). */
    fetchProfile: fromPromise<Profile | null, { userId: string }>(notProvided('fetchProfile')),
    /**
     * Upsert on conflict id; resolves with the saved row. Invoked from five states, each with its own
     * id: createProfile, syncWallet, linkWallet, unlinkWallet, saveProfile.
     */
    upsertProfile: fromPromise<Profile, ProfileUpsert>(notProvided('upsertProfile')),
    updateMetadata: fromPromise<unknown, UserMetadata>(notProvided('updateMetadata')),
    /** Stores the file as user id + timestamp + extension (cache 3600, upsert); resolves with its path. */
    uploadAvatar: fromPromise<string, UploadAvatarInput>(notProvided('uploadAvatar')),
    avatarPublicUrl: fromPromise<string | null, { path: string }>(notProvided('avatarPublicUrl')),
  },
  actions: {
    showToast,
    report: (args, params: ProfileFact) => report(args, params),
    /** src/main.tsx provides a logger; by default a failure that is only to be logged goes nowhere. */
    logFailure: (_, params: { what: string; error: unknown }) => void params,
    startSession: assign(({ context, event }) => {
      assertEvent(event, 'session.started');
      return context.profile?.id === event.user.id ? { user: event.user } : { ...IDLE, user: event.user };
    }),
    takeUser: assign({
      user: ({ context, event }) => (event.type === 'session.userUpdated' ? event.user : context.user),
    }),
    forgetAll: assign({ ...IDLE, user: null }),
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
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
  },
  guards: {
    metadataWalletDiffers: ({ context }) => {
      const wallet = context.user?.metadata.wallet_address;
      return !!wallet && !sameAddress(wallet, context.profile?.wallet_address);
    },
    linkPending: ({ context }) => {
      const address = context.walletIntent?.address;
      return !!address && !sameAddress(address, context.profile?.wallet_address);
    },
    unlinkPending: ({ context }) =>
      context.walletIntent !== null &&
      context.walletIntent.address === null &&
      (!!context.profile?.wallet_address || !!context.user?.metadata.wallet_address),
    hasProfile: ({ context }) => context.profile !== null,
    /** A retry of a read that already failed: its failure was shown once, so this one is quiet. */
    isRetry: ({ context }) => context.failures > 0,
    websiteRefused: ({ event }) => event.type === 'profile.save' && !isWebsiteAllowed(event.website),
    avatarTypeRefused: ({ event }) =>
      event.type === 'profile.uploadAvatar' &&
      !(profileCopy.avatarTypes as readonly string[]).includes(event.file.type),
    avatarTooLarge: ({ event }) =>
      event.type === 'profile.uploadAvatar' && event.file.size > AVATAR_MAX_BYTES,
  },
  delays: {
    // A backend that is down at sign-in: read again after 1, 2, 5, then every 10 s, as the
    // notifications feed reconnects, so the profile comes back on its own when the backend does.
    profileRetry: ({ context }) =>
      PROFILE_RETRY_MS[Math.min(context.failures, PROFILE_RETRY_MS.length) - 1] ?? 10_000,
  },
}).createMachine({
  id: 'profile',
  context: { ...IDLE, user: null },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: { 'session.started': { target: 'signedIn', actions: 'startSession' } },
    },
    signedIn: {
      initial: 'loading',
      on: {
        'session.ended': { target: 'signedOut', actions: ['forgetAll', reportProfile] },
        'session.started': { target: '.loading', actions: 'startSession' },
        // While a request runs: keep the facts for `settling`, keep the user current.
        'wallet.linked': { actions: 'noteWalletIntent' },
        'wallet.unlinked': { actions: 'noteWalletIntent' },
        'session.userUpdated': { actions: 'takeUser' },
        'profile.discardEdits': { actions: 'discardEdits' },
      },
      states: {
        loading: {
          invoke: {
            id: 'fetchProfile',
            src: 'fetchProfile',
            input: ({ context }) => ({ userId: context.user?.id ?? '' }),
            onDone: [
              { guard: ({ event }) => event.output === null, target: 'creating' },
              {
                target: 'reconciling',
                actions: [assign({ profile: ({ event }) => event.output, failures: 0 }), reportProfile],
              },
            ],
            onError: [
              // A failed re-fetch keeps the profile already shown.
              {
                guard: 'hasProfile',
                target: 'settling',
                actions: {
                  type: 'showToast',
                  params: ({ event }) => destructive(profileCopy.fetchError, failureMessage(event.error)),
                },
              },
              { guard: 'isRetry', target: 'failed', actions: 'countFailure' },
              {
                target: 'failed',
                actions: [
                  {
                    type: 'showToast',
                    params: ({ event }) => destructive(profileCopy.fetchError, failureMessage(event.error)),
                  },
                  'countFailure',
                ],
              },
            ],
          },
        },
        creating: {
          invoke: {
            id: 'createProfile',
            src: 'upsertProfile',
            input: ({ context }) => ({
              id: context.user?.id ?? '',
              email: context.user?.email ?? null,
              username: context.user ? defaultUsername(context.user) : null,
            }),
            onDone: {
              target: 'reconciling',
              actions: [
                assign({ profile: ({ event }) => event.output, justCreated: true, failures: 0 }),
                reportProfile,
              ],
            },
            onError: [
              { guard: 'isRetry', target: 'failed', actions: 'countFailure' },
              {
                target: 'failed',
                actions: [
                  {
                    type: 'showToast',
                    params: ({ event }) =>
                      destructive(profileCopy.profileSyncError, failureMessage(event.error)),
                  },
                  'countFailure',
                ],
              },
            ],
          },
        },
        // Spec §4: the metadata wallet wins when it differs; otherwise the profile's stays.
        reconciling: {
          always: [{ guard: 'metadataWalletDiffers', target: 'syncingWallet' }, { target: 'settling' }],
        },
        syncingWallet: {
          invoke: {
            id: 'syncWallet',
            src: 'upsertProfile',
            input: ({ context }) => ({
              id: context.user?.id ?? '',
              wallet_address: context.user?.metadata.wallet_address ?? null,
            }),
            onDone: {
              target: 'settling',
              actions: [assign({ profile: ({ event }) => event.output }), reportProfile],
            },
            onError: {
              target: 'settling',
              actions: {
                type: 'showToast',
                params: ({ event }) => destructive(profileCopy.profileSyncError, failureMessage(event.error)),
              },
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
          invoke: {
            id: 'linkWallet',
            src: 'upsertProfile',
            input: ({ context }) => ({ id: context.user?.id ?? '', wallet_address: context.walletTarget }),
            onDone: {
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
                  profile: ({ event }) => event.output,
                  justCreated: false,
                  metadataPatch: ({ context }) => ({ wallet_address: context.walletTarget }),
                }),
                reportProfile,
              ],
            },
            onError: {
              target: 'settling',
              actions: {
                type: 'showToast',
                params: ({ event }) =>
                  destructive(profileCopy.databaseSyncError, failureMessage(event.error)),
              },
            },
          },
        },
        unlinkingWallet: {
          invoke: {
            id: 'unlinkWallet',
            src: 'upsertProfile',
            input: ({ context }) => ({ id: context.user?.id ?? '', wallet_address: null }),
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
                reportProfile,
              ],
            },
            onError: {
              target: 'settling',
              actions: {
                type: 'showToast',
                params: ({ event }) => destructive(profileCopy.profileSyncError, failureMessage(event.error)),
              },
            },
          },
        },
        saving: {
          invoke: {
            id: 'saveProfile',
            src: 'upsertProfile',
            input: ({ context }) => ({
              id: context.user?.id ?? '',
              username: optional(context.draft?.username ?? ''),
              full_name: optional(context.draft?.full_name ?? ''),
              website: optional(context.draft?.website ?? ''),
              avatar_url: context.draftAvatarUrl ?? context.profile?.avatar_url ?? null,
            }),
            onDone: {
              target: 'updatingMetadata',
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
                }),
                reportProfile,
              ],
            },
            // The draft (and the uploaded avatar) stay for another try.
            onError: {
              target: 'settling',
              actions: {
                type: 'showToast',
                params: ({ event }) => destructive(profileCopy.updateFailed, failureMessage(event.error)),
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
              return { userId: context.user?.id ?? '', file: event.file };
            },
            onDone: {
              target: 'resolvingAvatarUrl',
              actions: assign({ avatarPath: ({ event }) => event.output }),
            },
            onError: {
              target: 'settling',
              actions: {
                type: 'showToast',
                params: ({ event }) =>
                  destructive(profileCopy.avatarUploadFailed, failureMessage(event.error)),
              },
            },
          },
        },
        resolvingAvatarUrl: {
          on: {
            'profile.discardEdits': {
              target: 'settling',
              actions: ['discardEdits', assign({ avatarPath: null })],
            },
          },
          invoke: {
            id: 'avatarPublicUrl',
            src: 'avatarPublicUrl',
            input: ({ context }) => ({ path: context.avatarPath ?? '' }),
            onDone: [
              {
                guard: ({ event }) => !event.output,
                target: 'settling',
                actions: [
                  assign({ avatarPath: null }),
                  {
                    type: 'showToast',
                    params: destructive(profileCopy.avatarUploadFailed, profileCopy.publicUrlFailed),
                  },
                ],
              },
              {
                target: 'settling',
                actions: [
                  assign({ draftAvatarUrl: ({ event }) => event.output, avatarPath: null }),
                  { type: 'showToast', params: profileCopy.avatarUploaded },
                ],
              },
            ],
            onError: {
              target: 'settling',
              actions: [
                assign({ avatarPath: null }),
                {
                  type: 'showToast',
                  params: ({ event }) =>
                    destructive(profileCopy.avatarUploadFailed, failureMessage(event.error)),
                },
              ],
            },
          },
        },
        // The profile could not be read or created: tried again after a wait, or at once on a user update.
        failed: {
          after: { profileRetry: 'loading' },
          on: { 'session.userUpdated': { target: 'loading', actions: 'takeUser' } },
        },
      },
    },
  },
});
