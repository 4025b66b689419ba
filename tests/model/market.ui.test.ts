import { expect } from 'vitest';
import { dexCopy } from '../../src/copy/dex.ts';
import { tokenCopy } from '../../src/copy/index.ts';
import { marketMachine, type MarketLoad } from '../../src/machines/trading/market.machine.ts';
import { DexServiceError } from '../../src/services/dex/types.ts';
import { e2e } from '../support/e2e/context.ts';
import { withBigIntJson } from '../support/model/recorders.ts';
import type { Snapshot } from '../support/model/paths.ts';
import { stopNode } from '../support/ui/held-calls.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { pauseClock } from '../support/ui/page-clock.ts';
import { gateRequests, type RequestGate } from '../support/ui/stack-requests.ts';
import {
  blockShown,
  figure,
  marketCard,
  mineBlock,
  settle,
  showing,
  tradingTab,
} from '../support/ui/trading-tab.ts';
import { recordNodeTraffic } from '../support/ui/node-traffic.ts';
import { openWorld, type PortalWorld } from '../support/ui/world.ts';

// The DEX Trading tab's market card through the portal, as a visitor without a wallet sees it.
// The tab's calls to the node are held while the market loads, then let go or refused as a
// stopped node refuses them; the page's clock is paused once the tab is shown, so the watch polls
// and the retry's back-off fires only when a step moves it on. A new block is an empty block
// mined on the local chain: the watch tells the block and the pair's activity in it (none) at
// once, so both events have that one cause. Nobody trades here.

const { rpcUrl } = e2e().chain;
const toNode = (url: URL) => url.href.startsWith(rpcUrl);

const ZERO = `0x${'0'.repeat(40)}` as const;
/** The model's load (its figures are not the page's: the views read the page's against the chain's form). */
const loaded: MarketLoad = {
  market: { router: ZERO, factory: ZERO, weth: ZERO, pair: ZERO, token: ZERO, feeBps: 30 },
  pool: { reserveEth: 1n, reserveToken: 1n, blockNumber: 1n },
  history: { trades: [], prices: [] },
};

type World = PortalWorld & {
  /** The node's answers the loading market waits on. */
  gate: RequestGate | null;
  /** The node refusing the page's calls, until started again. */
  down: { start(): Promise<void> } | null;
  /** The last block a step mined: the card must show it or a later one. */
  mined: bigint | null;
};

const holdNode = (world: World) =>
  gateRequests(world.page, toNode, { all: true, matches: (request) => request.method() === 'POST' });

function heldNode(world: World): RequestGate {
  if (!world.gate) throw new Error('the node is not held');
  const { gate } = world;
  world.gate = null;
  return gate;
}

const card = (world: World) => marketCard(world.page);
const lostWarning = (world: World) => card(world).getByText(dexCopy.marketLost, { exact: true });
const failedAlert = (world: World) => card(world).getByRole('alert');
const reserves = (world: World) => figure(card(world), dexCopy.reserves);

/** A block mined, and the paused clock moved on until the watch has polled it and the card shows it. */
async function newBlock(world: World): Promise<void> {
  await world.down?.start();
  world.down = null;
  const mined = await mineBlock();
  world.mined = mined;
  await settle(world.page, `block ${mined}`, async () => ((await blockShown(world.page)) ?? -1n) >= mined);
}

