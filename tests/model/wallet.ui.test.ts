import { LOCAL_WALLET_KEY } from '../../src/services/local-wallet/names.ts';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import { portalCopy, shellCopy, shortAddress, walletCopy } from '../../src/copy/index.ts';
import { watchTokenCopy } from '../../src/copy/watch-token.ts';
import { localWalletCopy } from '../../src/copy/local-wallet.ts';
import { localWalletOfferCopy } from '../../src/copy/local-wallet-offer.ts';
import { localWalletMachine } from '../../src/machines/local-wallet/local-wallet.machine.ts';
import { walletMachine } from '../../src/machines/wallet/wallet.machine.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { button } from '../support/e2e/portal-page.ts';
import { authUser } from '../support/fixtures.ts';
import { LOCAL_CHAIN, MAINNET } from '../support/model/ui-chains.ts';
import { holdNextRequest, type HeldRequest } from '../support/ui/hold.ts';
import { describeUiModel } from '../support/ui/index.ts';
import {
  logInThroughUi,
  logOutThroughUi,
  openWorld,
  seesToast,
  walletOf,
  type PortalWorld,
} from '../support/ui/world.ts';

// The wallet chart through the portal: the connect buttons, the address with copy and
// disconnect, the wrong-network banner, 'Add DDEX to wallet', and the mock wallet's answers and
// events. Read-only accounts: nothing here sends.

const viewer = e2eAccount('viewer').address;
const other = e2eAccount('viewerAlt').address;
const signedIn = authUser('ui-wallet');

type Output = { address?: string; chainId?: number } | null;
const outputOf = (event: object) => (event as { output?: unknown }).output as Output;

/** The connect button a visitor sees, or the one in the wallet panel for a signed-in user. */
const connectButton = (world: PortalWorld, signed: boolean) =>
  button(world.page, signed ? walletCopy.connectYourWallet : walletCopy.connectWallet);
const busyButton = (world: PortalWorld, signed: boolean) =>
  button(world.page, signed ? walletCopy.connecting : walletCopy.connectingWallet);
const banner = (world: PortalWorld) => world.page.getByRole('alert', { name: portalCopy.wrongNetworkTitle });

async function releaseWallet(world: PortalWorld) {
  await world.page.evaluate(() => window.__mockWalletRelease?.());
}

/** The portal, and the request for the code of adding DDEX to the wallet when a step holds it. */
type WalletWorld = PortalWorld & { watchTokenCode: HeldRequest | null };

const addToken = (world: PortalWorld) => button(world.page, walletCopy.addToken);

