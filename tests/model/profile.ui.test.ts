import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { profileCopy, shortAddress, walletProofCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import type { AvatarFile, Profile } from '../../src/domain/profile.ts';
import { profileMachine, type ProfileContext } from '../../src/machines/profile/profile.machine.ts';
import { avatarPublicUrl } from '../../src/services/supabase/avatar-url.ts';
import { IMAGES } from '../support/stack/avatar-images.ts';
import { authUser, profileRow } from '../support/fixtures.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { admin } from '../support/e2e/ui.ts';
import { holdNextRequest, type HeldRequest } from '../support/ui/hold.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { updateUserElsewhere } from '../support/ui/other-client.ts';
import { pauseClock } from '../support/ui/page-clock.ts';
import {
  openProfileDialogNow,
  profileDialog,
  profileField,
  saveButton,
  seesAvatar,
  seesFields,
  seesProfileBusy,
  seesProfileReady,
  seesWallet,
  storeAvatar,
  storeProfile,
} from '../support/ui/profile-dialog.ts';
import { holdEvery, restTable, type HeldRequests } from '../support/ui/request-queue.ts';
import { answerPrompt, signaturesPending } from '../support/ui/wallet-prompt.ts';
import { openWorld, pathUser, seesToast, walletOf, type PortalWorld } from '../support/ui/world.ts';

// Edit Profile through the portal, opened signed in with the wallet connected (the profile links
// it with a proof). Every request of the profile to the stack is held on its way until a step
// lets it go or fails it as a stopped gateway would: the read, the saves and the wallet's
// clearing (one table), the avatar's upload and removal, the auth metadata update, and the proof's
// check by link-wallet; the wallet's signature prompt stays open until a step answers it. The
// user is updated by another client of the account in the same browser. The page's clock is
// paused once the dialog is open, so the reader's back-off waits for the steps.

const gateway = () => gatewayFor('full').url;
/** The wallet of the profile's user; no other file links it. */
const PROFILE = e2eAccount('uiProfile').address;
/** The account the wallet switches to, proven for this file's user only. */
const OTHER = e2eAccount('uiProfileAlt').address;

const ada = authUser('ui-profile');
const row = (fields: Partial<Profile> = {}) => profileRow(ada, { wallet_verified_at: null, ...fields });
const PROVEN = { wallet_address: PROFILE, wallet_verified_at: '2026-01-01T00:00:00Z' };
/**
 * The model's avatar URLs: the one the profile holds at sign-in (an upload of the user's own) and
 * the one uploaded. The stack's differ (its port, the upload's time); the views check that an
 * avatar is shown, not which.
 */
const AVATAR_HELD = avatarPublicUrl('http://127.0.0.1', `${ada.id}-1.png`);
const AVATAR_NEW = avatarPublicUrl('http://127.0.0.1', `${ada.id}-2.png`);
const SAVED = { full_name: 'Ada Lovelace', website: 'https://ada.dev' };
const ELSEWHERE = { nickname: 'updated elsewhere' };

const file = (name: string, type: string, bytes: Uint8Array): AvatarFile => ({
  name,
  type,
  size: bytes.length,
  data: new Blob([new Uint8Array(bytes)]),
});
const PNG = file('me.png', 'image/png', IMAGES.png);
const WEBP = file('me.webp', 'image/webp', IMAGES.png);
const TOO_LARGE = file('big.png', 'image/png', new Uint8Array(3 * 1024 * 1024));
/** What the portal says of a file it refuses, by name. */
const REFUSED: Record<string, string> = {
  [WEBP.name]: profileCopy.avatarTypeRefused,
  [TOO_LARGE.name]: profileCopy.avatarTooLarge,
};

type World = PortalWorld & {
  /** The wallet's account as the page knows it; null once the wallet left the site. */
  walletAt: string | null;
  reads: HeldRequests;
  /** The table's upserts: the profile created at sign-in, a save, the wallet cleared. */
  writes: HeldRequests;
  uploads: HeldRequests;
  removals: HeldRequests;
  metadata: HeldRequests;
  /** link-wallet's check of the signed proof, held from the signature on. */
  check: HeldRequest | null;
};

const contextOf = (state: { context: unknown }) => state.context as ProfileContext;
const same = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
const linkWallet = () => `${gateway()}/functions/v1/link-wallet`;

/** The account the page's wallet is on, as the model knows it (see `can`). */
function walletAccount(context: ProfileContext): string | null {
  if (context.walletIntent) return context.walletIntent.address;
  if (context.walletTarget) return context.walletTarget;
  // No fact since sign-in was taken: the wallet connected then, which the profile held proven.
  return context.profile?.wallet_verified_at ? context.profile.wallet_address : null;
}

/** The wallet moves (another account, or it leaves the site); a prompt left open closes with it. */
async function moveWallet(world: World, accounts: string[], from: { matches(key: string): boolean }) {
  if (accounts.length === 0 ? world.walletAt === null : same(world.walletAt, accounts[0]))
    throw new Error(`the wallet is at ${world.walletAt ?? 'no account'} already`);
  const prompting = from.matches('linkingWallet.proving');
  // A new proof asks for its nonce first: held, so the old prompt has closed before it signs.
  const nonce =
    prompting && accounts.length > 0 ? await holdNextRequest(world.page, linkWallet(), 'POST') : null;
  await walletOf(world).emitAccountsChanged(accounts);
  world.walletAt = accounts[0] ?? null;
  if (!prompting) return;
  await answerPrompt(world, 4001);
  await expect.poll(() => signaturesPending(world)).toBe(0);
  if (!nonce) return;
  await walletOf(world).holdNextOf('personal_sign');
  await nonce.release();
}

const loads = [
  // A new user: the row is created at sign-in.
  { profile: row(), created: true },
  { profile: row({ avatar_url: AVATAR_HELD }), created: false },
  { profile: row(PROVEN), created: false },
  // A re-read failed: the profile on show stays.
  null,
];
const saves = [null, AVATAR_HELD, AVATAR_NEW].flatMap((avatar) =>
  [{}, PROVEN].map((wallet) => row({ ...SAVED, avatar_url: avatar, ...wallet })),
);
type Load = (typeof loads)[number];
const loadOf = (event: AnyEventObject) => (event as unknown as { output: Load }).output;
const offline = new Error('Failed to fetch');

describeUiModel({
  name: 'profile',
  machine: profileMachine,
  // The portal starts it at sign-in with the user and the wallet connected then.
  input: { user: ada, walletAddress: PROFILE },
  events: {
    'session.userUpdated': [
      { type: 'session.userUpdated', user: ada },
      { type: 'session.userUpdated', user: { ...ada, metadata: { wallet_address: PROFILE } } },
    ],
    'wallet.linked': [
      { type: 'wallet.linked', address: PROFILE },
      { type: 'wallet.linked', address: OTHER },
    ],
    'profileLoad.waiting': [{ type: 'profileLoad.waiting', waiting: true }],
    'profile.save': [
      { type: 'profile.save', username: 'ada', ...SAVED },
      { type: 'profile.save', username: 'ada', ...SAVED, website: 'ftp://ada.dev' },
    ],
    'profile.uploadAvatar': [PNG, WEBP, TOO_LARGE].map((avatar) => ({
      type: 'profile.uploadAvatar',
      file: avatar,
    })),
    'xstate.done.actor.profileLoad': loads.map((output) => ({
      type: 'xstate.done.actor.profileLoad',
      output,
    })),
    'xstate.done.actor.walletProof': [
      { type: 'xstate.done.actor.walletProof', output: { profile: row(PROVEN) } },
      // Refused or failed: the proof has said why.
      { type: 'xstate.done.actor.walletProof', output: null },
    ],
    'xstate.done.actor.clearWallet': [{ type: 'xstate.done.actor.clearWallet', output: row() }],
    'xstate.error.actor.clearWallet': [{ type: 'xstate.error.actor.clearWallet', error: offline }],
    'xstate.done.actor.saveProfile': saves.map((output) => ({
      type: 'xstate.done.actor.saveProfile',
      output,
    })),
    'xstate.error.actor.saveProfile': [{ type: 'xstate.error.actor.saveProfile', error: offline }],
    'xstate.done.actor.updateMetadata': [{ type: 'xstate.done.actor.updateMetadata', output: undefined }],
    'xstate.error.actor.updateMetadata': [{ type: 'xstate.error.actor.updateMetadata', error: offline }],
    'xstate.done.actor.uploadAvatar': [{ type: 'xstate.done.actor.uploadAvatar', output: AVATAR_NEW }],
    'xstate.error.actor.uploadAvatar': [{ type: 'xstate.error.actor.uploadAvatar', error: offline }],
    'xstate.done.actor.removeAvatar': [{ type: 'xstate.done.actor.removeAvatar', output: true }],
    'xstate.error.actor.removeAvatar': [{ type: 'xstate.error.actor.removeAvatar', error: offline }],
  },
  // The state and the facts the guards and the views read; the typed fields are not branches.
  serializeState: (state) => {
    const context = contextOf(state);
    const { profile } = context;
    return JSON.stringify({
      value: state.value,
      profile: profile && {
        wallet: profile.wallet_address,
        proven: !!profile.wallet_verified_at,
        avatar: profile.avatar_url,
      },
      metadataWallet: context.user.metadata.wallet_address,
      intent: context.walletIntent,
      target: context.walletTarget,
      draftAvatar: context.draftAvatarUrl,
      replaced: context.replacedAvatarUrl,
      loadFailed: context.loadFailed,
    });
  },

  async open(path) {
    // An earlier path may have linked the wallet; each path's user starts with it free.
    const { error } = await admin()
      .from('profiles')
      .update({ wallet_address: null })
      .ilike('wallet_address', PROFILE);
    if (error) throw new Error(`could not free the wallet: ${error.message}`);
    const account = await pathUser();
    // What the first read finds: nothing (created then), or the row as the path says it is.
    const first = path.events.find((event) => event.type === 'xstate.done.actor.profileLoad');
    const found = first ? loadOf(first) : null;
    if (found && !found.created) {
      await storeProfile(account, {
        ...(found.profile.wallet_address ? PROVEN : {}),
        ...(found.profile.avatar_url ? { avatar_url: await storeAvatar(account) } : {}),
      });
    }
    const profiles = restTable(gateway(), 'profiles');
    const avatars = (url: URL) => url.href.startsWith(`${gateway()}/storage/v1/object/avatars`);
    let held = null as Pick<World, 'reads' | 'writes' | 'uploads' | 'removals' | 'metadata'> | null;
    // Opened signed in, with the wallet the site was approved for: the profile is read as soon as
    // the portal starts, so its requests are held from the first one on.
    const world = await openWorld({
      clock: true,
      wallet: { account: PROFILE as `0x${string}`, otherAccounts: [OTHER as `0x${string}`], connected: true },
      signedInAs: account,
      beforeLoad: async (page) => {
        const [reads, writes, uploads, removals, metadata] = await Promise.all([
          holdEvery(page, profiles, 'GET'),
          holdEvery(page, profiles, 'POST'),
          holdEvery(page, avatars, 'POST'),
          holdEvery(page, avatars, 'DELETE'),
          holdEvery(page, (url) => url.href === `${gateway()}/auth/v1/user`, 'PUT'),
        ]);
        held = { reads, writes, uploads, removals, metadata };
      },
    });
    const { page } = world;
    if (!held) throw new Error('the portal loaded without its held requests');
    // The session and the wallet arrive in either order; the first read is held either way, so the
    // profile has the wallet to link by the time a step lets the read go.
    await page.getByText(shortAddress(PROFILE), { exact: true }).first().waitFor();
    await openProfileDialogNow(page);
    await pauseClock(page);
    return Object.assign(world, held, {
      walletAt: PROFILE as string | null,
      check: null as HeldRequest | null,
    });
  },

  views: {
    '*': async (world) => profileDialog(world.page).waitFor(),
    loading: async (world, state) => {
      const { profile, loadFailed } = contextOf(state);
      const dialog = profileDialog(world.page);
      // The reader waits to try again: nothing is asked of the stack meanwhile.
      if (loadFailed) {
        await dialog.getByRole('alert').getByText(dialogCopy.profile.unavailable).waitFor();
        expect(world.reads.count()).toBe(0);
        return;
      }
      await expect.poll(() => world.reads.count()).toBeGreaterThan(0);
      if (profile) await seesProfileBusy(world.page);
      else await dialog.getByText(dialogCopy.profile.loading, { exact: true }).waitFor();
    },
    ready: async (world, state) => {
      await seesProfileReady(world.page);
      await seesFields(world.page, contextOf(state));
      await seesAvatar(world.page, contextOf(state));
      await seesWallet(world.page, contextOf(state));
    },
    linkingWallet: async (world) => {
      await profileDialog(world.page)
        .getByRole('status')
        .getByText(dialogCopy.profile.walletProving)
        .waitFor();
      await seesProfileBusy(world.page);
    },
    'linkingWallet.proving': async (world) => {
      await expect.poll(() => signaturesPending(world), { message: 'an open signature prompt' }).toBe(1);
    },
    'linkingWallet.committing': async (world) => {
      if (!world.check) throw new Error("link-wallet's check is not held");
      await world.check.arrived;
      expect(await signaturesPending(world)).toBe(0);
    },
    unlinkingWallet: async (world, state) => {
      await seesProfileBusy(world.page);
      await seesWallet(world.page, contextOf(state));
      await expect.poll(() => world.writes.count()).toBeGreaterThan(0);
    },
    saving: async (world) => {
      await saveButton(world.page, dialogCopy.profile.saving).waitFor();
      await expect
        .poll(() => profileDialog(world.page).locator('form').getAttribute('aria-busy'))
        .toBe('true');
      await expect.poll(() => world.writes.count()).toBeGreaterThan(0);
    },
    removingReplacedAvatar: async (world) => {
      await seesProfileBusy(world.page);
      await expect.poll(() => world.removals.count()).toBeGreaterThan(0);
    },
    updatingMetadata: async (world) => {
      await seesProfileBusy(world.page);
      await expect.poll(() => world.metadata.count()).toBeGreaterThan(0);
    },
    uploadingAvatar: async (world) => {
      const dialog = profileDialog(world.page);
      await dialog.getByRole('status').getByText(dialogCopy.profile.uploading, { exact: true }).waitFor();
      await expect
        .poll(() => profileField(world.page, dialogCopy.profile.chooseAvatar).isDisabled())
        .toBe(true);
      await expect.poll(() => world.uploads.count()).toBeGreaterThan(0);
    },
  },

  arrange: {
    // The wallet is asked to sign; its prompt stays open until a step answers it.
    // Only the signature waits: the page may ask the wallet other things first (its chain, accounts).
    'linkingWallet.proving': async (world) => void (await walletOf(world).holdNextOf('personal_sign')),
  },

  causes: {
    // The first read fails (the gateway does not answer): the reader waits to try again.
    'profileLoad.waiting': async (world) => {
      await world.reads.failOldest();
      await seesToast(world.page, profileCopy.fetchError);
    },
    'xstate.done.actor.profileLoad': async (world, event) => {
      const output = loadOf(event);
      if (!output) {
        // A re-read fails; the profile on show stays.
        await world.reads.failOldest();
        await seesToast(world.page, profileCopy.fetchError);
        return;
      }
      await world.reads.releaseOldest();
      if (output.created) await world.writes.releaseOldest();
    },
    'session.userUpdated': async (world) => updateUserElsewhere(world, ELSEWHERE),
    'wallet.linked': async (world, event, from) => {
      const { address } = event as unknown as { address: string };
      await moveWallet(world, [address, ...[PROFILE, OTHER].filter((other) => !same(other, address))], from);
    },
    'wallet.unlinked': async (world, _event, from) => moveWallet(world, [], from),
    // The wallet signs; the proof goes to link-wallet, which is held.
    'walletProof.verifying': async (world) => {
      world.check = await holdNextRequest(world.page, linkWallet(), 'POST');
      await answerPrompt(world);
    },
    'xstate.done.actor.walletProof': async (world, event, from) => {
      const linked = (event as unknown as { output: unknown }).output !== null;
      const { check } = world;
      world.check = null;
      if (linked) {
        if (check) await check.release();
        else await answerPrompt(world);
        const context = contextOf(from);
        const title =
          context.justCreated || !context.profile?.wallet_address
            ? profileCopy.createdAndLinked
            : profileCopy.walletUpdated;
        await seesToast(world.page, title);
      } else if (check) {
        // link-wallet does not answer.
        await check.fail();
        await seesToast(world.page, profileCopy.databaseSyncError);
      } else {
        await answerPrompt(world, 4001);
        await seesToast(world.page, walletProofCopy.notLinked);
        await seesToast(world.page, walletProofCopy.declined);
      }
    },
    'xstate.done.actor.clearWallet': async (world) => {
      await world.writes.releaseOldest();
      await seesToast(world.page, profileCopy.walletUpdatedDescription(null));
    },
    'xstate.error.actor.clearWallet': async (world) => {
      await world.writes.failOldest();
      await seesToast(world.page, profileCopy.profileSyncError);
    },
    'profile.save': async (world, event) => {
      const edits = event as unknown as { full_name: string; website: string };
      await profileField(world.page, dialogCopy.profile.fullName).fill(edits.full_name);
      await profileField(world.page, dialogCopy.profile.website).fill(edits.website);
      await saveButton(world.page).click();
      if (edits.website === SAVED.website) return;
      await seesToast(world.page, profileCopy.updateFailed);
      await seesToast(world.page, profileCopy.websiteNotHttp);
    },
    'xstate.done.actor.saveProfile': async (world) => {
      await world.writes.releaseOldest();
      await seesToast(world.page, profileCopy.updated);
    },
    'xstate.error.actor.saveProfile': async (world) => {
      await world.writes.failOldest();
      await seesToast(world.page, profileCopy.updateFailed);
    },
    'profile.uploadAvatar': async (world, event) => {
      const avatar = (event as unknown as { file: AvatarFile }).file;
      await profileField(world.page, dialogCopy.profile.chooseAvatar).setInputFiles({
        name: avatar.name,
        mimeType: avatar.type,
        buffer: Buffer.from(await avatar.data.arrayBuffer()),
      });
      const refused = REFUSED[avatar.name];
      if (!refused) return;
      await seesToast(world.page, profileCopy.avatarUploadFailed);
      await seesToast(world.page, refused);
    },
    'xstate.done.actor.uploadAvatar': async (world) => {
      await world.uploads.releaseOldest();
      await seesToast(world.page, profileCopy.avatarUploaded.title);
    },
    'xstate.error.actor.uploadAvatar': async (world) => {
      await world.uploads.failOldest();
      await seesToast(world.page, profileCopy.avatarUploadFailed);
    },
    'xstate.done.actor.removeAvatar': async (world) => world.removals.releaseOldest(),
    // Only logged: nothing on screen says it.
    'xstate.error.actor.removeAvatar': async (world) => world.removals.failOldest(),
    'xstate.done.actor.updateMetadata': async (world) => world.metadata.releaseOldest(),
    'xstate.error.actor.updateMetadata': async (world) => world.metadata.failOldest(),
    // The dialog is closed (its edits dropped) and opened again to be seen.
    'profile.discardEdits': async (world) => {
      await world.page.keyboard.press('Escape');
      await profileDialog(world.page).waitFor({ state: 'detached' });
      await openProfileDialogNow(world.page);
    },
  },

  can: (event, state) => {
    const context = contextOf(state);
    const { profile } = context;
    const wallet = walletAccount(context);
    switch (event.type) {
      // The wallet moves to another account, or leaves the site, from where it is.
      case 'wallet.linked':
        return wallet !== null && !same(wallet, (event as unknown as { address: string }).address);
      case 'wallet.unlinked':
        return wallet !== null;
      // The first read fails once here (its retries are profile-load's); the reader waits.
      case 'profileLoad.waiting':
        return !profile && !context.loadFailed;
      case 'xstate.done.actor.profileLoad': {
        const output = loadOf(event);
        if (context.loadFailed) return false;
        if (!profile) return output !== null;
        // A re-read finds the row as the profile has it.
        return (
          output === null ||
          (!output.created &&
            same(output.profile.wallet_address, profile.wallet_address) &&
            !!output.profile.wallet_verified_at === !!profile.wallet_verified_at &&
            output.profile.avatar_url === profile.avatar_url)
        );
      }
      // The other client leaves the wallet in the metadata as it is; the first read is profile-load's.
      case 'session.userUpdated':
        return (
          same(
            (event as unknown as { user: typeof ada }).user.metadata.wallet_address,
            context.user.metadata.wallet_address,
          ) && profile !== null
        );
      // Only the profile's own wallet is ever linked (the other account is shared).
      case 'walletProof.verifying':
        return same(context.walletTarget, PROFILE);
      case 'xstate.done.actor.walletProof':
        return (
          (event as unknown as { output: unknown }).output === null || same(context.walletTarget, PROFILE)
        );
      // A save stores the avatar on show and keeps the wallet.
      case 'xstate.done.actor.saveProfile': {
        const saved = (event as unknown as { output: Profile }).output;
        return (
          saved.avatar_url === (context.draftAvatarUrl ?? profile?.avatar_url ?? null) &&
          same(saved.wallet_address, profile?.wallet_address) &&
          !!saved.wallet_verified_at === !!profile?.wallet_verified_at
        );
      }
      case 'xstate.done.actor.clearWallet':
        return (profile?.avatar_url ?? null) === null;
      default:
        return true;
    }
  },
  reasons: {
    'profile.uploadingAvatar --xstate.done.actor.uploadAvatar#0--> profile.settling':
      "storage answers every upload it keeps with the object's path, whose public URL the page builds itself; an upload without a URL has no cause on the local stack (the model test covers it)",
  },
});
