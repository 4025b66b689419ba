import { describe, expect, it } from 'vitest';
import { authCopy, profileCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { IMAGES } from '../support/stack/avatar-images.ts';
import { runAxe } from '../support/e2e/axe.ts';
import { PHONE_VIEWPORT, type PortalOptions } from '../support/e2e/browser.ts';
import { admin, openProfileDialog, openSignedIn, toast } from '../support/e2e/ui.ts';

// docs/product.md#profile-dialog (an uploaded avatar is kept only on Save), #profile-fields,
// #avatar and #profile-toasts.

/** The portal, signed in as a new user (whose profile the portal creates as it starts). */
async function openAsNewUser(options: Omit<PortalOptions, 'session'> = {}) {
  const portal = await openSignedIn('profile', options);
  return { ...portal, email: portal.user.email };
}

async function storedProfile(email: string) {
  const { data, error } = await admin().from('profiles').select('*').eq('email', email).single();
  if (error) throw new Error(error.message);
  return data;
}

describe('edit profile dialog', () => {
  it('uploads an avatar shown at once, persists it only on Save, and keeps it after a reload', async () => {
    const { page, pageErrors, email } = await openAsNewUser();
    let dialog = await openProfileDialog(page);
    expect(await dialog.getByLabel(dialogCopy.profile.username, { exact: true }).inputValue()).toBe(
      email.split('@')[0],
    );
    expect(await dialog.getByRole('img', { name: dialogCopy.profile.noAvatar }).count()).toBe(1);
    expect(await runAxe(page, 'profile dialog, light', { include: '[role="dialog"]' })).toEqual([]);

    const picker = dialog.getByLabel(dialogCopy.profile.chooseAvatar, { exact: true });
    expect(await picker.getAttribute('accept')).toBe('image/png,image/jpeg,image/gif');
    await picker.setInputFiles({
      name: 'avatar.png',
      mimeType: 'image/png',
      buffer: Buffer.from(IMAGES.png),
    });
    await toast(page, profileCopy.avatarUploaded.title).waitFor();
    const preview = dialog.getByRole('img', { name: dialogCopy.profile.avatarAlt });
    await preview.waitFor();
    const src = (await preview.getAttribute('src')) ?? '';
    expect(src).toContain('/storage/v1/object/public/avatars/');
    await dialog.getByText(dialogCopy.profile.newAvatar, { exact: true }).waitFor();
    // The image really loads from the gateway.
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    expect((await storedProfile(email)).avatar_url).toBeNull();

    await dialog.getByLabel(dialogCopy.profile.fullName, { exact: true }).fill('Ada Lovelace');
    await dialog.getByLabel(dialogCopy.profile.website, { exact: true }).fill('https://example.com/ada');
    await dialog.getByRole('button', { name: dialogCopy.profile.save, exact: true }).click();
    await toast(page, profileCopy.updated).waitFor();
    await expect.poll(async () => (await storedProfile(email)).avatar_url).toBe(src);
    expect(await storedProfile(email)).toMatchObject({
      full_name: 'Ada Lovelace',
      website: 'https://example.com/ada',
    });
    expect(await dialog.getByText(dialogCopy.profile.newAvatar, { exact: true }).count()).toBe(0);

    await page.reload();
    await page.getByRole('button', { name: authCopy.logout, exact: true }).waitFor();
    dialog = await openProfileDialog(page);
    expect(await dialog.getByRole('img', { name: dialogCopy.profile.avatarAlt }).getAttribute('src')).toBe(
      src,
    );
    expect(await dialog.getByLabel(dialogCopy.profile.fullName, { exact: true }).inputValue()).toBe(
      'Ada Lovelace',
    );
    expect(await dialog.getByLabel(dialogCopy.profile.website, { exact: true }).inputValue()).toBe(
      'https://example.com/ada',
    );
    expect(pageErrors).toEqual([]);
  });

  it('removes the avatar a save replaced from storage, and keeps the one it saved', async () => {
    const { page, pageErrors, email } = await openAsNewUser();
    const dialog = await openProfileDialog(page);
    const picker = dialog.getByLabel(dialogCopy.profile.chooseAvatar, { exact: true });
    const save = dialog.getByRole('button', { name: dialogCopy.profile.save, exact: true });
    /** Uploads `file` and saves it; resolves with the object name the profile then holds. */
    const changeAvatar = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      // As a person would: the picker waits while the last save is still being finished.
      await expect.poll(() => picker.isEnabled()).toBe(true);
      await picker.setInputFiles(file);
      await toast(page, profileCopy.avatarUploaded.title).waitFor();
      await dialog.getByText(dialogCopy.profile.newAvatar, { exact: true }).waitFor();
      await save.click();
      await toast(page, profileCopy.updated).waitFor();
      await expect
        .poll(() => dialog.getByText(dialogCopy.profile.newAvatar, { exact: true }).count())
        .toBe(0);
      const saved = (await storedProfile(email)).avatar_url ?? '';
      return saved.slice(saved.lastIndexOf('/') + 1);
    };
    // What the bucket holds of this user's, as the service role lists it.
    const objectsOf = async (userId: string) => {
      const { data, error } = await admin().storage.from('avatars').list('', { search: userId });
      if (error) throw new Error(error.message);
      return data.map((object) => object.name);
    };

    const first = await changeAvatar({
      name: 'first.png',
      mimeType: 'image/png',
      buffer: Buffer.from(IMAGES.png),
    });
    const { id } = await storedProfile(email);
    expect(first.startsWith(`${id}-`)).toBe(true);
    expect(await objectsOf(id)).toEqual([first]);

    const second = await changeAvatar({
      name: 'second.gif',
      mimeType: 'image/gif',
      buffer: Buffer.from(IMAGES.gif),
    });
    expect(second).not.toBe(first);
    await expect.poll(() => objectsOf(id)).toEqual([second]);
    expect(await dialog.getByRole('img', { name: dialogCopy.profile.avatarAlt }).getAttribute('src')).toMatch(
      new RegExp(`/${second}$`),
    );
    expect(pageErrors).toEqual([]);
  });

  it('drops an uploaded avatar that was not saved when the dialog closes', async () => {
    const { page, email } = await openAsNewUser({ colorScheme: 'dark' });
    let dialog = await openProfileDialog(page);
    expect(await runAxe(page, 'profile dialog, dark', { include: '[role="dialog"]' })).toEqual([]);
    await dialog
      .getByLabel(dialogCopy.profile.chooseAvatar, { exact: true })
      .setInputFiles({ name: 'a.gif', mimeType: 'image/gif', buffer: Buffer.from(IMAGES.gif) });
    await dialog.getByRole('img', { name: dialogCopy.profile.avatarAlt }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    dialog = await openProfileDialog(page);
    expect(await dialog.getByRole('img', { name: dialogCopy.profile.noAvatar }).count()).toBe(1);
    expect((await storedProfile(email)).avatar_url).toBeNull();
  });

  it('refuses a javascript: website with the reason and keeps what was typed', async () => {
    const { page, email } = await openAsNewUser({ viewport: PHONE_VIEWPORT });
    const dialog = await openProfileDialog(page);
    const website = dialog.getByLabel(dialogCopy.profile.website, { exact: true });
    expect(await website.getAttribute('type')).toBe('url');
    await dialog.getByLabel(dialogCopy.profile.fullName, { exact: true }).fill('Typed Name');
    await website.fill('javascript:alert(1)');
    await dialog.getByRole('button', { name: dialogCopy.profile.save, exact: true }).click();

    await toast(page, profileCopy.updateFailed).waitFor();
    await toast(page, profileCopy.websiteNotHttp).waitFor();
    expect(await website.inputValue()).toBe('javascript:alert(1)');
    expect(await dialog.getByLabel(dialogCopy.profile.fullName, { exact: true }).inputValue()).toBe(
      'Typed Name',
    );
    expect(await storedProfile(email)).toMatchObject({ website: null, full_name: null });
    // At 360 px nothing in the dialog scrolls sideways.
    expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  });
});
