import type { AuthUser, UserMetadata } from '../../domain/auth.ts';
import type { EmailAlertKind } from '../../domain/email-alerts.ts';
import type { AvatarFile, Profile } from '../../domain/profile.ts';
import type { ProfileLoadFact } from './profile-load.machine.ts';
import type { WalletProofFact } from './wallet-proof.machine.ts';

// The profile machine's input, context, events and actor inputs, and the two small helpers its
// guards and states share (profile.machine.ts).

export type ProfileInput = { user: AuthUser; walletAddress: string | null };

export type ProfileEdits = { username: string; full_name: string; website: string };

export type ProfileContext = {
  user: AuthUser;
  profile: Profile | null;
  /** Public URL of an uploaded avatar, persisted only by the next save. */
  draftAvatarUrl: string | null;
  /** What the user last submitted, kept until a save succeeds so nothing typed is lost. */
  draft: ProfileEdits | null;
  /** A wallet fact waiting for the current request: an address to link, null to unlink. */
  walletIntent: { address: string | null } | null;
  /** The wallet being proved and linked, or null while one is cleared. */
  walletTarget: string | null;
  /** Created in this session: its first linked wallet is 'Profile Created & Wallet Linked'. */
  justCreated: boolean;
  /** What the next auth metadata update sends. */
  metadataPatch: UserMetadata;
  /** The profile could not be read or created, and the reader waits to try again. */
  loadFailed: boolean;
  /** The avatar URL the last save replaced, to remove once it is saved; null when the save kept it. */
  replacedAvatarUrl: string | null;
};

export type ProfileEvent =
  | { type: 'session.userUpdated'; user: AuthUser }
  | { type: 'wallet.linked'; address: string }
  | { type: 'wallet.unlinked' }
  | ({ type: 'profile.save' } & ProfileEdits)
  | { type: 'profile.uploadAvatar'; file: AvatarFile }
  | { type: 'profile.discardEdits' }
  /** The Notifications section's email choices, saved at once. */
  | { type: 'profile.setEmailAlert'; kind: EmailAlertKind; on: boolean }
  | ProfileLoadFact
  | WalletProofFact;

/** The avatar to upload; the actor resolves with its public URL, or null when storage gives none. */
export type UploadAvatarInput = { userId: string; file: AvatarFile };

/** Whose wallet to clear; the actor resolves with the saved row. */
export type ClearWalletInput = { userId: string };

/** The avatar a save replaced: removed only when it is one of the user's own uploads. */
export type RemoveAvatarInput = { userId: string; avatarUrl: string };
export type SetEmailAlertInput = { kind: EmailAlertKind; on: boolean };

/** Addresses compare without their checksum casing. */
export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  return (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
}

/** Trimmed, and null when empty: every profile field is optional. */
export function optional(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}
