import { assertEvent, assign } from 'xstate';
import { profileCopy } from '../../copy/index.ts';
import { optional } from './profile-types.ts';
import { destructive, failed } from './profile-toasts.ts';
import { profileSetup } from './profile.setup.ts';

// The profile machine's edit states (docs/product.md#profile): saving the edit form, removing the
// avatar a save replaced, and uploading a new avatar. A save goes on to `updatingMetadata`
// (profile.machine.ts), which copies the saved fields into the auth metadata.

export const savingState = profileSetup.createStateConfig({
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
});

export const savedState = profileSetup.createStateConfig({
  always: [{ guard: 'avatarReplaced', target: 'removingReplacedAvatar' }, { target: 'updatingMetadata' }],
});

export const removingReplacedAvatarState = profileSetup.createStateConfig({
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
});

export const uploadingAvatarState = profileSetup.createStateConfig({
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
});