describeUiModel({
  name: 'wallet',
  machine: walletMachine,
  input: { expectedChain: LOCAL_CHAIN },
  events: {
    'xstate.done.actor.discover': [
      { type: 'xstate.done.actor.discover', output: { available: true } },
      { type: 'xstate.done.actor.discover', output: { available: false } },
    ],
    'xstate.done.actor.silentReconnect': [
      { type: 'xstate.done.actor.silentReconnect', output: null },
      { type: 'xstate.done.actor.silentReconnect', output: { address: viewer, chainId: LOCAL_CHAIN.id } },
    ],
    'xstate.error.actor.silentReconnect': [
      { type: 'xstate.error.actor.silentReconnect', error: { code: 'rejected', message: null } },
    ],
    'xstate.done.actor.requestAccounts': [
      { type: 'xstate.done.actor.requestAccounts', output: { address: viewer, chainId: LOCAL_CHAIN.id } },
      { type: 'xstate.done.actor.requestAccounts', output: { address: viewer, chainId: MAINNET } },
    ],
    'xstate.error.actor.requestAccounts': [
      { type: 'xstate.error.actor.requestAccounts', error: { code: 'rejected', message: null } },
    ],
    'xstate.error.actor.switchChain': [
      { type: 'xstate.error.actor.switchChain', error: { code: 'rejected', message: null } },
    ],
    'xstate.error.actor.copyAddress': [
      { type: 'xstate.error.actor.copyAddress', error: new Error('denied') },
    ],
    'xstate.done.actor.watchToken': [{ type: 'xstate.done.actor.watchToken', output: watchTokenCopy.added }],
    'xstate.error.actor.watchToken': [
      {
        type: 'xstate.error.actor.watchToken',
        error: new TypeError('Failed to fetch dynamically imported module'),
      },
    ],
    'session.changed': [
      { type: 'session.changed', user: signedIn },
      { type: 'session.changed', user: null },
    ],
    'provider.accountsChanged': [
      { type: 'provider.accountsChanged', accounts: [] },
      { type: 'provider.accountsChanged', accounts: [other] },
    ],
    'provider.chainChanged': [
      { type: 'provider.chainChanged', chainId: LOCAL_CHAIN.id },
      { type: 'provider.chainChanged', chainId: MAINNET },
    ],
  },
  // What the views depend on: where the machine is and whether a user is signed in.
  serializeState: (state) => JSON.stringify([state.value, state.context.signedIn, state.context.chainId]),

  async open(path): Promise<WalletWorld> {
    const noWallet = path.has('xstate.done.actor.discover', { output: { available: false } });
    const reconnects = path.events.some(
      (event) => event.type === 'xstate.done.actor.silentReconnect' && outputOf(event) !== null,
    );
    const onMainnet = path.events.some(
      (event) => event.type === 'xstate.done.actor.requestAccounts' && outputOf(event)?.chainId === MAINNET,
    );
    const world = await openWorld({
      clock: path.events.some((event) => event.type.startsWith('xstate.after.')),
      wallet: noWallet
        ? false
        : {
            account: viewer as `0x${string}`,
            otherAccounts: [other as `0x${string}`],
            connected: reconnects,
            chainId: onMainnet ? MAINNET : LOCAL_CHAIN.id,
            knownChainIds: [LOCAL_CHAIN.id, MAINNET],
            // The silent reconnect waits, so 'reconnecting' can be seen; its step lets it go.
            holdFirst: true,
          },
    });
    return { ...world, watchTokenCode: null };
  },

  passing: {
    discovering:
      'EIP-6963 discovery is an announcement the page hears while it loads; no request can be held.',
    'connected.clipboard.copying': 'the browser clipboard answers at once; the toast after it is checked',
  },

  views: {
    noProvider: async (world, state) => {
      await expect.poll(() => connectButton(world, state.context.signedIn).isEnabled()).toBe(true);
    },
    reconnecting: async (world, state) => {
      await busyButton(world, state.context.signedIn).waitFor();
    },
    connecting: async (world, state) => {
      await expect.poll(() => busyButton(world, state.context.signedIn).isDisabled()).toBe(true);
    },
    disconnected: async (world, state) => {
      await expect.poll(() => connectButton(world, state.context.signedIn).isEnabled()).toBe(true);
      await expect.poll(() => world.page.getByText(portalCopy.connectedAddress).count()).toBe(0);
    },
    disconnecting: async (world, state) => {
      await connectButton(world, state.context.signedIn)
        .or(busyButton(world, state.context.signedIn))
        .waitFor();
    },
    connected: async (world, state) => {
      const shown = shortAddress(String(state.context.address));
      await world.page.getByText(shown, { exact: true }).waitFor();
      await button(world.page, portalCopy.disconnectWallet).waitFor();
    },
    'connected.network.rightNetwork': async (world) => {
      await expect.poll(() => banner(world).count()).toBe(0);
    },
    'connected.network.wrongNetwork': async (world) => {
      await expect
        .poll(() => banner(world).getByRole('button', { name: walletCopy.switchNetwork }).isEnabled())
        .toBe(true);
      await banner(world).getByText(walletCopy.wrongNetwork(LOCAL_CHAIN.name)).waitFor();
    },
    'connected.network.switching': async (world) => {
      await expect
        .poll(() => banner(world).getByRole('button', { name: walletCopy.switchNetwork }).isDisabled())
        .toBe(true);
    },
    'connected.loginHint.waiting': async (world) => {
      await seesToast(world.page, walletCopy.connected);
    },
    'connected.listing.asking': async (world) => {
      await expect.poll(() => addToken(world).isDisabled()).toBe(true);
    },
  },

  arrange: {
    connecting: async (world) => void (await walletOf(world).holdNext()),
    'connected.network.switching': async (world) => void (await walletOf(world).holdNext()),
    disconnecting: async (world) => void (await walletOf(world).holdNext()),
    'connected.listing.asking': async (world, _state, next) => {
      // Its code loads on the first press: held, to fail it as an unreachable server would; else
      // the wallet's prompt is left open.
      if (next?.type === 'xstate.error.actor.watchToken')
        world.watchTokenCode = await holdNextRequest(world.page, /\/assets\/watch-token-[^/]*\.js$/);
      else await walletOf(world).holdNextOf('wallet_watchAsset');
    },
    'connected.clipboard.copying': async (world, _state, next) => {
      if (next?.type !== 'xstate.error.actor.copyAddress') return;
      // The browser refuses the clipboard, as it does for a page without the permission.
      await world.page.evaluate(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException('Denied', 'NotAllowedError'));
      });
    },
  },

  causes: {
    'xstate.done.actor.silentReconnect': releaseWallet,
    'xstate.error.actor.silentReconnect': async (world) => {
      await walletOf(world).rejectNext(4001);
      await releaseWallet(world);
    },
    'wallet.connect': async (world, _event, from) => {
      await connectButton(world, from.context.signedIn).click();
    },
    'xstate.done.actor.requestAccounts': releaseWallet,
    'xstate.error.actor.requestAccounts': async (world) => {
      await walletOf(world).rejectNext(4001);
      await releaseWallet(world);
    },
    'wallet.disconnect': async (world) => button(world.page, portalCopy.disconnectWallet).click(),
    'xstate.done.actor.forgetConnection': releaseWallet,
    'xstate.error.actor.forgetConnection': async (world) => {
      await walletOf(world).rejectNext(4001);
      await releaseWallet(world);
    },
    'wallet.copy': async (world) => button(world.page, portalCopy.copyAddress).click(),
    // The clipboard was refused before the click (arrange); the page reports it at once.
    'xstate.error.actor.copyAddress': async () => {},
    'xstate.done.actor.copyAddress': async () => {},
    'wallet.watchToken': async (world) => addToken(world).click(),
    // The wallet says yes (the mock's default answer) once its prompt is let go.
    'xstate.done.actor.watchToken': async (world) => {
      await releaseWallet(world);
      await seesToast(world.page, watchTokenCopy.added.title);
    },
    'xstate.error.actor.watchToken': async (world) => {
      const code = world.watchTokenCode;
      world.watchTokenCode = null;
      if (!code) throw new Error('the request for the code was not held');
      await code.fail();
      await seesToast(world.page, walletCopy.tokenNotAdded);
      await world.page.getByText(shellCopy.partLoadFailed, { exact: true }).first().waitFor();
    },
    'wallet.switchNetwork': async (world) =>
      banner(world).getByRole('button', { name: walletCopy.switchNetwork }).click(),
    'xstate.done.actor.switchChain': releaseWallet,
    'xstate.error.actor.switchChain': async (world) => {
      await walletOf(world).rejectNext(4001);
      await releaseWallet(world);
    },
    'provider.accountsChanged': async (world, event) => {
      await walletOf(world).emitAccountsChanged((event as unknown as { accounts: string[] }).accounts);
    },
    'provider.chainChanged': async (world, event) =>
      walletOf(world).emitChainChanged((event as unknown as { chainId: number }).chainId),
    'provider.disconnected': async (world) => walletOf(world).emitDisconnect(),
    'session.changed': async (world, event) => {
      if ((event as unknown as { user: unknown }).user) await logInThroughUi(world);
      else await logOutThroughUi(world);
    },
  },
  can: (event, state) => {
    if (event.type !== 'session.changed') return true;
    // A signed-in user's wallet panel waits for the wallet to be ready: while it reconnects there is
    // nothing of the wallet on screen to check.
    if (state.matches('reconnecting')) return false;
    const user = (event as unknown as { user: unknown }).user;
    // Logging in needs a logged-out portal and the reverse; the dialogs close on their own.
    return Boolean(user) !== state.context.signedIn;
  },
  notUiReachable: {
    'xstate.error.actor.discover':
      'discovery waits for EIP-6963 announcements with a timeout; nothing a page does makes it throw',
  },
});

