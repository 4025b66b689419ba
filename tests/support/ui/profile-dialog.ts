import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { appCopy } from '../../../src/copy/index.ts';
import { dialogCopy } from '../../../src/copy/dialogs.ts';
import type { Profile } from '../../../src/domain/profile.ts';
import type { ProfileContext } from '../../../src/machines/profile/profile.machine.ts';
import { avatarPublicUrl } from '../../../src/services/supabase/avatar-url.ts';
import { IMAGES } from '../stack/avatar-images.ts';
import type { TestUser } from '../stack/users.ts';
import { gatewayFor } from '../e2e/context.ts';
import { admin, openUserMenu } from '../e2e/ui.ts';

// Edit Profile as the profile and profile-load maps see it: opened from the user menu whatever
// the profile's state (the e2e helper waits for a loaded form), and the row the backend holds
// for a path's user before they sign in.

export const profileDialog = (page: Page) => page.getByRole('dialog', { name: dialogCopy.profile.title });

/** The Save button; aria-disabled while the profile is busy or not loaded. */
export const saveButton = (page: Page, name: string = dialogCopy.profile.save) =>
  profileDialog(page).getByRole('button', { name, exact: true });

export const profileField = (page: Page, label: string) =>
  profileDialog(page).getByLabel(label, { exact: true });

/** Opens Edit Profile from the user menu, loaded or not. */
export async function openProfileDialogNow(page: Page): Promise<void> {
  await openUserMenu(page);
  await page.getByRole('button', { name: appCopy.menu.profile, exact: true }).click();
  await profileDialog(page).waitFor();
}

/** The form holds the loaded profile and takes a save, and a new avatar. */
export async function seesProfileReady(page: Page): Promise<void> {
  await profileField(page, dialogCopy.profile.username).waitFor();
  await expect.poll(() => saveButton(page).getAttribute('aria-disabled')).toBe(null);
  await expect.poll(() => profileField(page, dialogCopy.profile.chooseAvatar).isEnabled()).toBe(true);
}

/**
 * The profile is on show but busy: Save waits (it is neither 'Save' taken nor 'Saving...'), and so
 * does the avatar picker, which would otherwise take a file the profile drops.
 */
export async function seesProfileBusy(page: Page): Promise<void> {
  await profileField(page, dialogCopy.profile.username).waitFor();
  await expect.poll(() => saveButton(page).getAttribute('aria-disabled')).toBe('true');
  await expect.poll(() => profileField(page, dialogCopy.profile.chooseAvatar).isDisabled()).toBe(true);
}

/** The username the portal gives a new profile: the part of the email before the at-sign. */
export const usernameOf = (user: Pick<TestUser, 'email'>) => user.email.split('@')[0] ?? '';

/** Stores the user's profile row as the portal would have created it, with `fields` on top. */
export async function storeProfile(user: TestUser, fields: Partial<Profile> = {}): Promise<void> {
  const { error } = await admin()
    .from('profiles')
    .insert({ id: user.id, email: user.email, username: usernameOf(user), ...fields });
  if (error) throw new Error(`could not store the profile: ${error.message}`);
}

/** Stores an avatar as the user's own upload (named as the portal names them); its public URL. */
export async function storeAvatar(user: TestUser): Promise<string> {
  const name = `${user.id}-1.png`;
  const { error } = await admin()
    .storage.from('avatars')
    .upload(name, IMAGES.png, { contentType: 'image/png', upsert: true });
  if (error) throw new Error(`could not store the avatar: ${error.message}`);
  return avatarPublicUrl(gatewayFor('full').url, name) ?? '';
}

/** The form shows the last submitted fields, else the saved ones. */
export async function seesFields(page: Page, context: ProfileContext): Promise<void> {
  const { draft, profile } = context;
  for (const [label, name] of [
    [dialogCopy.profile.fullName, 'full_name'],
    [dialogCopy.profile.website, 'website'],
  ] as const) {
    const value = draft?.[name] ?? profile?.[name] ?? '';
    await expect.poll(() => profileField(page, label).inputValue()).toBe(value);
  }
}

/** An avatar (the uploaded one until it is saved, else the saved one) or the placeholder. */
export async function seesAvatar(page: Page, context: ProfileContext): Promise<void> {
  const dialog = profileDialog(page);
  const shown = context.draftAvatarUrl ?? context.profile?.avatar_url ?? null;
  await dialog
    .getByRole('img', { name: shown ? dialogCopy.profile.avatarAlt : dialogCopy.profile.noAvatar })
    .waitFor();
  await expect
    .poll(() => dialog.getByText(dialogCopy.profile.newAvatar, { exact: true }).count())
    .toBe(context.draftAvatarUrl ? 1 : 0);
}

/** The profile's wallet with whether it was proven, or no wallet line. */
export async function seesWallet(page: Page, context: ProfileContext): Promise<void> {
  const dialog = profileDialog(page);
  const address = context.profile?.wallet_address ?? null;
  if (!address) {
    await expect.poll(() => dialog.getByText(dialogCopy.profile.wallet, { exact: true }).count()).toBe(0);
    return;
  }
  await dialog.getByText(address, { exact: true }).waitFor({ state: 'attached' });
  const tag = context.profile?.wallet_verified_at
    ? dialogCopy.profile.walletVerified
    : dialogCopy.profile.walletNotVerified;
  await dialog.getByText(tag, { exact: true }).waitFor();
}
