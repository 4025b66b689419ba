import type { AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { balanceCopy, portalCopy, walletCopy } from '../../src/copy/index.ts';
import { balancesMachine } from '../../src/machines/balances.machine.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { e2e } from '../support/e2e/context.ts';
import { button } from '../support/e2e/portal-page.ts';
import { balanceExact, balanceValue, READABLE_AMOUNT } from '../support/e2e/ui.ts';
import type { Snapshot } from '../support/model/paths.ts';
import { describeUiModel, type UiModelSpec } from '../support/ui/index.ts';
import { holdNext, holdNextRpc, stopNode, type HeldCall } from '../support/ui/held-calls.ts';
import { connectWallet, ddexExact, payDdex, unlinkWallets } from '../support/ui/transfers.ts';
import { openWorld, pathUser, seesToast, walletOf, type PortalWorld } from '../support/ui/world.ts';

// The two balances of the wallet panel through the portal: the native one from the
// native-balance function, the DDEX one from the node, each held on its way so 'Loading...' is
// seen and then let go or failed as a stopped gateway or node fails it. What a loaded balance
// must read is asked of the chain itself. The account shown and its payer pay each other, so a
// refresh has a new number to show. A loaded value's copy button puts its exact value on the
// clipboard, or says it could not.

const shown = e2eAccount('uiBalances');
const payer = e2eAccount('uiBalancesPayer');
const LOCAL = e2e().chain.chainId;

type World = PortalWorld & {
  signedIn: boolean;
  tokenConfigured: boolean;
  native: HeldCall | null;
  token: HeldCall | null;
  /** The label of the balance whose copy button was pressed last. */
  copying?: string;
};

const addressOf = (event: AnyEventObject) => (event as { address?: string | null }).address ?? null;
const labelOf = (event: AnyEventObject) =>
  (event as { balance?: string }).balance === 'ddex' ? balanceCopy.token : balanceCopy.native;
const clipboardText = (world: World) => world.page.evaluate(() => navigator.clipboard.readText());
const contextOf = (state: Snapshot) => state.context as { address: string | null; tokenConfigured: boolean };

const refreshButton = (world: World) => button(world.page, portalCopy.refreshBalances);
const nativeText = (world: World) => balanceValue(world.page, balanceCopy.native).textContent();
const tokenText = (world: World) => balanceValue(world.page, balanceCopy.token).textContent();

/** The balances are no longer loading: the refresh button is free again. */
const settled = (world: World) => expect.poll(() => refreshButton(world).isEnabled()).toBe(true);

function take(world: World, which: 'native' | 'token'): HeldCall {
  const held = world[which];
  if (!held) throw new Error(`no ${which} balance request is held`);
  world[which] = null;
  return held;
}

/** Once the chart has left `loading`, a fetch it stopped may have its answer; nobody hears it. */
async function letGo(world: World) {
  for (const which of ['native', 'token'] as const) await world[which]?.release();
  world.native = null;
  world.token = null;
}

const events = {
  'wallet.changed': [
    { type: 'wallet.changed', address: shown.address, chainId: LOCAL },
    { type: 'wallet.changed', address: payer.address, chainId: LOCAL },
    { type: 'wallet.changed', address: null, chainId: null },
  ],
  'xstate.done.actor.fetchNativeBalance': [
    { type: 'xstate.done.actor.fetchNativeBalance', output: { balance: '10000', asset: 'ETH' } },
  ],
  'xstate.error.actor.fetchNativeBalance': [
    { type: 'xstate.error.actor.fetchNativeBalance', error: new Error('Failed to fetch') },
  ],
  'xstate.done.actor.fetchTokenBalance': [
    { type: 'xstate.done.actor.fetchTokenBalance', output: { formatted: '1000000' } },
  ],
  'xstate.error.actor.fetchTokenBalance': [
    { type: 'xstate.error.actor.fetchTokenBalance', error: new Error('HTTP request failed') },
  ],
  'balances.copy': [
    { type: 'balances.copy', balance: 'native' },
    { type: 'balances.copy', balance: 'ddex' },
  ],
  'xstate.done.actor.copyBalance': [{ type: 'xstate.done.actor.copyBalance', output: undefined }],
  'xstate.error.actor.copyBalance': [{ type: 'xstate.error.actor.copyBalance', error: new Error('denied') }],
};

const spec: Omit<UiModelSpec<typeof balancesMachine, World>, 'input' | 'open'> = {
  name: 'balances',
  machine: balancesMachine,
  events,
  // What the panel shows depends on the state and on whose balances they are.
  serializeState: (state) => JSON.stringify([state.value, contextOf(state).address]),

  views: {
    idle: async (world) => {
      if (world.signedIn) {
        await expect.poll(() => nativeText(world)).toBe(balanceCopy.empty);
        await expect.poll(() => tokenText(world)).toBe(balanceCopy.empty);
        await settled(world);
      } else {
        // A visitor without a wallet is shown the prompt, not the panel.
        await expect.poll(() => button(world.page, walletCopy.connectWallet).isEnabled()).toBe(true);
        await expect.poll(() => balanceValue(world.page, balanceCopy.native).count()).toBe(0);
      }
    },
    loading: async (world) => {
      // Both reads are on their way (held), so neither can have been answered.
      await world.native?.arrival();
      await world.token?.arrival();
      await expect.poll(() => nativeText(world)).toBe(balanceCopy.loading);
      await expect.poll(() => tokenText(world)).toBe(balanceCopy.loading);
      expect(await refreshButton(world).isDisabled()).toBe(true);
    },
    loaded: async (world, state) => {
      const { address, tokenConfigured } = contextOf(state);
      await settled(world);
      await expect.poll(() => nativeText(world)).toMatch(READABLE_AMOUNT);
      if (tokenConfigured)
        await expect
          .poll(() => balanceExact(world.page, balanceCopy.token))
          .toBe(await ddexExact(address ?? ''));
      else await expect.poll(() => tokenText(world)).toBe(balanceCopy.configError);
    },
    failed: async (world, state) => {
      await settled(world);
      await seesToast(world.page, balanceCopy.fetchError);
      await expect.poll(() => nativeText(world)).toBe(balanceCopy.error);
      const ddex = contextOf(state).tokenConfigured ? balanceCopy.error : balanceCopy.configError;
      await expect.poll(() => tokenText(world)).toBe(ddex);
    },
  },

  passing: {
    'loaded.copying':
      'the browser clipboard answers at once; what it holds, or the toast, is checked after it',
  },

  arrange: {
    'loaded.copying': async (world, _state, next) => {
      // An empty clipboard, so what the copy puts there is seen.
      await world.page.evaluate(() => navigator.clipboard.writeText(''));
      if (next?.type !== 'xstate.error.actor.copyBalance') return;
      // The browser refuses the clipboard, as it does for a page without the permission; once.
      await world.page.evaluate(() => {
        const { clipboard } = navigator;
        const write = clipboard.writeText.bind(clipboard);
        clipboard.writeText = () => {
          clipboard.writeText = write;
          return Promise.reject(new DOMException('Denied', 'NotAllowedError'));
        };
      });
    },
    // Both reads wait until the next steps let them go or fail them, one at a time.
    loading: async (world) => {
      world.native = await holdNext(
        world.page,
        /\/functions\/v1\/native-balance/,
        'the native balance request',
        (request) => request.method() === 'POST',
      );
      if (world.tokenConfigured) world.token = await holdNextRpc(world.page);
    },
  },

  causes: {
    'wallet.changed': async (world, event, from) => {
      const address = addressOf(event);
      if (address === null) {
        await button(world.page, portalCopy.disconnectWallet).click();
      } else if (contextOf(from).address === null) {
        await connectWallet(world, address, world.signedIn);
      } else {
        // The wallet switches accounts, as when its user picks another one.
        await walletOf(world).emitAccountsChanged([address]);
      }
    },
    'balances.refresh': async (world, _event, from) => {
      if (from.matches('idle')) {
        await refreshButton(world).click();
        await seesToast(world.page, balanceCopy.walletNotConnected.title);
        return;
      }
      // Paid meanwhile, so the refreshed balance differs from the one on show.
      const address = contextOf(from).address ?? '';
      await payDdex(address === shown.address ? payer : shown, address, '1');
      await refreshButton(world).click();
    },
    'balances.copy': async (world, event) => {
      world.copying = labelOf(event);
      await button(world.page, balanceCopy.copy(world.copying)).click();
    },
    'xstate.done.actor.copyBalance': async (world) => {
      const exact = await balanceExact(world.page, world.copying ?? balanceCopy.native);
      await expect.poll(() => clipboardText(world)).toBe(exact);
    },
    'xstate.error.actor.copyBalance': async (world) => {
      await seesToast(world.page, balanceCopy.copyFailed.description);
      expect(await clipboardText(world)).toBe('');
    },
    'xstate.done.actor.fetchNativeBalance': async (world) => take(world, 'native').release(),
    'xstate.done.actor.fetchTokenBalance': async (world) => take(world, 'token').release(),
    // The gateway does not answer, as when it is stopped.
    'xstate.error.actor.fetchNativeBalance': async (world) => {
      await take(world, 'native').fail();
      await settled(world);
      await letGo(world);
    },
    // The node is stopped: the read and the tries the token service makes again all fail.
    'xstate.error.actor.fetchTokenBalance': async (world) => {
      const read = take(world, 'token');
      await read.arrival();
      const node = await stopNode(world.page);
      await read.fail();
      await settled(world);
      await node.start();
      await letGo(world);
    },
  },

  can: (event, state) => {
    const connected = contextOf(state).address;
    if (event.type === 'balances.refresh') return !state.matches('loading');
    // The copy button is beside a value read, and only there.
    if (event.type === 'balances.copy')
      return (
        state.matches({ loaded: 'ready' }) &&
        (labelOf(event) === balanceCopy.native || contextOf(state).tokenConfigured)
      );
    if (event.type !== 'wallet.changed') return true;
    // While both reads are held the panel waits on them; the wallet acts on a settled panel.
    if (state.matches('loading')) return false;
    const address = addressOf(event);
    // Disconnecting needs a wallet; connecting gives its first account; a switch goes to the other.
    if (address === null) return connected !== null;
    return connected === null ? address === shown.address : address !== connected;
  },
};

async function openBalances(variant: 'full' | 'noToken', signedIn: boolean): Promise<World> {
  await unlinkWallets(shown, payer);
  const world = await openWorld({
    variant,
    clock: true,
    wallet: { account: shown.address, otherAccounts: [payer.address], chainId: LOCAL },
    ...(signedIn ? { signedInAs: await pathUser(variant) } : {}),
  });
  return Object.assign(world, { signedIn, tokenConfigured: variant === 'full', native: null, token: null });
}

// With the DDEX contract (the `full` build).
describeUiModel({
  ...spec,
  input: { tokenConfigured: true },
  // Refresh without a wallet needs the panel, which only a signed-in user sees.
  open: (path) => openBalances('full', path.events[0]?.type === 'balances.refresh'),
});

// Without one (the `noToken` build): the DDEX balance reads 'N/A (Config Error)' and only the
// native one is fetched. The other edges are the same as with a contract, driven above.
describeUiModel({
  ...spec,
  input: { tokenConfigured: false },
  open: () => openBalances('noToken', false),
  can: (event, state) =>
    (event.type === 'wallet.changed' && state.matches('idle') && addressOf(event) === shown.address) ||
    event.type.includes('fetchNativeBalance'),
});
