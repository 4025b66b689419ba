import { randomUUID } from 'node:crypto';
import type { AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import {
  appCopy,
  authCopy,
  balanceCopy,
  portalCopy,
  profileCopy,
  sendCopy,
  shellCopy,
  shortAddress,
  walletCopy,
  walletProofCopy,
} from '../../src/copy/index.ts';
import { dialogCopy } from '../../src/copy/dialogs.ts';
import {
  portalMachine,
  type PortalContext,
  type PortalInput,
} from '../../src/machines/portal/portal.machine.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import type { AppVariant } from '../support/e2e/context.ts';
import { gatewayFor } from '../support/e2e/context.ts';
import { button } from '../support/e2e/portal-page.ts';
import {
  admin,
  balanceValue,
  openProfileDialog,
  openUserMenu,
  READABLE_AMOUNT,
  toast,
} from '../support/e2e/ui.ts';
import { authUser } from '../support/fixtures.ts';
import { LOCAL, LOCAL_CHAIN, MAINNET } from '../support/model/ui-chains.ts';
import { describeUiModel, type UiModelSpec } from '../support/ui/index.ts';
import { gateRequests, under } from '../support/ui/stack-requests.ts';
import {
  logInThroughUi,
  logOutThroughUi,
  openWorld,
  seesToast,
  walletOf,
  type PortalWorld,
} from '../support/ui/world.ts';

// The root through the portal: loading (the session read as the page loads, the wallet's silent
// reconnect held until a step lets it go), the session, and each fact it routes, seen by what the
// machine it tells then shows: the balances reload, the profile links or unlinks the wallet, the
// history loads, the notifications are read, the profile re-reads the row, edits are dropped. The
// `noToken` build runs the loading and connecting paths again for its 'Configuration Error'.

const account = e2eAccount('uiPortal');
const other = e2eAccount('viewerAlt');
const GATEWAY = gatewayFor('full').url;
/** Where a visitor's test transfer goes: an address no test owns (tokens sent there are burnt). */
const BURN = '0x000000000000000000000000000000000000dead';
const user = authUser('ui-portal');

type RootWorld = PortalWorld & {
  variant: AppVariant;
  /** What the last step's fact makes the machine it is routed to show, checked after the step. */
  shows: (() => Promise<void>) | null;
};

const contextOf = (state: { context: unknown }) => state.context as PortalContext;
const addressOf = (event: AnyEventObject) => (event as { address?: string | null }).address ?? null;
const userOf = (event: AnyEventObject) => (event as { user?: unknown }).user ?? null;
const dialogOf = (event: AnyEventObject) => (event as { dialog?: string }).dialog;

const releaseWallet = (world: RootWorld) => world.page.evaluate(() => window.__mockWalletRelease?.());
const banner = (world: RootWorld) => world.page.getByRole('alert', { name: portalCopy.wrongNetworkTitle });

/**
 * Does `act`, and sees the balances reload: the native balance's read is held until 'Loading...'
 * shows (so the reload is seen, not guessed), then let go. Only the root tells the balances.
 */
async function reloadsBalances(world: RootWorld, act: () => Promise<void>) {
  const read = await gateRequests(world.page, under(`${GATEWAY}/functions/v1/native-balance`), {
    matches: (request) => request.method() === 'POST',
  });
  await act();
  await read.arrived;
  await expect
    .poll(() => balanceValue(world.page, balanceCopy.native).textContent())
    .toBe(balanceCopy.loading);
  await read.release();
  await expect
    .poll(() => balanceValue(world.page, balanceCopy.native).textContent(), { timeout: 30_000 })
    .toMatch(READABLE_AMOUNT);
}

/** The wallet proof that follows a signed-in user's new wallet, declined or not, has spoken. */
const proofSettled = (world: RootWorld, title: string) => () => seesToast(world.page, title);

/** Why this world leaves the tabs' actors to others (the portal model drives every one of these). */
const TABS_ELSEWHERE =
  "the tabs' own worlds (trading.ui, bots.ui) and the trading, bots and devtools e2e tests open those tabs; this world checks the portal tab's views";

/** Why this world leaves the faucet's claim to the faucet's own tests (the portal model drives it). */
const FAUCET_ELSEWHERE =
  "a claim is driven by tests/e2e/faucet.e2e.test.ts and the faucet's own model; this world checks the portal tab's views, and its users have no proven wallet";

const tabReasons: Record<string, string> = {
  'portal.session.signedIn.noFaucet': 'the preview serves the faucet’s chunk: loading it does not fail here',
  'portal --faucet.claimed#0--> (stays)': FAUCET_ELSEWHERE,
  'portal.tabActors.trading': TABS_ELSEWHERE,
  'portal.tabActors.trading.loading': TABS_ELSEWHERE,
  'portal.tabActors.trading.running': TABS_ELSEWHERE,
  'portal.tabActors.trading.failed': TABS_ELSEWHERE,
  'portal.tabActors.bots': TABS_ELSEWHERE,
  'portal.tabActors.bots.loading': TABS_ELSEWHERE,
  'portal.tabActors.bots.running': TABS_ELSEWHERE,
  'portal.tabActors.bots.failed': TABS_ELSEWHERE,
  'portal --trading.swapConfirmed#0--> (stays)': TABS_ELSEWHERE,
  'portal.session.signedIn --trading.swapRecorded#0--> (stays)': TABS_ELSEWHERE,
  'portal.tabActors.none --tab.shown#0--> portal.tabActors.trading': TABS_ELSEWHERE,
  'portal.tabActors.none --tab.shown#1--> portal.tabActors.bots': TABS_ELSEWHERE,
  'portal.tabActors.trading --tab.shown#0--> portal.tabActors.bots': TABS_ELSEWHERE,
  'portal.tabActors.trading --tab.shown#1--> portal.tabActors.none': TABS_ELSEWHERE,
  'portal.tabActors.trading.loading --xstate.done.actor.loadTrading#0--> portal.tabActors.trading.running':
    TABS_ELSEWHERE,
  'portal.tabActors.trading.loading --xstate.error.actor.loadTrading#0--> portal.tabActors.trading.failed':
    TABS_ELSEWHERE,
  'portal.tabActors.bots --tab.shown#0--> portal.tabActors.trading': TABS_ELSEWHERE,
  'portal.tabActors.bots --tab.shown#1--> portal.tabActors.none': TABS_ELSEWHERE,
  'portal.tabActors.bots.loading --xstate.done.actor.loadBots#0--> portal.tabActors.bots.running':
    TABS_ELSEWHERE,
  'portal.tabActors.bots.loading --xstate.error.actor.loadBots#0--> portal.tabActors.bots.failed':
    TABS_ELSEWHERE,
};

function portalSpec(variant: AppVariant): UiModelSpec<typeof portalMachine, RootWorld> {
  const input: PortalInput = {
    theme: { stored: null, systemPrefersDark: false },
    auth: { clientAvailable: true },
    expectedChain: LOCAL_CHAIN,
    tokenConfigured: variant !== 'noToken',
    tabs: { trading: variant !== 'noToken', bots: true },
  };
  return {
    name: 'portal',
    machine: portalMachine,
    input,
    events: {
      'auth.ready': [
        { type: 'auth.ready', user: null },
        { type: 'auth.ready', user },
      ],
      'wallet.ready': [
        { type: 'wallet.ready', address: null },
        { type: 'wallet.ready', address: account.address },
      ],
      'auth.signedIn': [{ type: 'auth.signedIn', user }],
      'auth.userUpdated': [{ type: 'auth.userUpdated', user }],
      'wallet.connected': [{ type: 'wallet.connected', address: account.address, chainId: LOCAL }],
      'wallet.accountChanged': [{ type: 'wallet.accountChanged', address: other.address, chainId: LOCAL }],
      'wallet.chainChanged': [{ type: 'wallet.chainChanged', chainId: MAINNET, onExpectedChain: false }],
      'send.transferSubmitted': [{ type: 'send.transferSubmitted', hash: `0x${'ab'.repeat(32)}` }],
      'dialogs.opened': [
        { type: 'dialogs.opened', dialog: 'notifications' },
        { type: 'dialogs.opened', dialog: 'transactions' },
      ],
      'dialogs.closed': [{ type: 'dialogs.closed', dialog: 'profile' }],
    },
    // What the views and the guards read: where loading is, who is signed in, which wallet on
    // which network.
    serializeState: (state) => {
      const c = contextOf(state);
      return JSON.stringify([
        state.value,
        c.authReady,
        c.walletReady,
        c.user !== null,
        c.walletAddress,
        c.walletChainId === MAINNET,
      ]);
    },

    async open(path) {
      const storedSession = path.events.some((e) => e.type === 'auth.ready' && userOf(e) !== null);
      const approved = path.events.some((e) => e.type === 'wallet.ready' && addressOf(e) !== null);
      const world: RootWorld = Object.assign(
        await openWorld({
          variant,
          wallet: {
            account,
            otherAccounts: [other],
            connected: approved,
            knownChainIds: [LOCAL, MAINNET],
            // Loading waits for the reconnect's answer, which a wallet.ready step lets go.
            holdFirst: true,
          },
        }),
        { variant, shows: null },
      );
      // A wallet has one verified owner: an earlier path's user gives uiPortal up first.
      const freed = await admin()
        .from('profiles')
        .update({ wallet_address: null, wallet_verified_at: null })
        .ilike('wallet_address', account.address);
      if (freed.error) throw new Error(`could not free the wallet: ${freed.error.message}`);
      if (path.has('dialogs.opened', { dialog: 'notifications' })) {
        const { id } = await world.user();
        const note = await admin()
          .from('user_notifications')
          .insert({ user_id: id, title: 'Payment received', message: 'A test payment' });
        if (note.error) throw new Error(`could not notify: ${note.error.message}`);
      }
      if (storedSession) {
        // Signed in once, the session is stored: the reload reads it as the page loads.
        await logInThroughUi(world);
        await world.page.reload();
      }
      return world;
    },

    views: {
      // First what the last step's fact made the page show: a dialog it opened is looked at and
      // closed, so the rest of the page can be read.
      '*': async (world, state) => {
        const shows = world.shows;
        world.shows = null;
        await shows?.();
        const { walletAddress, walletChainId } = contextOf(state);
        if (walletAddress !== null) {
          await world.page.getByText(shortAddress(walletAddress), { exact: true }).first().waitFor();
          await world.page.getByLabel(sendCopy.recipient, { exact: true }).waitFor();
          if (world.variant === 'noToken')
            await expect
              .poll(() => balanceValue(world.page, balanceCopy.token).textContent())
              .toBe(balanceCopy.configError);
        }
        if (walletChainId === MAINNET) await banner(world).waitFor();
        else expect(await banner(world).count()).toBe(0);
      },
      'boot.loading': async (world, state) => {
        // The wallet has not settled, so no connect button can be pressed yet.
        await expect.poll(() => button(world.page, walletCopy.connectWallet).count()).toBe(0);
        expect(await button(world.page, walletCopy.connectYourWallet).count()).toBe(0);
        const c = contextOf(state);
        if (c.authReady && c.user === null) await button(world.page, walletCopy.connectingWallet).waitFor();
      },
      'boot.ready': async (world, state) => {
        const c = contextOf(state);
        if (c.walletAddress !== null) return;
        const connect = c.user ? walletCopy.connectYourWallet : walletCopy.connectWallet;
        await expect.poll(() => button(world.page, connect).isEnabled()).toBe(true);
      },
      'session.signedOut': async (world, state) => {
        // Before the session is read the page may already show a stored one.
        if (!contextOf(state).authReady) return;
        await button(world.page, authCopy.signUp).waitFor();
        await expect.poll(() => button(world.page, authCopy.logout).count()).toBe(0);
        expect(await button(world.page, shellCopy.notifications(0)).count()).toBe(0);
      },
      'session.signedIn': async (world) => {
        await button(world.page, authCopy.logout).waitFor();
        expect(await button(world.page, authCopy.login).count()).toBe(0);
      },
    },

    causes: {
      // The page reads the stored session as it loads; the step waits until it shows what it found.
      'auth.ready': async (world, event) => {
        if (userOf(event) !== null) await button(world.page, authCopy.logout).waitFor();
        else await button(world.page, authCopy.login).waitFor();
      },
      'wallet.ready': async (world, event, from) => {
        const address = addressOf(event);
        const signedIn = contextOf(from).user !== null;
        await releaseWallet(world);
        if (address === null && !signedIn) {
          // Nobody after loading: the visitor is welcomed.
          world.shows = () => seesToast(world.page, appCopy.welcome.title);
        } else if (address !== null && signedIn) {
          // The reconnected wallet is handed to the profile, which proves and links it.
          world.shows = proofSettled(world, profileCopy.createdAndLinked);
        } else {
          // Somebody after loading: once the wallet has settled, no welcome.
          world.shows = async () => {
            if (address !== null)
              await world.page.getByText(shortAddress(address), { exact: true }).first().waitFor();
            else
              await expect
                .poll(() => button(world.page, walletCopy.connectYourWallet).isEnabled())
                .toBe(true);
            expect(await toast(world.page, appCopy.welcome.title).count()).toBe(0);
          };
        }
      },
      'auth.signedIn': async (world, _event, from) => {
        await logInThroughUi(world);
        // The profile starts with the wallet connected before the login, and links it.
        if (contextOf(from).walletAddress !== null)
          world.shows = proofSettled(world, profileCopy.createdAndLinked);
      },
      'auth.signedOut': (world) => logOutThroughUi(world),
      // Another tab of the same browser renames the user; supabase-js tells this tab the user
      // changed, and the root has the profile read the row again.
      'auth.userUpdated': async (world) => {
        const name = `renamed-${randomUUID().slice(0, 8)}`;
        const tab = await world.portal.context.newPage();
        await tab.goto(world.portal.appUrl);
        const dialog = await openProfileDialog(tab);
        await dialog.getByLabel(dialogCopy.profile.username, { exact: true }).fill(name);
        const save = dialog.getByRole('button', { name: dialogCopy.profile.save, exact: true });
        await expect.poll(() => save.getAttribute('aria-disabled')).toBeNull();
        await save.click();
        await toast(tab, profileCopy.updated).waitFor();
        // That tab writes the new name to the user's metadata after the row: it stays open until then.
        world.shows = async () => {
          await button(world.page, shellCopy.userMenu(name)).waitFor();
          await tab.close();
        };
      },
      'wallet.connected': async (world, _event, from) => {
        const signedIn = contextOf(from).user !== null;
        await reloadsBalances(world, () =>
          button(world.page, signedIn ? walletCopy.connectYourWallet : walletCopy.connectWallet).click(),
        );
        if (signedIn) world.shows = proofSettled(world, profileCopy.createdAndLinked);
      },
      'wallet.accountChanged': async (world, event, from) => {
        const signedIn = contextOf(from).user !== null;
        // The profile would link the new account; its user declines, so no other file's wallet
        // is linked here, and the refusal shows the profile was told.
        if (signedIn) await walletOf(world).rejectNextOf('personal_sign', 4001);
        await reloadsBalances(world, () => walletOf(world).emitAccountsChanged([addressOf(event) ?? '']));
        if (signedIn) world.shows = proofSettled(world, walletProofCopy.notLinked);
      },
      'wallet.disconnected': async (world, _event, from) => {
        await button(world.page, portalCopy.disconnectWallet).click();
        // The profile lets go of the wallet it held.
        if (contextOf(from).user !== null)
          world.shows = async () => {
            await seesToast(world.page, profileCopy.walletUpdated);
            await seesToast(world.page, profileCopy.walletUpdatedDescription(null));
          };
      },
      'wallet.chainChanged': (world) =>
        reloadsBalances(world, () => walletOf(world).emitChainChanged(MAINNET)),
      // A transfer from the form with the account's key; once it is submitted the root has the
      // balances read again.
      'send.transferSubmitted': async (world) => {
        const { page } = world;
        await page.getByLabel(sendCopy.recipient, { exact: true }).fill(BURN);
        await page.getByLabel(sendCopy.amount, { exact: true }).fill('1');
        await page.getByLabel(sendCopy.privateKey, { exact: true }).fill(account.privateKey);
        await reloadsBalances(world, () => button(page, sendCopy.submit).click());
        await seesToast(page, sendCopy.transferSubmitted);
      },
      'dialogs.opened': async (world, event) => {
        const { page } = world;
        if (dialogOf(event) === 'notifications') {
          await button(page, shellCopy.notifications(1)).click();
          const dialog = page.getByRole('dialog', { name: dialogCopy.notifications.title });
          // Opening the list marks it read: the one unread notification loses its tag.
          world.shows = async () => {
            await dialog.getByText('Payment received', { exact: true }).waitFor();
            await expect
              .poll(() => dialog.getByText(dialogCopy.notifications.unread, { exact: true }).count())
              .toBe(0);
            await page.keyboard.press('Escape');
          };
          return;
        }
        await openUserMenu(page);
        await page.getByRole('button', { name: appCopy.menu.transactions, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: dialogCopy.transactions.title });
        // Opening the history loads it: 'Loading transactions...' gives way to what the user has.
        world.shows = async () => {
          await dialog.waitFor();
          await expect
            .poll(() => dialog.getByText(dialogCopy.transactions.loading, { exact: true }).count())
            .toBe(0);
          await page.keyboard.press('Escape');
        };
      },
      // An edit the profile refused (not an http address) stays in the form until the dialog closes.
      'dialogs.closed': async (world) => {
        const { page } = world;
        const website = (dialog: Awaited<ReturnType<typeof openProfileDialog>>) =>
          dialog.getByLabel(dialogCopy.profile.website, { exact: true });
        const dialog = await openProfileDialog(page);
        await website(dialog).fill('ftp://example.com');
        const save = dialog.getByRole('button', { name: dialogCopy.profile.save, exact: true });
        await expect.poll(() => save.getAttribute('aria-disabled')).toBeNull();
        await save.click();
        await seesToast(page, profileCopy.updateFailed);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        // Opened again, the form holds the saved profile, not the dropped edit.
        world.shows = async () => {
          const again = await openProfileDialog(page);
          expect(await website(again).inputValue()).toBe('');
          await page.keyboard.press('Escape');
        };
      },
    },

    can: (event, state) => {
      const c = contextOf(state);
      // The session is read from storage as the page loads, before anything else can happen.
      if (event.type === 'auth.ready')
        return !c.authReady && (variant !== 'noToken' || userOf(event) === null);
      if (!c.authReady) return false;
      if (variant === 'noToken') {
        // The 'Configuration Error' build: a visitor's loading and connecting only.
        if (c.user !== null) return false;
        if (!['wallet.ready', 'wallet.connected'].includes(event.type)) return false;
      }
      switch (event.type) {
        case 'wallet.ready':
          return !c.walletReady;
        case 'wallet.connected':
          return c.walletReady && c.walletAddress === null;
        case 'wallet.accountChanged':
          return c.walletAddress !== null && c.walletAddress !== addressOf(event);
        case 'wallet.disconnected':
          return c.walletAddress !== null;
        case 'wallet.chainChanged':
          return c.walletAddress !== null && c.walletChainId !== MAINNET;
        // The form signs with uiPortal's key, on the portal's network.
        case 'send.transferSubmitted':
          return c.walletAddress === account.address && c.walletChainId !== MAINNET;
        case 'auth.signedIn':
          return c.user === null;
        default:
          // The user menu, the bell, the profile and logging out are a signed-in user's.
          return c.user !== null;
      }
    },
    // The faucet's code loads by itself once a session starts (src/app/faucet.ts).
    passing: { 'session.signedIn.faucetLoading': 'the faucet’s code loads by itself once a session starts' },
    notUiReachable: {
      'xstate.error.actor.loadFaucet': 'the preview serves the faucet’s chunk: loading it does not fail here',
      'unsubscribe.done':
        "it needs a page opened from an alert mail's link: tests/e2e/bots.e2e.test.ts opens one signed in and sees the profile read again, and the unsubscribe map (unsubscribe.ui.test.ts) walks the link's dialog",
      'toast.actionPressed':
        "the one toast with an action, 'MetaMask is not installed' with 'Use a local test wallet', needs a page without any wallet: the wallet's UI paths press it (wallet.ui.test.ts), as tests/e2e/local-wallet.e2e.test.ts does; this world's page has the mock wallet",
    },
    reasons: {
      ...tabReasons,
      'portal --toast.requested#0--> (stays)':
        "every child's toast passes through it, and each is checked by the paths of the machine that asks for it; this model has no event for it, since no view sends it",
      'portal.session.signedOut --dialogs.opened#0--> (stays)':
        'a visitor has no user menu, so the history cannot be opened while signed out',
      'portal.session.signedIn --auth.signedIn#0--> portal.session.signedIn':
        'auth reports another account signing in as auth.signedOut then auth.signedIn ' +
        '(changeIsOtherUser), so the root is signed out again when the new user arrives',
    },
  };
}

describeUiModel(portalSpec('full'));
describeUiModel(portalSpec('noToken'));
