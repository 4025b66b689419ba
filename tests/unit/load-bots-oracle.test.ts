import { describe, expect, it } from 'vitest';
import {
  DDEX_SCALE,
  expectedFirings,
  judge,
  priceOf,
  PRICE_SCALE,
  scaled,
  swapKey,
  verdictHolds,
  type BotFact,
  type NotificationFact,
  type RunFact,
  type SwapFact,
} from '../../bench/load/bots-oracle.ts';
import { botsOf, BOTS_PER_USER } from '../../bench/load/bots-plan.ts';

// The bots load phase's oracle (bench/load/bots-oracle.ts): from the burst's swaps alone it must
// say which bots evaluate_market_swap fires, and catch every run or notification that is missing,
// doubled, unexpected or wrong. `npm run bench:load` exits 1 on any of them.

const price = (text: string) => scaled(text, PRICE_SCALE);
const T0 = 1_800_000_000;

let nextTx = 1;
/** A swap from `before` to `after` ETH per DDEX, `seconds` after T0, one per block. */
function swap(before: string, after: string, seconds = 0, ddex = '100'): SwapFact {
  const n = nextTx++;
  return {
    txHash: `0x${n.toString(16).padStart(8, '0')}${'ab'.repeat(28)}`,
    logIndex: 3,
    blockNumber: 100 + n,
    blockTime: T0 + seconds,
    before: price(before),
    after: price(after),
    ddex: scaled(ddex, DDEX_SCALE),
    side: price(after) > price(before) ? 'buy' : 'sell',
  };
}

function bot(id: string, rule: Partial<BotFact> & Pick<BotFact, 'kind'>): BotFact {
  return {
    id,
    userId: 'user-1',
    name: `Bot ${id}`,
    level: null,
    movePct: null,
    windowMinutes: null,
    minDdex: null,
    cooldownMinutes: 15,
    armedAtMs: (T0 - 60) * 1000,
    ...rule,
  };
}

const key = (s: SwapFact) => swapKey(s.txHash, s.logIndex);

