import type { AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { balanceCopy, sendCopy, shortAddress, tokenCopy, walletCopy } from '../../src/copy/index.ts';
import { walletSendMachine } from '../../src/machines/send/wallet-send.machine.ts';
import { TokenServiceError } from '../../src/services/token/types.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { e2e } from '../support/e2e/context.ts';
import { button } from '../support/e2e/portal-page.ts';
import { balanceValue, READABLE_AMOUNT } from '../support/e2e/ui.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { gateRequests, rpcMethod, type RequestGate } from '../support/ui/stack-requests.ts';
import { openWorld, walletOf, type PortalWorld } from '../support/ui/world.ts';

// 'Send with wallet' through the portal: a visitor's connected mock wallet sends DDEX from
// uiWalletSender to uiWalletRecipient on the local chain. The token service's calls to the node are
// held while the transfer is checked (preparing) and while its receipt is awaited (pending); the
// wallet's prompt is held while it is asked (requesting). Each step lets them go, has the wallet
// answer as a user or a wallet would (4001, another network, an internal error, too little gas),
// or stops the node.

const sender = e2eAccount('uiWalletSender');
const recipient = e2eAccount('uiWalletRecipient');
const { rpcUrl, chainId: LOCAL, tokenAddress } = e2e().chain;
const MAINNET = 1;
const AMOUNT = '1';
const HASH = `0x${'cd'.repeat(32)}` as const;
/** Enough for the call's intrinsic cost, not for the token's transfer: mined, and it reverts. */
const TOO_LITTLE_GAS = 30_000;
/** What an extension says when it fails inside (MetaMask's -32603). */
const WALLET_INTERNAL_ERROR = 'Internal JSON-RPC error.';
/** The token service's wait for a receipt (token-service.ts DEFAULT_CONFIRMATION_TIMEOUT_MS). */
const CONFIRMATION_TIMEOUT_MS = 120_000;

/** What the step that ended the send told the user. */
type Told = { title: string; description?: string | RegExp };

type SendWorld = PortalWorld & {
  /** The node's answers the current state waits on. */
  node: RequestGate | null;
  told: Told | null;
};

const walletError = (code: string, message: string | null = null) => ({ code, message });
const isReverted = (event: AnyEventObject) =>
  (event as { error?: { reason?: unknown } }).error?.reason === 'reverted';
const notConfirmed = (event: AnyEventObject) =>
  event.type === 'xstate.error.actor.confirmTransfer' && !isReverted(event);

/** The token service's calls to the node; the wallet's own send is the wallet's, not held. */
const holdNode = (world: SendWorld) =>
  gateRequests(world.page, (url) => url.href.startsWith(rpcUrl), {
    all: true,
    matches: (request) => request.method() === 'POST' && rpcMethod(request) !== 'eth_sendTransaction',
  });

function heldNode(world: SendWorld): RequestGate {
  if (!world.node) throw new Error('the node is not held');
  return world.node;
}

const releaseWallet = (world: SendWorld) => world.page.evaluate(() => window.__mockWalletRelease?.());
const walletButton = (world: SendWorld, name: string) => button(world.page, name);

describeUiModel({
  name: 'wallet-send',
  machine: walletSendMachine,
  input: { from: sender.address, to: recipient.address, amount: AMOUNT },
  events: {
    'xstate.done.actor.prepareWalletTransfer': [
      {
        type: 'xstate.done.actor.prepareWalletTransfer',
        output: { call: { from: sender.address, to: tokenAddress, data: '0xa9059cbb' } },
      },
    ],
    'xstate.error.actor.prepareWalletTransfer': [
      {
        type: 'xstate.error.actor.prepareWalletTransfer',
        error: new TokenServiceError({ code: 'rpc-unavailable', status: null }),
      },
    ],
    'xstate.done.actor.requestWalletTransfer': [
      { type: 'xstate.done.actor.requestWalletTransfer', output: HASH },
    ],
    // One per guarded branch: refused by the user, sent nothing (another network), may have sent.
    'xstate.error.actor.requestWalletTransfer': [
      { type: 'xstate.error.actor.requestWalletTransfer', error: walletError('rejected') },
      { type: 'xstate.error.actor.requestWalletTransfer', error: walletError('wrong-chain') },
      {
        type: 'xstate.error.actor.requestWalletTransfer',
        error: walletError('unknown', WALLET_INTERNAL_ERROR),
      },
    ],
    'xstate.done.actor.confirmTransfer': [
      {
        type: 'xstate.done.actor.confirmTransfer',
        output: { hash: HASH, from: sender.address, to: recipient.address, raw: '1', blockNumber: '3' },
      },
    ],
    'xstate.error.actor.confirmTransfer': [
      {
        type: 'xstate.error.actor.confirmTransfer',
        error: new TokenServiceError({ code: 'reverted' }, { hash: HASH }),
      },
      {
        type: 'xstate.error.actor.confirmTransfer',
        error: new TokenServiceError({ code: 'not-confirmed', seconds: 120 }, { hash: HASH }),
      },
    ],
  },
  // The views read the step and, once done, how it ended.
  serializeState: (state) => JSON.stringify([state.value, state.output ?? null]),

  async open(path) {
    const world: SendWorld = Object.assign(
      await openWorld({
        // Only a receipt that never comes needs the page's clock moved on.
        clock: path.events.some(notConfirmed),
        wallet: { account: sender, knownChainIds: [LOCAL, MAINNET] },
      }),
      { node: null, told: null },
    );
    await button(world.page, walletCopy.connectWallet).click();
    await world.page.getByText(shortAddress(sender.address), { exact: true }).waitFor();
    // The amount is checked against the DDEX balance shown, so the form waits for it.
    await expect
      .poll(() => balanceValue(world.page, balanceCopy.token).textContent())
      .toMatch(READABLE_AMOUNT);
    await world.page.getByLabel(sendCopy.recipient, { exact: true }).fill(recipient.address);
    await world.page.getByLabel(sendCopy.amount, { exact: true }).fill(AMOUNT);
    world.node = await holdNode(world);
    await walletButton(world, sendCopy.sendWithWallet).click();
    await world.node.arrived;
    return world;
  },

  views: {
    preparing: async (world) => {
      // Busy, but the wallet is not asked yet: the button keeps its name.
      const busy = walletButton(world, sendCopy.sendWithWallet);
      await expect.poll(() => busy.getAttribute('aria-busy')).toBe('true');
      expect(await busy.isDisabled()).toBe(true);
      expect(await world.page.getByText(sendCopy.walletPrompt.title, { exact: true }).count()).toBe(0);
    },
    requesting: async (world) => {
      await expect.poll(() => walletButton(world, sendCopy.walletWaiting).isDisabled()).toBe(true);
      await world.page.getByRole('status').getByText(sendCopy.walletPrompt.title, { exact: true }).waitFor();
    },
    pending: async (world) => {
      await expect.poll(() => walletButton(world, sendCopy.walletConfirming).isDisabled()).toBe(true);
      await world.page.getByRole('status').getByText(sendCopy.transferPending, { exact: true }).waitFor();
    },
    done: async (world, state) => {
      const output = state.output as { outcome: string } | undefined;
      if (output?.outcome === 'confirmed') {
        const status = world.page.getByRole('status');
        await status.getByText(sendCopy.transferSubmitted, { exact: true }).waitFor();
        await status.getByText(/^Transaction hash: 0x[0-9a-f]{8}\.\.\.$/).waitFor();
        // A confirmed transfer clears the form.
        await expect.poll(() => world.page.getByLabel(sendCopy.recipient).inputValue()).toBe('');
      } else {
        if (!world.told) throw new Error('the step that ended the send said nothing of its toast');
        // The toast regions (a rejection is news, not an error).
        const toasts = world.page.locator('[aria-live]');
        await toasts.getByText(world.told.title, { exact: true }).waitFor();
        const { description } = world.told;
        if (description) await toasts.getByText(description, { exact: true }).first().waitFor();
        // Anything but a confirmed transfer keeps the form for another look.
        expect(await world.page.getByLabel(sendCopy.recipient).inputValue()).toBe(recipient.address);
      }
      await expect.poll(() => walletButton(world, sendCopy.sendWithWallet).isEnabled()).toBe(true);
    },
  },

  arrange: {
    // The wallet's prompt stays open until the step answers it.
    requesting: async (world) => void (await walletOf(world).holdNext()),
    pending: async (world, _state, next) => {
      if (next && isReverted(next)) await walletOf(world).sendWithGasNext(TOO_LITTLE_GAS);
      world.node = await holdNode(world);
    },
  },

  causes: {
    'xstate.done.actor.prepareWalletTransfer': async (world) => heldNode(world).release(),
    // The node stops while the transfer is checked against it.
    'xstate.error.actor.prepareWalletTransfer': async (world) => {
      world.told = { title: sendCopy.transferFailed, description: tokenCopy.rpcUnavailable };
      await heldNode(world).stop();
    },
    'xstate.done.actor.requestWalletTransfer': releaseWallet,
    'xstate.error.actor.requestWalletTransfer': async (world, event) => {
      const { code } = (event as unknown as { error: { code: string } }).error;
      const wallet = walletOf(world);
      if (code === 'rejected') {
        world.told = { ...sendCopy.walletRejected };
        await wallet.rejectNextOf('eth_sendTransaction', 4001);
      } else if (code === 'wrong-chain') {
        // The user switches the wallet to another network while its prompt is open.
        world.told = { title: sendCopy.transferFailed, description: sendCopy.walletWrongChain };
        await wallet.emitChainChanged(MAINNET);
      } else {
        world.told = {
          title: sendCopy.mayHaveBeenSent,
          description: `${WALLET_INTERNAL_ERROR} ${sendCopy.walletMaybeSent}`,
        };
        await wallet.rejectNextOf('eth_sendTransaction', -32603, WALLET_INTERNAL_ERROR);
      }
      await releaseWallet(world);
    },
    'xstate.done.actor.confirmTransfer': async (world) => heldNode(world).release(),
    'xstate.error.actor.confirmTransfer': async (world, event) => {
      if (isReverted(event)) {
        // Sent with too little gas (arranged): mined, and the receipt says it reverted.
        world.told = {
          title: sendCopy.transferFailed,
          description: new RegExp(`^${tokenCopy.reverted} Transaction hash: 0x[0-9a-f]{64}\\.$`),
        };
        await heldNode(world).release();
        return;
      }
      // The node stops answering, and the wait for the receipt runs out.
      world.told = { title: sendCopy.transferNotConfirmed };
      await heldNode(world).stop();
      await world.page.clock.fastForward(CONFIRMATION_TIMEOUT_MS);
    },
  },
});
