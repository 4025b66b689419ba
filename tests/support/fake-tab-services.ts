import type { Bot, BotFields } from '../../src/domain/bots.ts';
import type {
  DexCall,
  Holdings,
  Market,
  MarketEventHandlers,
  MarketHistory,
  PoolState,
  Quote,
  SwapResult,
} from '../../src/services/dex/types.ts';
import type { DexService } from '../../src/services/dex/types.ts';
import type { BotsChange, BotsService, SubscriptionStatus } from '../../src/services/bots/types.ts';

// The DEX and bots services of the Trading and Bots tabs, faked for a whole-portal session: every
// call answers at once with a plausible DDEX/WETH market (a buy of 1 ETH quotes 1990 DDEX and
// mines 1985) and a bots table that keeps what is created. The live subscriptions (the market's
// watch, the bots feed) are left to the test through `hooks`; `calls` counts every call, so a test
// can tell that nothing reached a service.

const E18 = 10n ** 18n;
const ROUTER = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const PAIR = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const WETH = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const TOKEN = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';

export const tabFixtures = {
  market: {
    router: ROUTER,
    factory: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
    weth: WETH,
    pair: PAIR,
    token: TOKEN,
    feeBps: 30,
  } satisfies Market,
  pool: { reserveEth: 100n * E18, reserveToken: 200_000n * E18, blockNumber: 5n } satisfies PoolState,
  holdings: { eth: 10n * E18, token: 0n, allowance: 0n } satisfies Holdings,
  /** What a buy of any amount is quoted. */
  amountOut: 1990n * E18,
  /** What the pair's Swap event says a buy moved. */
  minedOut: 1985n * E18,
} as const;

const history = (hash: `0x${string}`): MarketHistory => ({
  trades: [
    {
      id: `${hash}:1`,
      hash,
      blockNumber: 4n,
      timestamp: 1_767_225_600,
      side: 'buy',
      amountIn: E18 / 2n,
      amountOut: 995n * E18,
      price: 0.0005,
    },
  ],
  prices: [{ timestamp: 1_767_225_600, blockNumber: 4n, price: 0.0005 }],
});

export function fakeTabServices({ marketHash }: { marketHash: `0x${string}` }) {
  let calls = 0;
  const answer = <T>(value: T | (() => T)): Promise<Awaited<T>> => {
    calls += 1;
    return Promise.resolve(typeof value === 'function' ? (value as () => T)() : value);
  };
  const hooks = {
    market: null as MarketEventHandlers | null,
    botsChange: null as ((change: BotsChange) => void) | null,
    botsStatus: null as ((status: SubscriptionStatus) => void) | null,
  };
  const { market, pool, holdings, amountOut, minedOut } = tabFixtures;

  const dex: DexService = {
    market: () => answer(market),
    pool: () => answer(pool),
    history: () => answer(history(marketHash)),
    quote: ({ side, amountIn }) => answer<Quote>({ side, amountIn, amountOut, priceImpactBps: 50, pool }),
    holdings: () => answer(holdings),
    approvalCall: ({ owner, amount }) =>
      answer<DexCall>({ from: owner, to: TOKEN, data: `0x095ea7b3${amount.toString(16)}`, value: 0n }),
    confirmApproval: () => answer(E18),
    swapCall: ({ account, amountIn }) =>
      answer<DexCall>({ from: account, to: ROUTER, data: '0x7ff36ab5', value: amountIn }),
    confirmSwap: (hash, side) =>
      answer<SwapResult>({ hash, side, amountIn: E18, amountOut: minedOut, blockNumber: 6n }),
    watch(handlers) {
      calls += 1;
      hooks.market = handlers;
      return () => void (hooks.market = null);
    },
  };

  let bots: Bot[] = [];
  const saved = (id: string, fields: BotFields): Bot => ({
    id,
    ...fields,
    status: 'active',
    lastFiredAt: null,
    createdAt: '2026-01-01T00:00:00Z',
  });
  const botsService: BotsService = {
    listBots: () => answer(() => bots),
    listRuns: () => answer({}),
    createBot: (fields) =>
      answer(() => {
        const bot = saved(`b-${bots.length + 1}`, fields);
        bots = [...bots, bot];
        return bot;
      }),
    updateBot: (id, fields) =>
      answer(() => {
        const bot = saved(id, fields);
        bots = bots.map((known) => (known.id === id ? bot : known));
        return bot;
      }),
    setStatus: (id, status) =>
      answer(() => {
        const bot = { ...(bots.find((known) => known.id === id) as Bot), status };
        bots = bots.map((known) => (known.id === id ? bot : known));
        return bot;
      }),
    deleteBot: (id) =>
      answer(() => {
        bots = bots.filter((known) => known.id !== id);
      }),
    subscribeBots(_, onChange, onStatus) {
      calls += 1;
      hooks.botsChange = onChange;
      hooks.botsStatus = onStatus;
      return () => {
        hooks.botsChange = null;
        hooks.botsStatus = null;
      };
    },
  };

  return { dex, bots: botsService, hooks, calls: () => calls };
}