describe('the oracle', () => {
  it('reads decimals as the REST API returns them, exponents included, cut off at the scale', () => {
    expect(scaled('0.000201', 6)).toBe(201n);
    expect(scaled(2.01e-7, 9)).toBe(201n);
    expect(scaled('2.01E-4', 6)).toBe(201n);
    expect(scaled(12, 2)).toBe(1200n);
    expect(scaled('0.0002019', 6)).toBe(201n);
    expect(() => scaled('-1', 2)).toThrow();
    // 100 ETH against 500,000 DDEX: 0.0002 ETH per DDEX.
    expect(priceOf(100n * 10n ** 18n, 500_000n * 10n ** 18n)).toBe(price('0.0002'));
  });

  it('fires price bots when the price reaches the level from the other side, once per cooldown', () => {
    const up = swap('0.000200', '0.000210', 0);
    const down = swap('0.000210', '0.000195', 60);
    const upAgain = swap('0.000195', '0.000210', 120);
    const later = swap('0.000210', '0.000190', 17 * 60);
    const bots = [
      bot('above', { kind: 'price_above', level: '0.000205' }),
      bot('exactly', { kind: 'price_above', level: '0.00021' }),
      bot('below', { kind: 'price_below', level: '0.0002' }),
      bot('never', { kind: 'price_above', level: '0.0003' }),
      bot('short', { kind: 'price_above', level: '0.000205', cooldownMinutes: 1 }),
    ];
    const expected = expectedFirings(bots, [later, upAgain, down, up]);
    expect(expected.get('above')).toEqual([key(up)]);
    expect(expected.get('exactly')).toEqual([key(up)]);
    // Inside the cooldown at 60 s; the next crossing, 16 minutes after the first, is outside it.
    expect(expected.get('below')).toEqual([key(down), key(later)]);
    expect(expected.has('never')).toBe(false);
    expect(expected.get('short')).toEqual([key(up), key(upAgain)]);
  });

  it('counts a swap only from the second its bot was armed', () => {
    const first = swap('0.000200', '0.000210', 0);
    const second = swap('0.000190', '0.000210', 30);
    const bots = [
      bot('same second', { kind: 'price_above', level: '0.000205', armedAtMs: T0 * 1000 + 900 }),
      bot('after', { kind: 'price_above', level: '0.000205', armedAtMs: (T0 + 1) * 1000 }),
    ];
    const expected = expectedFirings(bots, [first, second]);
    expect(expected.get('same second')).toEqual([key(first)]);
    expect(expected.get('after')).toEqual([key(second)]);
  });

  it('fires large swap bots on the amount, and move bots on the window so far', () => {
    const a = swap('0.000200', '0.000204', 0, '5000');
    const b = swap('0.000204', '0.000190', 60, '12000');
    const c = swap('0.000190', '0.000200', 20 * 60, '400');
    const bots = [
      bot('large', { kind: 'large_swap', minDdex: '10000' }),
      bot('move 5', { kind: 'price_move', movePct: '5', windowMinutes: 15 }),
      // 0.000204 → 0.000190 is 6.86 % down: 7 % is not reached.
      bot('move 7', { kind: 'price_move', movePct: '7', windowMinutes: 60 }),
      // c alone is 5.26 % up, from its own price before; within 15 min of c there is nothing else.
      bot('move late', {
        kind: 'price_move',
        movePct: '5.2',
        windowMinutes: 15,
        armedAtMs: (T0 + 120) * 1000,
      }),
    ];
    const expected = expectedFirings(bots, [a, b, c]);
    expect(expected.get('large')).toEqual([key(b)]);
    // Again at c: 20 minutes on, outside the cooldown, c alone moved 5.26 %.
    expect(expected.get('move 5')).toEqual([key(b), key(c)]);
    expect(expected.has('move 7')).toBe(false);
    expect(expected.get('move late')).toEqual([key(c)]);
  });

  it('weighs a transaction of several swaps once for the price, under its last Swap, and each swap for its size', () => {
    // A sell to 0.000190 and a buy back to 0.000199 in one transaction, then a later buy.
    const sellFirst = swap('0.000200', '0.000190', 0, '12000');
    const buyBack = {
      ...swap('0.000190', '0.000199', 0, '11000'),
      txHash: sellFirst.txHash,
      blockNumber: sellFirst.blockNumber,
      logIndex: 7,
    };
    const next = swap('0.000199', '0.000202', 60, '100');
    const bots = [
      // Crossed by each swap alone, never by the transaction's move.
      bot('dip', { kind: 'price_below', level: '0.000195' }),
      bot('rebound', { kind: 'price_above', level: '0.000195' }),
      bot('swing', { kind: 'price_move', movePct: '4', windowMinutes: 15 }),
      // Crossed by the transaction's move, at its last Swap.
      bot('net', { kind: 'price_below', level: '0.0001995' }),
      // Each swap is weighed for its size.
      bot('large', { kind: 'large_swap', minDdex: '10000' }),
      bot('larger', { kind: 'large_swap', minDdex: '11500' }),
    ];
    const expected = expectedFirings(bots, [next, buyBack, sellFirst]);
    expect(expected.has('dip')).toBe(false);
    expect(expected.has('rebound')).toBe(false);
    expect(expected.has('swing')).toBe(false);
    expect(expected.get('net')).toEqual([key(buyBack)]);
    expect(expected.get('large')).toEqual([key(sellFirst)]);
    expect(expected.get('larger')).toEqual([key(sellFirst)]);
  });

  it('fires no large-swap bot on a swap below the project’s floor, whatever its rule', () => {
    const small = swap('0.000200', '0.000201', 0, '999');
    const floor = swap('0.000201', '0.000202', 20 * 60, '1000');
    const expected = expectedFirings([bot('older', { kind: 'large_swap', minDdex: '200' })], [small, floor]);
    expect(expected.get('older')).toEqual([key(floor)]);
  });

  describe('judging what the server recorded', () => {
    const up = swap('0.000200', '0.000210', 0);
    const down = swap('0.000210', '0.000195', 30);
    const bots = [
      bot('a', { kind: 'price_above', level: '0.000205' }),
      bot('b', { kind: 'price_below', level: '0.0002' }),
      bot('c', { kind: 'price_above', level: '0.0003' }),
    ];
    const title: Record<string, string> = { a: 'DDEX above 0.000205 ETH', b: 'DDEX below 0.0002 ETH' };
    const runOf = (botId: string, at: SwapFact, notificationId: string | null = `n-${botId}`): RunFact => ({
      botId,
      txHash: at.txHash,
      logIndex: at.logIndex,
      notificationId,
    });
    const noteOf = (botId: string, at: SwapFact, id = `n-${botId}`): NotificationFact => ({
      id,
      userId: 'user-1',
      title: title[botId] ?? 'DDEX above 0.0003 ETH',
      message: `Bot ${botId}: 0.0002 → 0.00021 ETH per DDEX (tx ${at.txHash.slice(0, 10)}…).`,
    });
    const right = {
      bots,
      swaps: [up, down],
      runs: [runOf('a', up), runOf('b', down)],
      notifications: [noteOf('a', up), noteOf('b', down)],
    };

    it('holds when every bot fired as called for, with its notification', () => {
      const verdict = judge(right);
      expect(verdict).toMatchObject({
        bots: 3,
        expected: 2,
        expectedByKind: { price_above: 1, price_below: 1, price_move: 0, large_swap: 0 },
        fired: 2,
        runs: 2,
        notifications: 2,
      });
      expect(verdict.problems).toEqual([]);
      expect(verdictHolds(verdict)).toBe(true);
    });

    it('counts a missing run or notification as lost', () => {
      expect(judge({ ...right, runs: [runOf('a', up)] }).lost).toBe(1);
      const noNote = judge({ ...right, notifications: [noteOf('a', up)] });
      expect(noNote.lost).toBe(1);
      expect(noNote.wrongNotification).toBe(1);
      expect(verdictHolds(noNote)).toBe(false);
    });

    it('counts a second run or a second notification as doubled', () => {
      const twice = judge({ ...right, runs: [...right.runs, runOf('a', down, 'n-a2')] });
      expect(twice.doubled).toBe(1);
      const noteTwice = judge({ ...right, notifications: [...right.notifications, noteOf('a', up, 'n-a2')] });
      expect(noteTwice.doubled).toBe(1);
      // The second notification is also one no run names.
      expect(noteTwice.wrongNotification).toBe(1);
    });

    it('counts a firing no swap called for as unexpected, and one at another swap as wrong', () => {
      const unexpected = judge({
        ...right,
        runs: [...right.runs, runOf('c', up)],
        notifications: [...right.notifications, noteOf('c', up)],
      });
      expect(unexpected.unexpected).toBe(1);
      expect(unexpected.problems.join()).toContain('Bot c');
      const elsewhere = judge({
        ...right,
        runs: [runOf('a', down), runOf('b', down)],
        notifications: [noteOf('a', down), noteOf('b', down)],
      });
      expect(elsewhere.wrongSwap).toBe(1);
    });

    it('checks that a notification says what fired', () => {
      const wrongTitle = judge({
        ...right,
        notifications: [{ ...noteOf('a', up), title: 'DDEX above 0.0002 ETH' }, noteOf('b', down)],
      });
      expect(wrongTitle.wrongNotification).toBe(1);
      const wrongTx = judge({ ...right, notifications: [noteOf('a', down, 'n-a'), noteOf('b', down)] });
      expect(wrongTx.wrongNotification).toBe(1);
    });
  });
});

