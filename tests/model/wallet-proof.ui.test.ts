import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { profileCopy, shortAddress, walletCopy, walletProofCopy } from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import { walletProofMachine } from '../../src/machines/profile/wallet-proof.machine.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { button } from '../support/e2e/portal-page.ts';
import { admin, openProfileDialog } from '../support/e2e/ui.ts';
import { profileRow } from '../support/fixtures.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { gateRequests, under, type RequestGate } from '../support/ui/stack-requests.ts';
import { openWorld, pathUser, seesToast, walletOf, type PortalWorld } from '../support/ui/world.ts';

// The wallet proof through the portal: a signed-in user connects a wallet, the profile asks
// link-wallet for a nonce, the mock wallet signs the EIP-4361 message and link-wallet checks it.
// The Edit Profile dialog stays open so its 'waiting for your wallet' line is seen; each request
// to link-wallet is held until the next step lets it go, fails it as a stopped gateway would, or
// lets it meet a refusal the stack really makes.

const linker = e2eAccount('uiLinker');
const LINK_WALLET = `${gatewayFor('full').url}/functions/v1/link-wallet`;

/** What the step that ended the proof told the user: the toast's title and, if checked, its text. */
type Told = { title: string; description?: string };

type ProofWorld = PortalWorld & {
  dialog: Locator | null;
  /** The link-wallet request the current state waits on. */
  held: RequestGate | null;
  told: Told | null;
};

const backendDown = (error: string) => ({ name: 'BackendError', message: error, code: 'network_error' });

/** Holds the page's next call of link-wallet (a nonce, or a proof to check). */
const holdLinkWallet = (world: ProofWorld) =>
  gateRequests(world.page, under(LINK_WALLET), { matches: (request) => request.method() === 'POST' });

async function heldRequest(world: ProofWorld): Promise<RequestGate> {
  if (!world.held) throw new Error('no link-wallet request is held');
  await world.held.arrived;
  return world.held;
}

/** The proof's line in Edit Profile: shown for as long as the profile waits on it. */
const proving = (world: ProofWorld) =>
  (world.dialog ?? world.page).getByRole('status').getByText(dialogCopy.profile.walletProving);

/** personal_sign has reached the wallet (its prompt is open) and whether the wallet answered it. */
async function signaturePrompt(world: ProofWorld) {
  const wallet = walletOf(world);
  const asked = (await wallet.requests()).includes('personal_sign');
  const answered = (await wallet.answered()).includes('personal_sign');
  return { asked, answered };
}

