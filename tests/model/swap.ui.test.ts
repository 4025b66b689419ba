import type { Locator } from 'playwright-core';
import { createWalletClient, erc20Abi, http, maxUint256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { dexCopy } from '../../src/copy/dex.ts';
import { amountIn, highSlippageWords } from '../../src/machines/trading/swap-checks.ts';
import type { SwapContext } from '../../src/machines/trading/swap-types.ts';
import { swapMachine } from '../../src/machines/trading/swap.machine.ts';
import { DexServiceError } from '../../src/services/dex/types.ts';
import { e2eAccount } from '../support/e2e/accounts.ts';
import { e2e } from '../support/e2e/context.ts';
import { swapsOnTheSharedPool } from '../support/e2e/pool-lock.ts';
import { withBigIntJson } from '../support/model/recorders.ts';
import type { Snapshot } from '../support/model/paths.ts';
import { holdNext, stopNode, type HeldCall } from '../support/ui/held-calls.ts';
import { describeUiModel } from '../support/ui/index.ts';
import { pauseClock } from '../support/ui/page-clock.ts';
import { logToasts, takeToast } from '../support/e2e/toast-log.ts';
import { gateRequests, type RequestGate } from '../support/ui/stack-requests.ts';
import {
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

// The Trading tab's swap form through the portal, with uiSwap's mock wallet on the local chain
// and its real DDEX/WETH pool. The tab's calls to the node (viem batches: the mock wallet's own
// calls are single requests and pass) are held while the form quotes, builds a swap or awaits a
// receipt, then let go or refused as a stopped node refuses them; the wallet's prompt is held
// while it is asked, then answered as a user or a wallet would. The page's clock is paused once
// the tab is shown: the quote's debounce and the watch's polls run only when a step moves it.
//
// What the page decides from the chain (the balance, the allowance, the pool) must be the branch
// the model takes: each path starts with the router's allowance at zero, the amounts are chosen
// so that the account's real holdings decide (0.01 fits, 2,000,000 exceeds both balances, one
// wei of DDEX is worth no ETH), and `can` keeps the quote's payload to the allowance the path
// has really given.

const trader = e2eAccount('uiSwap');
const { rpcUrl, chainId: LOCAL, tokenAddress, uniswap } = e2e().chain;
const MAINNET = 1;
const E18 = 10n ** 18n;
const HASH = `0x${'cd'.repeat(32)}` as const;
const APPROVAL_HASH = `0x${'ab'.repeat(32)}` as const;
const FITS = '0.01';
const TOO_MUCH = '2000000';
const ONE_WEI = '0.000000000000000001';
/** Enough for the call's intrinsic cost, not for the router's swap: mined, and it reverts. */
const TOO_LITTLE_GAS = 30_000;
/** What an extension says when it fails inside (MetaMask's -32603). */
const WALLET_INTERNAL_ERROR = 'Internal JSON-RPC error.';
/** The DEX service's wait for a receipt (dex-service.ts DEFAULT_CONFIRMATION_TIMEOUT_MS). */
const CONFIRMATION_TIMEOUT_MS = 120_000;

type World = PortalWorld & {
  /** The tab's node calls the current state waits on, oldest first (a step may hold the next state's). */
  gates: RequestGate[];
  /** The node refusing the page's calls, until started again. */
  down: { start(): Promise<void> } | null;
  /** The swap's history row on its way to the gateway. */
  record: HeldCall | null;
  /** The toast the step that left a state told the user, checked by the next view. */
  told: string | null;
};

const contextOf = (state: Snapshot) => state.context as SwapContext;
const errorOf = (event: AnyEventObject) => (event as { error?: unknown }).error;
const codeOf = (event: AnyEventObject) => {
  const error = errorOf(event) as { code?: unknown; problem?: { code?: unknown } } | undefined;
  return String(error?.problem?.code ?? error?.code ?? '');
};
const addressOf = (event: AnyEventObject) => (event as { address?: string | null }).address ?? null;
const chainOf = (event: AnyEventObject) => (event as { chainId?: number | null }).chainId ?? null;

/** The router's allowance back to zero, as at the start of every path. */
async function clearAllowance(): Promise<void> {
  const wallet = createWalletClient({
    account: privateKeyToAccount(trader.privateKey),
    transport: http(rpcUrl, { retryCount: 0 }),
  });
  await wallet.writeContract({
    address: tokenAddress,
    abi: erc20Abi,
    functionName: 'approve',
    args: [uniswap.router, 0n],
    chain: null,
  });
}

/** ERC-20 balanceOf: what a sale is checked against. */
const BALANCE_OF = '0x70a08231';
type RpcCall = { method?: unknown; params?: unknown };
const dataOf = ({ params }: RpcCall) =>
  Array.isArray(params) ? (params[0] as { data?: unknown } | undefined)?.data : undefined;
/**
 * What a state waits on, as batches of the tab's calls (the mock wallet's are single requests):
 * a quote reads the account's ETH with it, a swap's check its ETH or DDEX, a confirmation the
 * receipt. The market's watch (blocks, logs, reserves) and the allowance read after an approval
 * pass, so a new block is seen and an approval confirmed while the next quote is held.
 */
const waits = {
  quote: ({ method }: RpcCall) => method === 'eth_getBalance',
  check: (call: RpcCall) => {
    const data = dataOf(call);
    return (
      call.method === 'eth_getBalance' ||
      (call.method === 'eth_call' && typeof data === 'string' && data.startsWith(BALANCE_OF))
    );
  },
  receipt: ({ method }: RpcCall) => method === 'eth_getTransactionReceipt',
};

async function holdNode(world: World, on: keyof typeof waits): Promise<void> {
  const gate = await gateRequests(world.page, (url) => url.href.startsWith(rpcUrl), {
    all: true,
    matches: (request) => {
      const body: unknown = request.method() === 'POST' ? request.postDataJSON() : null;
      return Array.isArray(body) && (body as RpcCall[]).some(waits[on]);
    },
  });
  world.gates.push(gate);
}

/** The wallet shows a prompt the user has not answered (the page asked it; the prompt is held). */
async function promptOpen(world: World): Promise<boolean> {
  const wallet = walletOf(world);
  const sends = (methods: string[]) => methods.filter((method) => method === 'eth_sendTransaction').length;
  return sends(await wallet.requests()) > sends(await wallet.answered());
}

function takeGate(world: World): RequestGate {
  const gate = world.gates.shift();
  if (!gate) throw new Error('the node is not held');
  return gate;
}

/** The node stops: what it holds and every later call of the page is refused until `nodeBack`. */
async function nodeDown(world: World): Promise<void> {
  world.down = await stopNode(world.page);
  for (const gate of world.gates.splice(0)) await gate.fail();
}

async function nodeBack(world: World): Promise<void> {
  await world.down?.start();
  world.down = null;
}

/** On a quote, a new block's quote asked for in the background and not answered yet. */
const requoting = (state: Snapshot) =>
  state.matches({ form: 'quoted' }) && Boolean((state.children as Record<string, unknown>)['quote']);

const releaseWallet = (world: World) => world.page.evaluate(() => window.__mockWalletRelease?.());
const card = (world: World) => swapCard(world.page);
const field = (world: World, label: string) => card(world).getByLabel(label, { exact: true });

/** The paused clock moved on until `locator` shows. */
const sees = (world: World, what: string, locator: Locator) =>
  settle(world.page, what, () => showing(locator));

/** The form's one button reads `label`, enabled or not. */
async function button(world: World, label: string, enabled: boolean): Promise<void> {
  const found = cardButton(world.page, label);
  await sees(world, `the button '${label}'`, found);
  expect(await found.isEnabled()).toBe(enabled);
}

const heading = (world: World, title: string) =>
  sees(world, title, card(world).getByRole('heading', { name: title, exact: true }));
const warning = (world: World, text: string) =>
  sees(world, text, card(world).getByText(text, { exact: true }));
/** The page announced this toast (a newer one, such as a live notification, may have replaced it). */
const toastOn = (world: World, text: string) =>
  settle(world.page, `the toast '${text}'`, () => takeToast(world.page, text));

function outcomeButton(state: Snapshot): string {
  return state.matches('confirmed') ? dexCopy.newSwap : dexCopy.backToForm;
}

async function hashShown(world: World): Promise<void> {
  await sees(
    world,
    'the hash',
    card(world)
      .getByText(/^Transaction hash: 0x[0-9a-f]{64}/)
      .first(),
  );
}

swapsOnTheSharedPool();

withBigIntJson(() =>
  describeUiModel({
    name: 'swap',
    // Its parent is the trading machine in the portal; the graph gives it a stand-in parent.
    machine: swapMachine,
    input: { expectedChainId: LOCAL, account: trader.address, chainId: LOCAL, signedIn: false },
    events: events(),
    // The views read the state and what was typed; the holdings decide, through the guards, which.
    serializeState: (state) => {
      const c = contextOf(state);
      return JSON.stringify([
        state.value,
        c.side,
        c.amountText,
        c.slippageText,
        c.deadlineMinutes,
        c.unlimitedApproval,
        c.account,
        c.chainId,
        c.signedIn,
        String(c.holdings?.allowance ?? 0n),
        c.order?.side ?? null,
        // A quote asked for in the background on a new block, not answered yet.
        Boolean((state.children as Record<string, unknown>)['quote']) && state.matches({ form: 'quoted' }),
      ]);
    },

    async open() {
      await clearAllowance();
      await unlinkWallets(trader);
      const world: World = Object.assign(
        await openWorld({
          clock: true,
          wallet: { account: trader, knownChainIds: [LOCAL, MAINNET] },
        }),
        { gates: [], down: null, record: null, told: null },
      );
      recordNodeTraffic(world.page);
      await connectWallet(world, trader.address, false);
      await tradingTab(world.page).click();
      await cardButton(world.page, dexCopy.enterAmount).waitFor();
      await marketCard(world.page).getByText(dexCopy.reserves, { exact: true }).waitFor();
      await pauseClock(world.page);
      await logToasts(world.page);
      return world;
    },

    views: {
      '*': async (world) => {
        if (world.told === null) return;
        await toastOn(world, world.told);
        world.told = null;
      },
      noWallet: (world) => button(world, dexCopy.connectWallet, true),
      wrongNetwork: async (world) => {
        const name = new RegExp(`^${dexCopy.switchNetwork('(.+)')}$`);
        const found = card(world).getByRole('button', { name });
        await sees(world, 'the switch button', found);
        expect(await found.isEnabled()).toBe(true);
      },
      'form.empty': async (world) => {
        await button(world, dexCopy.enterAmount, false);
        expect(await field(world, dexCopy.youPay).inputValue()).toBe('');
      },
      'form.invalid': async (world, state) => {
        await button(world, dexCopy.swap, false);
        await warning(world, contextOf(state).problem ?? '');
      },
      // The pause before a quote: no clock moves here, or the quote would start.
      'form.debouncing': async (world) => {
        const found = cardButton(world.page, dexCopy.quoting);
        await expect.poll(() => found.getAttribute('aria-busy')).toBe('true');
        expect(await found.isDisabled()).toBe(true);
      },
      'form.quoting': async (world) => {
        await button(world, dexCopy.quoting, false);
        expect(await cardButton(world.page, dexCopy.quoting).getAttribute('aria-busy')).toBe('true');
      },
      'form.quoted': async (world) => {
        // The router's quote and what it is worth after the slippage tolerance.
        const received = field(world, dexCopy.youReceive);
        await settle(world.page, 'the quote', async () => /^\d+(\.\d+)?$/.test(await received.inputValue()));
        await sees(world, 'the minimum received', figure(card(world), dexCopy.minimumReceived));
        expect(await figure(card(world), dexCopy.poolFee).textContent()).toBe(dexCopy.percent('0.3'));
      },
      'form.quoted.insufficientBalance': (world, state) =>
        button(world, dexCopy.insufficientBalance(contextOf(state).side === 'buy' ? 'ETH' : 'DDEX'), false),
      'form.quoted.slippageRefused': async (world) => {
        await warning(world, dexCopy.slippageRefused);
        await button(world, dexCopy.swap, false);
      },
      'form.quoted.needsApproval': async (world) => {
        await warning(world, dexCopy.needsApproval);
        await button(world, dexCopy.approve, true);
      },
      'form.quoted.ready': (world) => button(world, dexCopy.swap, true),
      // The question in place of 'Swap', over the locked form: the tolerance typed and the minimum
      // received under the quote, two answers, and nothing asked of the wallet yet.
      confirmingHighSlippage: async (world, state) => {
        await heading(world, highSlippageWords(contextOf(state)).title);
        const minimum = await figure(card(world), dexCopy.minimumReceived).textContent();
        await warning(world, dexCopy.highSlippageDescription(minimum ?? ''));
        await button(world, dexCopy.confirmHighSlippage, true);
        await button(world, dexCopy.cancel, true);
        expect(await cardButton(world.page, dexCopy.swap).count()).toBe(0);
        expect(await field(world, dexCopy.slippageTolerance).isDisabled()).toBe(true);
        expect(await promptOpen(world)).toBe(false);
      },
      'form.insufficientLiquidity': async (world) => {
        await warning(world, dexCopy.insufficientLiquidity);
        await button(world, dexCopy.insufficientLiquidityShort, false);
      },
      'form.quoteFailed': async (world, state) => {
        await button(world, dexCopy.quoteFailed, false);
        await warning(world, contextOf(state).problem ?? '');
      },
      'approving.waitingForWallet': async (world) => {
        await settle(world.page, 'the wallet’s prompt', () => promptOpen(world));
        await button(world, dexCopy.waitingForWallet, false);
      },
      'approving.pending': async (world) => {
        await button(world, dexCopy.approving, false);
        await hashShown(world);
      },
      'swapping.preparing': (world) => button(world, dexCopy.waitingForWallet, false),
      'swapping.waitingForWallet': async (world) => {
        await settle(world.page, 'the wallet’s prompt', () => promptOpen(world));
        await button(world, dexCopy.waitingForWallet, false);
      },
      'swapping.pending': async (world) => {
        await button(world, dexCopy.swapping, false);
        await hashShown(world);
      },
      confirmed: async (world, state) => {
        await heading(world, dexCopy.swapConfirmed);
        await sees(world, 'what was paid', figure(card(world), dexCopy.youPaid));
        expect(await figure(card(world), dexCopy.youReceived).textContent()).toMatch(
          /^\d+(\.\d+)? (ETH|DDEX)$/,
        );
        await hashShown(world);
        await button(world, outcomeButton(state), true);
      },
      rejected: async (world, state) => {
        await heading(world, dexCopy.swapRejected.title);
        await warning(world, dexCopy.swapRejected.description);
        await button(world, outcomeButton(state), true);
      },
      reverted: async (world, state) => {
        await heading(world, dexCopy.swapReverted);
        await hashShown(world);
        await button(world, outcomeButton(state), true);
      },
      failed: async (world, state) => {
        await heading(world, dexCopy.swapFailed);
        await button(world, outcomeButton(state), true);
      },
    },

    passing: {
      'approving.preparing':
        'the approval is built from the market the tab has already read: no request to hold',
      'confirmed.deciding': 'an eventless choice between recording the swap and done',
    },

    arrange: {
      'form.quoting': async (world) => {
        await nodeBack(world);
        await holdNode(world, 'quote');
      },
      'swapping.preparing': async (world) => {
        await holdNode(world, 'check');
      },
      // The approval is built at once (approving.preparing passes): the prompt is held from the click.
      'approving.preparing': async (world) => void (await walletOf(world).holdNextOf('eth_sendTransaction')),
      'swapping.waitingForWallet': async (world) =>
        void (await walletOf(world).holdNextOf('eth_sendTransaction')),
      'approving.pending': async (world) => {
        await holdNode(world, 'receipt');
      },
      'swapping.pending': async (world, _state, next) => {
        if (next?.type === 'xstate.error.actor.confirmSwap' && codeOf(next) === 'reverted')
          await walletOf(world).sendWithGasNext(TOO_LITTLE_GAS);
        await holdNode(world, 'receipt');
      },
      'confirmed.recording': async (world) => {
        world.record = await holdNext(
          world.page,
          /\/functions\/v1\/record-transaction/,
          'the swap’s history row',
          (request) => request.method() === 'POST',
        );
      },
    },

    causes: {
      'wallet.changed': async (world, event, from) => {
        const wallet = walletOf(world);
        if (addressOf(event) === null) {
          // The user disconnects the site in the wallet.
          await wallet.emitAccountsChanged([]);
        } else if (chainOf(event) !== LOCAL) {
          await wallet.emitChainChanged(MAINNET);
        } else if (from.matches('noWallet')) {
          // The user connects again from the card and picks the account in the wallet's prompt
          // (the mock wallet answers with the accounts it holds, which the disconnect emptied).
          await wallet.setAccounts([trader.address]);
          await cardButton(world.page, dexCopy.connectWallet).click();
        } else {
          await card(world)
            .getByRole('button', { name: new RegExp(`^${dexCopy.switchNetwork('(.+)')}$`) })
            .click();
        }
      },
      'session.changed': async (world, _event, from) => {
        await logInElsewhere(world, contextOf(from).account !== null);
      },
      'swap.side': async (world, event) => {
        const side = (event as unknown as { side: 'buy' | 'sell' }).side;
        await card(world).getByRole('radio', { name: dexCopy[side], exact: true }).check();
      },
      'swap.amount': async (world, event) => {
        await field(world, dexCopy.youPay).fill((event as unknown as { text: string }).text);
      },
      'swap.slippage': async (world, event) => {
        await field(world, dexCopy.slippageTolerance).fill((event as unknown as { text: string }).text);
      },
      'swap.deadline': async (world, event) => {
        await field(world, dexCopy.deadline).fill(String((event as unknown as { minutes: number }).minutes));
      },
      'swap.unlimited': async (world) => {
        await card(world).getByRole('checkbox', { name: dexCopy.allowUnlimited, exact: true }).check();
      },
      'market.block': async (world, _event, from) => {
        // A new block on the chain, polled by the market's watch as the clock moves on.
        await nodeBack(world);
        if (from.matches({ form: 'quoted' })) {
          // On a quote, the form asks again in the background, keeping the quote on show.
          await holdNode(world, 'quote');
          const gate = world.gates.at(-1);
          await mineBlock();
          await settle(world.page, 'a new quote asked for', async () => (gate?.held() ?? 0) > 0);
          return;
        }
        await mineBlock();
        await sees(world, 'a new quote under way', cardButton(world.page, dexCopy.quoting));
      },
      'xstate.done.actor.quote': async (world) => takeGate(world).release(),
      'xstate.error.actor.quote': async (world, event) => {
        if (codeOf(event) === 'insufficient-liquidity') await takeGate(world).release();
        else await nodeDown(world);
      },
      'swap.approve': async (world) => {
        await cardButton(world.page, dexCopy.approve).click();
      },
      'swap.submit': async (world) => {
        await cardButton(world.page, dexCopy.swap).click();
      },
      'swap.confirmSlippage': async (world) => {
        await cardButton(world.page, dexCopy.confirmHighSlippage).click();
      },
      'swap.cancel': async (world) => {
        await cardButton(world.page, dexCopy.cancel).click();
      },
      'xstate.done.actor.sendApproval': releaseWallet,
      'xstate.error.actor.sendApproval': async (world, event) => {
        const wallet = walletOf(world);
        if (codeOf(event) === 'rejected') {
          world.told = dexCopy.approvalRejected.title;
          await wallet.rejectNextOf('eth_sendTransaction', 4001);
        } else {
          world.told = dexCopy.approvalFailed;
          await wallet.rejectNextOf('eth_sendTransaction', -32603, WALLET_INTERNAL_ERROR);
        }
        await releaseWallet(world);
      },
      'xstate.done.actor.confirmApproval': async (world) => {
        world.told = dexCopy.approved;
        await takeGate(world).release();
      },
      // The node stops answering, and the wait for the receipt runs out.
      'xstate.error.actor.confirmApproval': async (world) => {
        world.told = dexCopy.approvalFailed;
        await nodeDown(world);
        await world.page.clock.fastForward(CONFIRMATION_TIMEOUT_MS);
      },
      'xstate.done.actor.swapCall': async (world) => takeGate(world).release(),
      // The node stops while the swap is checked against the balance.
      'xstate.error.actor.swapCall': nodeDown,
      'xstate.done.actor.sendSwap': releaseWallet,
      'xstate.error.actor.sendSwap': async (world, event) => {
        const wallet = walletOf(world);
        if (codeOf(event) === 'rejected') await wallet.rejectNextOf('eth_sendTransaction', 4001);
        else await wallet.rejectNextOf('eth_sendTransaction', -32603, WALLET_INTERNAL_ERROR);
        await releaseWallet(world);
      },
      'xstate.done.actor.confirmSwap': async (world) => takeGate(world).release(),
      'xstate.error.actor.confirmSwap': async (world, event) => {
        // Sent with too little gas (arranged): mined, and the receipt says it reverted.
        if (codeOf(event) === 'reverted') {
          await takeGate(world).release();
          return;
        }
        await nodeDown(world);
        await world.page.clock.fastForward(CONFIRMATION_TIMEOUT_MS);
      },
      'xstate.done.actor.recordSwap': async (world) => {
        await world.record?.release();
        world.record = null;
      },
      'xstate.error.actor.recordSwap': async (world) => {
        world.told = dexCopy.swapNotSaved;
        await world.record?.fail();
        world.record = null;
      },
      'swap.dismiss': async (world, _event, from) => {
        await nodeBack(world);
        await cardButton(world.page, outcomeButton(from)).click();
      },
    },

    can: (event, state) => {
      const c = contextOf(state);
      // While a background quote is held, only its answer comes next (its gate is the oldest).
      if (requoting(state) && !event.type.startsWith('xstate.') && event.type !== 'wallet.changed')
        return false;
      if (requoting(state) && event.type === 'wallet.changed') return false;
      const busy = state.matches('approving') || state.matches('swapping');
      switch (event.type) {
        case 'wallet.changed': {
          const address = addressOf(event);
          // While a transaction is under way, only once it is sent (the prompt is not disturbed).
          if (busy && !state.matches({ approving: 'pending' }) && !state.matches({ swapping: 'pending' }))
            return false;
          if (address === null) return c.account !== null;
          if (chainOf(event) !== LOCAL) return c.account !== null && c.chainId === LOCAL;
          // Back on the local chain with the card's own button: 'Switch Network', or 'Connect your
          // wallet to swap' once the wallet has disconnected the site.
          return state.matches('wrongNetwork') || state.matches('noWallet');
        }
        case 'session.changed':
          return !c.signedIn && state.matches('form');
        case 'swap.unlimited':
          return c.side === 'sell' && !c.unlimitedApproval;
        case 'swap.side':
          return (event as unknown as { side: string }).side !== c.side;
        case 'swap.amount':
          return (event as unknown as { text: string }).text !== c.amountText;
        case 'swap.slippage':
          return (event as unknown as { text: string }).text !== c.slippageText;
        case 'swap.deadline':
          return (event as unknown as { minutes: number }).minutes !== c.deadlineMinutes;
        case 'xstate.done.actor.quote': {
          if (c.side === 'sell' && c.amountText === ONE_WEI) return false;
          const given = (event as unknown as { output: { holdings: { allowance: bigint } } }).output.holdings;
          return given.allowance === (c.holdings?.allowance ?? 0n);
        }
        case 'xstate.error.actor.quote':
          // One wei of DDEX is worth no ETH; anything else is quoted, unless the node is down.
          return codeOf(event) === 'insufficient-liquidity'
            ? c.side === 'sell' && c.amountText === ONE_WEI
            : true;
        case 'xstate.done.actor.confirmApproval': {
          const output = (event as unknown as { output: bigint }).output;
          return output === (c.unlimitedApproval ? maxUint256 : (amountIn(c) ?? 0n));
        }
        case 'swap.dismiss':
          // A sale spends the exact allowance the model still holds: the path ends there.
          return !(state.matches('confirmed') && c.order?.side === 'sell' && !c.unlimitedApproval);
        case 'market.block':
          return !busy && !requoting(state);
        default:
          return true;
      }
    },

    reasons: {
      'swap.form.quoted --xstate.error.actor.quote#0--> swap.form.insufficientLiquidity':
        'a quote on show means the pool fills the amount; refusing it on the next block would need the shared pool drained, which every other trading test relies on',
    },

    notUiReachable: {
      'xstate.error.actor.approvalCall':
        'the approval is encoded from the market the tab has already read: nothing can fail',
    },
  }),
);

function events(): Record<string, AnyEventObject[]> {
  const held = (allowance: bigint) => ({ eth: 10_000n * E18, token: 1_000_000n * E18, allowance });
  const quote = {
    side: 'buy',
    amountIn: E18 / 100n,
    amountOut: 49n * E18,
    priceImpactBps: 10,
    pool: { reserveEth: 100n * E18, reserveToken: 500_000n * E18, blockNumber: 5n },
  };
  return {
    'wallet.changed': [
      { type: 'wallet.changed', address: trader.address, chainId: LOCAL },
      { type: 'wallet.changed', address: null, chainId: null },
      { type: 'wallet.changed', address: trader.address, chainId: MAINNET },
    ],
    'session.changed': [{ type: 'session.changed', signedIn: true }],
    'swap.side': [
      { type: 'swap.side', side: 'sell' },
      { type: 'swap.side', side: 'buy' },
    ],
    'swap.amount': [FITS, TOO_MUCH, '1,5', ONE_WEI, ''].map((text) => ({ type: 'swap.amount', text })),
    'swap.slippage': ['50.01', '0.5', '10'].map((text) => ({ type: 'swap.slippage', text })),
    'swap.deadline': [
      { type: 'swap.deadline', minutes: 0 },
      { type: 'swap.deadline', minutes: 20 },
    ],
    'swap.unlimited': [{ type: 'swap.unlimited', on: true }],
    'market.block': [{ type: 'market.block', blockNumber: 6n }],
    'xstate.done.actor.quote': [0n, E18 / 100n, maxUint256].map((allowance) => ({
      type: 'xstate.done.actor.quote',
      output: { quote, holdings: held(allowance) },
    })),
    'xstate.error.actor.quote': [
      { type: 'xstate.error.actor.quote', error: new DexServiceError({ code: 'insufficient-liquidity' }) },
      { type: 'xstate.error.actor.quote', error: new DexServiceError({ code: 'rpc-unavailable' }) },
    ],
    'xstate.done.actor.approvalCall': [
      {
        type: 'xstate.done.actor.approvalCall',
        output: { from: trader.address, to: tokenAddress, data: '0x095ea7b3', value: 0n },
      },
    ],
    'xstate.done.actor.sendApproval': [{ type: 'xstate.done.actor.sendApproval', output: APPROVAL_HASH }],
    'xstate.error.actor.sendApproval': [
      { type: 'xstate.error.actor.sendApproval', error: { code: 'rejected', message: null } },
      { type: 'xstate.error.actor.sendApproval', error: { code: 'unknown', message: WALLET_INTERNAL_ERROR } },
    ],
    'xstate.done.actor.confirmApproval': [E18 / 100n, maxUint256].map((output) => ({
      type: 'xstate.done.actor.confirmApproval',
      output,
    })),
    'xstate.error.actor.confirmApproval': [
      { type: 'xstate.error.actor.confirmApproval', error: new DexServiceError({ code: 'rpc-unavailable' }) },
    ],
    'xstate.done.actor.swapCall': [
      {
        type: 'xstate.done.actor.swapCall',
        output: { from: trader.address, to: uniswap.router, data: '0x7ff36ab5', value: E18 / 100n },
      },
    ],
    'xstate.error.actor.swapCall': [
      { type: 'xstate.error.actor.swapCall', error: new DexServiceError({ code: 'rpc-unavailable' }) },
    ],
    'xstate.done.actor.sendSwap': [{ type: 'xstate.done.actor.sendSwap', output: HASH }],
    'xstate.error.actor.sendSwap': [
      { type: 'xstate.error.actor.sendSwap', error: { code: 'rejected', message: null } },
      { type: 'xstate.error.actor.sendSwap', error: { code: 'unknown', message: WALLET_INTERNAL_ERROR } },
    ],
    'xstate.done.actor.confirmSwap': [
      {
        type: 'xstate.done.actor.confirmSwap',
        output: { hash: HASH, side: 'buy', amountIn: E18 / 100n, amountOut: 49n * E18, blockNumber: 8n },
      },
    ],
    'xstate.error.actor.confirmSwap': [
      {
        type: 'xstate.error.actor.confirmSwap',
        error: new DexServiceError({ code: 'reverted', hash: HASH, reason: null }),
      },
      { type: 'xstate.error.actor.confirmSwap', error: new DexServiceError({ code: 'rpc-unavailable' }) },
    ],
    'xstate.done.actor.recordSwap': [{ type: 'xstate.done.actor.recordSwap', output: undefined }],
    'xstate.error.actor.recordSwap': [
      { type: 'xstate.error.actor.recordSwap', error: new Error('Failed to fetch') },
    ],
  };
}