// The same chart in a browser with no extension, in the local chain's build: the local test wallet
// taken from the visitor prompt's offer, or failing to be taken when the chain does not answer.
// Its key is in the browser's storage before the page loads, so its account is known; a wallet
// taken without one is funded first, which the failing paths make impossible.

const LOCAL_KEY = `0x${'5a'.repeat(32)}` as const;
const localAccount = privateKeyToAccount(LOCAL_KEY).address;
const LOCAL_WALLET_STEPS = new Set([
  'xstate.done.actor.discover',
  'wallet.connect',
  'wallet.useLocalWallet',
  'xstate.done.actor.takeLocalWallet',
  'xstate.error.actor.takeLocalWallet',
  'xstate.done.actor.requestAccounts',
]);

describeUiModel({
  name: 'wallet',
  machine: walletMachine,
  input: { expectedChain: LOCAL_CHAIN, offersLocalWallet: true },
  events: {
    'xstate.done.actor.discover': [{ type: 'xstate.done.actor.discover', output: { available: false } }],
    'xstate.done.actor.takeLocalWallet': [
      {
        type: 'xstate.done.actor.takeLocalWallet',
        output: { logic: localWalletMachine, address: localAccount },
      },
    ],
    'xstate.error.actor.takeLocalWallet': [
      { type: 'xstate.error.actor.takeLocalWallet', error: new Error('The local chain does not answer') },
    ],
    'xstate.done.actor.requestAccounts': [
      {
        type: 'xstate.done.actor.requestAccounts',
        output: { address: localAccount, chainId: LOCAL_CHAIN.id },
      },
    ],
  },
  serializeState: (state) => JSON.stringify([state.value, state.context.localWallet !== null]),
  // Only what a page without an extension can do: find none, take the local wallet, connect it.
  can: (event, state) => LOCAL_WALLET_STEPS.has(event.type) && !state.matches('connected'),

  async open(path) {
    const fails = path.has('xstate.error.actor.takeLocalWallet');
    return openWorld({
      wallet: false,
      beforeLoad: async (page) => {
        if (fails) {
          // A new wallet asks the chain for its gas first: the chain does not answer.
          await page.route(/127\.0\.0\.1:\d+\/?$/, (route) =>
            route.request().method() === 'POST' && (route.request().postData() ?? '').includes('eth_accounts')
              ? route.abort('connectionrefused')
              : route.fallback(),
          );
        } else {
          await page.addInitScript(([name, key]) => window.localStorage.setItem(name, key), [
            LOCAL_WALLET_KEY,
            LOCAL_KEY,
          ] as const);
        }
      },
    });
  },

  passing: {
    discovering:
      'EIP-6963 discovery is an announcement the page hears while it loads; no request can be held.',
    takingLocalWallet: 'taking a wallet whose key is stored asks nothing of anybody: it is taken at once',
    connecting: 'the local test wallet was taken to connect, so it grants its account at once',
  },

  views: {
    noProvider: async (world) => {
      await expect.poll(() => connectButton(world, false).isEnabled()).toBe(true);
      await world.page.getByText(localWalletOfferCopy.visitorLine, { exact: false }).waitFor();
    },
    connected: async (world) => {
      await world.page.getByText(shortAddress(localAccount), { exact: true }).waitFor();
      await button(world.page, localWalletCopy.revealKey).waitFor();
    },
    'connected.loginHint.waiting': async (world) => {
      await seesToast(world.page, walletCopy.connected);
    },
  },

  causes: {
    // No wallet announces itself: discovery ends on its own.
    'xstate.done.actor.discover': async () => {},
    'wallet.connect': async (world) => {
      await connectButton(world, false).click();
      await world.page.getByText(walletCopy.notInstalled, { exact: true }).waitFor();
    },
    // The 'MetaMask is not installed' toast's action when the toast is up, else the prompt's line.
    'wallet.useLocalWallet': async (world) => {
      const action = world.page
        .locator('[role="status"], [role="alert"]')
        .getByRole('button', { name: localWalletOfferCopy.offer, exact: true });
      if ((await action.count()) > 0) await action.click();
      else
        await world.page.getByRole('main').getByRole('button', { name: localWalletOfferCopy.offer }).click();
    },
    'xstate.done.actor.takeLocalWallet': async () => {},
    'xstate.error.actor.takeLocalWallet': async (world) => {
      await seesToast(world.page, localWalletOfferCopy.takeFailed);
    },
    'xstate.done.actor.requestAccounts': async () => {},
  },
});