describeUiModel({
  name: 'wallet-proof',
  // In the portal its parent is the profile machine, which hears 'walletProof.verifying'; the graph's
  // stand-in parent hears it and does nothing (the page shows what the profile did).
  machine: walletProofMachine,
  input: { address: linker.address },
  events: {
    'xstate.done.actor.requestWalletNonce': [
      {
        type: 'xstate.done.actor.requestWalletNonce',
        output: { nonce: 'Abc123def456ghi789', expiresAt: '2026-03-03T00:10:00Z' },
      },
    ],
    'xstate.error.actor.requestWalletNonce': [
      { type: 'xstate.error.actor.requestWalletNonce', error: backendDown('Failed to fetch') },
    ],
    'xstate.done.actor.signProof': [
      { type: 'xstate.done.actor.signProof', output: { message: 'signed', signature: '0x00' } },
    ],
    'xstate.error.actor.signProof': [
      { type: 'xstate.error.actor.signProof', error: { code: 'rejected', message: null } },
    ],
    'xstate.done.actor.linkWallet': [
      {
        type: 'xstate.done.actor.linkWallet',
        output: profileRow(
          { id: 'ui', email: null },
          { wallet_address: linker.address, wallet_verified_at: 'now' },
        ),
      },
    ],
    'xstate.error.actor.linkWallet': [
      {
        type: 'xstate.error.actor.linkWallet',
        error: { name: 'BackendError', message: 'expired', code: 'proof_expired', status: 403 },
      },
    ],
  },
  // The views read where the proof is and whether it ended with a linked profile.
  serializeState: (state) => JSON.stringify([state.value, state.output ? 'linked' : null]),

  async open() {
    // A wallet has one verified owner: an earlier path's user gives it up first.
    const { error } = await admin()
      .from('profiles')
      .update({ wallet_address: null, wallet_verified_at: null })
      .ilike('wallet_address', linker.address);
    if (error) throw new Error(`could not free the wallet: ${error.message}`);
    const signedIn = await openWorld({ wallet: { account: linker }, signedInAs: await pathUser() });
    const world: ProofWorld = Object.assign(signedIn, { dialog: null, held: null, told: null });
    // Signed in without a wallet, the panel offers one; connecting it starts the proof.
    world.held = await holdLinkWallet(world);
    await button(world.page, walletCopy.connectYourWallet).click();
    await world.page.getByText(shortAddress(linker.address), { exact: true }).first().waitFor();
    await world.held.arrived;
    world.dialog = await openProfileDialog(world.page);
    return world;
  },

  views: {
    requestingNonce: async (world) => {
      await proving(world).waitFor();
      await heldRequest(world);
      expect((await signaturePrompt(world)).asked).toBe(false);
    },
    signing: async (world) => {
      await proving(world).waitFor();
      await expect.poll(() => signaturePrompt(world)).toEqual({ asked: true, answered: false });
    },
    verifying: async (world) => {
      await proving(world).waitFor();
      await heldRequest(world);
      expect(await signaturePrompt(world)).toEqual({ asked: true, answered: true });
    },
    done: async (world, state) => {
      const dialog = world.dialog ?? world.page;
      await proving(world).waitFor({ state: 'detached' });
      if (state.output) {
        await seesToast(world.page, profileCopy.createdAndLinked);
        await seesToast(world.page, profileCopy.createdAndLinkedDescription(linker.address));
        // The dialog names the proven wallet in full for a screen reader, and tags it verified.
        await dialog.getByText(linker.address, { exact: true }).waitFor();
        await dialog.getByText(dialogCopy.profile.walletVerified, { exact: true }).waitFor();
        return;
      }
      if (!world.told) throw new Error('the step that ended the proof said nothing of its toast');
      const alert = world.page.getByRole('alert');
      await alert.getByText(world.told.title, { exact: true }).waitFor();
      if (world.told.description) await alert.getByText(world.told.description, { exact: true }).waitFor();
      // Nothing was linked: the dialog shows no wallet.
      expect(await dialog.getByText(dialogCopy.profile.wallet, { exact: true }).count()).toBe(0);
    },
  },

  arrange: {
    // The wallet's prompt stays open until the step answers it.
    signing: async (world) => void (await walletOf(world).holdNextOf('personal_sign')),
    verifying: async (world) => {
      world.held = await holdLinkWallet(world);
    },
  },

  causes: {
    'xstate.done.actor.requestWalletNonce': async (world) => (await heldRequest(world)).release(),
    // The gateway stopped: the nonce request never gets an answer.
    'xstate.error.actor.requestWalletNonce': async (world) => {
      world.told = { title: profileCopy.databaseSyncError };
      await (await heldRequest(world)).fail();
    },
    'xstate.done.actor.signProof': async (world) => {
      await world.page.evaluate(() => window.__mockWalletRelease?.());
    },
    'xstate.error.actor.signProof': async (world) => {
      world.told = { title: walletProofCopy.notLinked, description: walletProofCopy.declined };
      await walletOf(world).rejectNextOf('personal_sign', 4001);
      await world.page.evaluate(() => window.__mockWalletRelease?.());
    },
    'xstate.done.actor.linkWallet': async (world) => (await heldRequest(world)).release(),
    // The nonce runs out while the signed proof is on its way: link-wallet refuses it as expired.
    'xstate.error.actor.linkWallet': async (world) => {
      const held = await heldRequest(world);
      const user = await world.user();
      const { error } = await admin()
        .from('wallet_link_nonces')
        .update({ expires_at: new Date(Date.now() - 60_000).toISOString() })
        .eq('user_id', user.id)
        .is('used_at', null);
      if (error) throw new Error(`could not expire the nonce: ${error.message}`);
      world.told = { title: walletProofCopy.notLinked, description: walletProofCopy.refused.proof_expired };
      await held.release();
    },
  },
});