withBigIntJson(() =>
  describeUiModel({
    name: 'market',
    // Its parent is the trading machine in the portal; the graph gives it a stand-in parent.
    machine: marketMachine,
    events: {
      'xstate.done.actor.loadMarket': [{ type: 'xstate.done.actor.loadMarket', output: loaded }],
      // Only the node that stops answering: the e2e builds all have a router and its pair.
      'xstate.error.actor.loadMarket': [
        { type: 'xstate.error.actor.loadMarket', error: new DexServiceError({ code: 'rpc-unavailable' }) },
      ],
      'market.block': [{ type: 'market.block', blockNumber: 1n }],
      'market.activity': [
        {
          type: 'market.activity',
          history: { trades: [], prices: [] },
          pool: { reserveEth: 1n, reserveToken: 1n, blockNumber: 1n },
        },
      ],
    },
    // The card shows the state, and in `failed` the words of what failed.
    serializeState: (state: Snapshot) =>
      JSON.stringify([state.value, state.matches('failed') ? state.context.problem : null]),

    async open() {
      const world: World = Object.assign(await openWorld({ clock: true }), {
        gate: null,
        down: null,
        mined: null,
      });
      recordNodeTraffic(world.page);
      world.gate = await holdNode(world);
      await tradingTab(world.page).click();
      await card(world).getByText(dexCopy.marketLoading, { exact: true }).waitFor();
      await world.gate.arrived;
      // The tab's parts are on screen; from here on its timers fire only when a step moves the clock.
      await pauseClock(world.page);
      return world;
    },

    views: {
      loading: async (world) => {
        await card(world).getByRole('status').getByText(dexCopy.marketLoading, { exact: true }).waitFor();
        expect(await reserves(world).count()).toBe(0);
        expect(await failedAlert(world).count()).toBe(0);
      },
      live: async (world) => {
        // The pool's reserves in both assets, its price both ways, and the block they are as of.
        await expect.poll(() => reserves(world).textContent()).toMatch(/^\d+(\.\d+)? ETH\d+(\.\d+)? DDEX$/);
        const price = await figure(card(world), dexCopy.price).textContent();
        expect(price).toMatch(/^1 DDEX = \d+(\.\d+)? ETH1 ETH = \d+(\.\d+)? DDEX$/);
        expect(await blockShown(world.page)).toBeGreaterThanOrEqual(world.mined ?? 0n);
        expect(await card(world).getByText(dexCopy.marketLoading, { exact: true }).count()).toBe(0);
        expect(await failedAlert(world).count()).toBe(0);
      },
      'live.following': async (world) => {
        expect(await lostWarning(world).count()).toBe(0);
      },
      'live.lost': async (world) => {
        await card(world).getByRole('status').getByText(dexCopy.marketLost, { exact: true }).waitFor();
      },
      failed: async (world, state) => {
        const alert = failedAlert(world);
        await alert.getByText(dexCopy.marketFailed, { exact: true }).waitFor();
        await alert.getByText(state.context.problem ?? tokenCopy.rpcUnavailable, { exact: true }).waitFor();
        await alert.getByText(dexCopy.marketRetrying, { exact: true }).waitFor();
        expect(await alert.getByRole('button', { name: dexCopy.retry, exact: true }).isEnabled()).toBe(true);
        expect(await reserves(world).count()).toBe(0);
      },
    },

    arrange: {
      // Loading again (a retry): the node is back, and its answers wait for the next step.
      loading: async (world) => {
        await world.down?.start();
        world.down = null;
        world.gate = await holdNode(world);
      },
    },

    causes: {
      'xstate.done.actor.loadMarket': async (world) => {
        await heldNode(world).release();
        await settle(world.page, 'the loaded market', () => showing(reserves(world)));
      },
      // The node stops: the held calls and the tries the service makes again are all refused.
      'xstate.error.actor.loadMarket': async (world) => {
        world.down = await stopNode(world.page);
        await heldNode(world).fail();
        await settle(world.page, 'the failed market', () => showing(failedAlert(world)));
      },
      'market.retry': async (world) => {
        await failedAlert(world).getByRole('button', { name: dexCopy.retry, exact: true }).click();
      },
      'market.block': newBlock,
      'market.activity': newBlock,
      // The node stops answering the watch's next poll.
      'market.lost': async (world) => {
        world.down = await stopNode(world.page);
        await settle(world.page, 'the lost connection', () => showing(lostWarning(world)));
      },
    },

    // The node comes back with a new block: the watch tells the block first, which ends `lost`.
    can: (event, state) => event.type !== 'market.activity' || !state.matches({ live: 'lost' }),

    reasons: {
      'market.unavailable':
        'no e2e build has a router without its pair or an address without a router: the noToken build has no market at all',
      'market.loading --xstate.error.actor.loadMarket#0--> market.unavailable':
        'every e2e build has the stack’s router and its DDEX/WETH pair (the noToken build has no market at all), so no load finds neither',
    },
  }),
);