describe('the bots plan', () => {
  it('gives each user twenty bots, 8 above, 8 below, 2 move and 2 large swap, named apart', () => {
    const users = 50;
    const all = Array.from({ length: users }, (_, user) => botsOf(user, users, 0.0002));
    for (const bots of all) {
      expect(bots).toHaveLength(BOTS_PER_USER);
      expect(new Set(bots.map((b) => b.name)).size).toBe(BOTS_PER_USER);
      for (const b of bots) expect(b.name.length).toBeLessThanOrEqual(60);
    }
    const flat = all.flat();
    const count = (kind: string) => flat.filter((b) => b.kind === kind).length;
    expect([count('price_above'), count('price_below'), count('price_move'), count('large_swap')]).toEqual([
      400, 400, 100, 100,
    ]);
    // Levels spread past the burst's swing on both sides, no two of a kind alike.
    const levels = flat.filter((b) => b.kind === 'price_above').map((b) => b.level ?? 0);
    expect(new Set(levels).size).toBe(400);
    expect(Math.min(...levels)).toBeLessThan(0.0002 * 0.9);
    expect(Math.max(...levels)).toBeGreaterThan(0.0002 * 1.1);
  });

  it('sizes every large-swap bot at or above the project’s floor, so none is refused', () => {
    const users = 100;
    const sizes = Array.from({ length: users }, (_, user) => botsOf(user, users, 0.0002))
      .flat()
      .filter((b) => b.kind === 'large_swap')
      .map((b) => b.min_ddex ?? 0);
    expect(sizes).toHaveLength(200);
    // bot_settings.large_swap_min_ddex (20261203000001_bot_limits.sql).
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1000);
    expect(new Set(sizes).size).toBe(200);
  });
});
