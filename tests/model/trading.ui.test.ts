import { authUser } from '../support/fixtures.ts';
import { expect } from 'vitest';
import { dexCopy } from '../../src/copy/dex.ts';
import { tradingCopy } from '../../src/copy/trading.ts';
import { swapMachine } from '../../src/machines/trading/swap.machine.ts';
import { tradingMachine } from '../../src/machines/trading/trading.machine.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { e2e } from '../support/e2e/context.ts';
import { swapsOnTheSharedPool } from '../support/e2e/pool-lock.ts';
import { withBigIntJson } from '../support/model/recorders.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { pauseClock } from '../support/ui/page-clock.ts';
import {
  blockShown,
  cardButton,
  figure,
  logInElsewhere,
  marketCard,
  mineBlock,
  settle,
  showing,
  swapCard,
  tradingTab,
} from '../support/ui/trading-tab.ts';
import { recordNodeTraffic } from '../support/ui/node-traffic.ts';
import { connectWallet, unlinkWallets } from '../support/ui/transfers.ts';
import { openWorld, walletOf, type PortalWorld } from '../support/ui/world.ts';

// The Trading tab's root through the portal: it carries a new block from the market to the swap
// form, the page's wallet and session to the form, and a swap mined to the portal. Each step is
// caused as the world causes it (a block mined on the local chain, the wallet disconnected, a
// log-in, a buy through uiTrading's wallet) and checked where a user sees its effect: the form
// re-quotes on the block, asks for a wallet, keeps its form after the log-in, shows the swap's
// outcome. The page's clock is paused once the tab is shown, so the watch polls only when a step
// moves it on.

const trader = e2eAccount('uiTrading');
const { chainId: LOCAL } = e2e().chain;
const AMOUNT = '0.01';
/** The swap form's pause after typing before it quotes. */
const QUOTE_DEBOUNCE_MS = Number(swapMachine.implementations.delays['quoteDebounce']);

type World = PortalWorld & {
  /** What the step that was just caused must have shown, checked by the view. */
  effect: (() => Promise<void>) | null;
};

const see = (world: World, what: string, locator: ReturnType<typeof cardButton>) =>
  settle(world.page, what, () => showing(locator));

/** The form with an amount quoted, ready to swap. */
async function quoted(world: World): Promise<void> {
  await swapCard(world.page).getByLabel(dexCopy.youPay, { exact: true }).fill(AMOUNT);
  await world.page.clock.fastForward(QUOTE_DEBOUNCE_MS);
  await see(world, 'the Swap button', cardButton(world.page, dexCopy.swap));
}

swapsOnTheSharedPool();

withBigIntJson(() =>
  describeUiModel({
    name: 'trading',
    machine: tradingMachine,
    input: { expectedChainId: LOCAL, account: trader.address, chainId: LOCAL, signedIn: false },
    events: {
      'market.block': [{ type: 'market.block', blockNumber: 6n }],
      'wallet.changed': [{ type: 'wallet.changed', address: null, chainId: null }],
      'session.changed': [{ type: 'session.changed', user: authUser('trader') }],
      'swap.confirmed': [
        { type: 'swap.confirmed', hash: `0x${'cd'.repeat(32)}`, side: 'buy', amountIn: 1n, amountOut: 1n },
      ],
    },
    reasons: {
      'trading --swap.recorded#0--> (stays)':
        "this world's trader swaps as a visitor (its swaps are the shared pool's, and recording needs an account); a signed-in user's swap joining the history is trading.e2e's",
    },

    async open() {
      await unlinkWallets(trader);
      const world: World = Object.assign(
        await openWorld({ clock: true, wallet: { account: trader, chainId: LOCAL } }),
        { effect: null },
      );
      recordNodeTraffic(world.page);
      await connectWallet(world, trader.address, false);
      await tradingTab(world.page).click();
      await cardButton(world.page, dexCopy.enterAmount).waitFor();
      await marketCard(world.page).getByText(dexCopy.reserves, { exact: true }).waitFor();
      await pauseClock(world.page);
      return world;
    },

    views: {
      // Both cards run side by side, with the market live, whatever the step.
      '*': async (world) => {
        await see(world, 'the market', figure(marketCard(world.page), dexCopy.reserves));
        expect(await swapCard(world.page).count()).toBe(1);
        await world.effect?.();
        world.effect = null;
      },
    },

    causes: {
      // The market tells the block to the trading machine, which hands it to the form: a quote
      // on show is asked for again.
      'market.block': async (world) => {
        await quoted(world);
        const mined = await mineBlock();
        world.effect = async () => {
          await settle(
            world.page,
            `block ${mined}`,
            async () => ((await blockShown(world.page)) ?? -1n) >= mined,
          );
          await see(world, 'the Swap button again', cardButton(world.page, dexCopy.swap));
        };
      },
      // The user disconnects the site in the wallet: the form asks for one.
      'wallet.changed': async (world) => {
        await walletOf(world).emitAccountsChanged([]);
        world.effect = async () => {
          await see(world, 'the connect button', cardButton(world.page, dexCopy.connectWallet));
          expect(await world.page.getByText(tradingCopy.noWallet, { exact: true }).count()).toBe(1);
        };
      },
      // A log-in keeps what the form holds.
      'session.changed': async (world) => {
        await quoted(world);
        // Every path starts with the wallet connected, and this is its only step.
        await logInElsewhere(world, true);
        world.effect = async () => {
          expect(await world.page.getByText(tradingCopy.notLoggedIn, { exact: true }).count()).toBe(0);
          await see(world, 'the Swap button', cardButton(world.page, dexCopy.swap));
          expect(await swapCard(world.page).getByLabel(dexCopy.youPay, { exact: true }).inputValue()).toBe(
            AMOUNT,
          );
        };
      },
      // A buy through the wallet, mined: the form says so with the amounts received.
      'swap.confirmed': async (world) => {
        await quoted(world);
        await cardButton(world.page, dexCopy.swap).click();
        const confirmed = swapCard(world.page).getByRole('heading', {
          name: dexCopy.swapConfirmed,
          exact: true,
        });
        await settle(world.page, dexCopy.swapConfirmed, () => showing(confirmed));
        world.effect = async () => {
          expect(await figure(swapCard(world.page), dexCopy.youPaid).textContent()).toBe(
            dexCopy.amountOf(AMOUNT, dexCopy.eth),
          );
        };
      },
    },
  }),
);
