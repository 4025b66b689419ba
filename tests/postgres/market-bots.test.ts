import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAs, inCase, SERVICE, userClaims, type Case } from '../support/postgres/sql.ts';

// Trading bots (migration 20261201000001) on a real PostgreSQL loaded like a hosted project: the
// owner manages their bots within the rules the table checks, and evaluate_market_swap, which the
// market-bots function calls as the service role for each swap of the pair, fires each bot whose
// rule the swap meets once, with one run and one notification, respecting pauses, arming and
// cooldowns. Swaps are synthetic: their block times are chosen, so cooldowns and windows need no
// waiting. The contract layer calls the same function through the local stack
// (tests/contract/market-bots-sql.test.ts).

type User = { id: string; email: string };
type BotFields = Record<string, string | number | null>;
type Swap = {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  at: Date;
  before: string;
  after: string;
  amount: string;
  side: 'buy' | 'sell';
};

let db: pg.Client;
beforeAll(async () => {
  db = await connectAs();
});
afterAll(async () => {
  await db?.end();
});

/** This file's own market, so its price history is apart from any other. */
const PAIR = `0x${randomBytes(20).toString('hex')}`;
const txHash = () => `0x${randomBytes(32).toString('hex')}`;
const MINUTE = 60_000;
/** A moment safely after any bot of a case was armed (the case's transaction started before it). */
const later = (minutes = 0) => new Date(Date.now() + MINUTE + minutes * MINUTE);

let blockNumber = 1_000;
/** A swap of the pair mined at `at`, each in a block of its own, in the order they are made. */
const swap = (at: Date, before: string, after: string, fields: Partial<Swap> = {}): Swap => ({
  txHash: txHash(),
  logIndex: 3,
  blockNumber: blockNumber++,
  at,
  before,
  after,
  amount: '10',
  side: Number(after) > Number(before) ? 'buy' : 'sell',
  ...fields,
});

const freshUser = (): User => {
  const id = randomUUID();
  return { id, email: `bots-${id.slice(0, 8)}@example.test` };
};

/** Writes the account as Auth does, through `run`. */
async function signUp(run: (sql: string, params: unknown[]) => Promise<unknown>, user: User) {
  await run(
    `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data,
       created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       '{}', '{}', now(), now())`,
    [user.id, user.email],
  );
}

/** The owner's own insert, as the portal makes it (user_id from the token). */
async function createBot(tx: Case, owner: User, fields: BotFields): Promise<string> {
  const columns = Object.keys(fields);
  const { rows } = await tx.request(userClaims(owner), (query) =>
    query<{ id: string }>(
      `insert into public.bots (${columns.join(', ')})
       values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
      Object.values(fields),
    ),
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('the bot was not created');
  return id;
}

const above = (level: string, name = 'Above') => ({ name, kind: 'price_above', level });

/**
 * The market-bots function's call for one batch of a swap's bots: the swap, its display texts
 * (the numbers by default), which rules ('all', 'price' or 'size') and the bot the last batch
 * ended at (null: the first batch).
 */
const EVALUATE = `select fired, next_bot from public.evaluate_market_swap(p_pair => $1, p_tx_hash => $2,
  p_log_index => $3, p_block_number => $4, p_block_time => $5, p_price_before => $6,
  p_price_after => $7, p_ddex_amount => $8, p_side => $9, p_price_before_text => $10,
  p_price_after_text => $11, p_amount_text => $12, p_rules => $13, p_after_bot => $14)`;
type Rules = 'all' | 'price' | 'size';
type Batch = { fired: number; next_bot: string | null };
const argsOf = (
  s: Swap,
  { texts = [s.before, s.after, s.amount], rules = 'all', after = null }: EvaluateOptions = {},
) => [
  PAIR,
  s.txHash,
  s.logIndex,
  s.blockNumber,
  s.at,
  s.before,
  s.after,
  s.amount,
  s.side,
  ...texts,
  rules,
  after,
];
type EvaluateOptions = { texts?: string[]; rules?: Rules; after?: string | null };

/** One batch of a swap's evaluation, as the service role: how many bots it fired, and where it ended. */
async function evaluateBatch(tx: Case, s: Swap, options: EvaluateOptions = {}): Promise<Batch> {
  const { rows } = await tx.request(SERVICE, (query) => query<Batch>(EVALUATE, argsOf(s, options)));
  if (rows.length !== 1 || !rows[0]) throw new Error(`a batch answered ${rows.length} rows`);
  return rows[0];
}

/** Evaluates a swap as market-bots does, batch after batch until none is left; how many bots it fired. */
async function evaluate(tx: Case, s: Swap, options: Omit<EvaluateOptions, 'after'> = {}): Promise<number> {
  let fired = 0;
  let after: string | null = null;
  do {
    const batch = await evaluateBatch(tx, s, { ...options, after });
    fired += batch.fired;
    after = batch.next_bot;
  } while (after !== null);
  return fired;
}

/** A bot's runs and their notifications, oldest first, as the superuser reads them. */
async function runsOf(tx: Case, botId: string) {
  const { rows } = await tx.query<{ tx_hash: string; block_time: Date; title: string; message: string }>(
    `select r.tx_hash, r.block_time, n.title, n.message
       from public.bot_runs r join public.user_notifications n on n.id = r.notification_id
      where r.bot_id = $1 order by r.block_time`,
    [botId],
  );
  return rows;
}

const titlesOf = async (tx: Case, botId: string) => (await runsOf(tx, botId)).map(({ title }) => title);

async function botOf(tx: Case, id: string) {
  const { rows } = await tx.query<Record<string, unknown>>('select * from public.bots where id = $1', [id]);
  return rows[0];
}

/** The case's now(): the time every bot of the case was armed at. */
async function caseNow(tx: Case): Promise<Date> {
  const { rows } = await tx.query<{ now: Date }>('select now()');
  return rows[0]?.now ?? new Date(Number.NaN);
}

describe('evaluate_market_swap', () => {
  it('fires a bot whose level the swap crosses once, with a run and a notification for its owner', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const up = await createBot(tx, owner, above('0.0021', 'Breakout'));
      const down = await createBot(tx, owner, { name: 'Floor', kind: 'price_below', level: '0.0021' });
      const crossing = swap(later(), '0.002', '0.0022');

      expect(await evaluate(tx, crossing)).toBe(1);

      expect(await runsOf(tx, up)).toEqual([
        {
          tx_hash: crossing.txHash,
          block_time: crossing.at,
          title: 'DDEX above 0.0021 ETH',
          message: `Breakout: 0.002 → 0.0022 ETH per DDEX (tx ${crossing.txHash.slice(0, 10)}…).`,
        },
      ]);
      expect(await runsOf(tx, down)).toEqual([]);
      expect((await botOf(tx, up))?.['last_fired_at']).toEqual(crossing.at);
      // The owner reads the run and its notification; the run names the swap.
      const seen = await tx.request(userClaims(owner), (query) =>
        query(
          `select r.price_before, r.price_after, r.side, n.title from public.bot_runs r
             join public.user_notifications n on n.id = r.notification_id where r.user_id = $1`,
          [owner.id],
        ),
      );
      expect(seen.rows).toEqual([
        { price_before: '0.002', price_after: '0.0022', side: 'buy', title: 'DDEX above 0.0021 ETH' },
      ]);

      // Back down through the level: the other bot's turn, titled with its level as stored.
      expect(await evaluate(tx, swap(later(1), '0.0022', '0.00209'))).toBe(1);
      expect(await titlesOf(tx, down)).toEqual(['DDEX below 0.0021 ETH']);
    });
  });

  it('adds nothing when a swap is delivered again', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const bot = await createBot(tx, owner, above('0.0021'));
      const crossing = swap(later(), '0.002', '0.0022');
      expect(await evaluate(tx, crossing)).toBe(1);
      expect(await evaluate(tx, crossing)).toBe(0);
      expect(
        await evaluate(tx, { ...crossing, txHash: crossing.txHash.toUpperCase().replace('0X', '0x') }),
      ).toBe(0);
      expect(await runsOf(tx, bot)).toHaveLength(1);
      const { rows } = await tx.query(
        'select count(*)::int as count from public.user_notifications where user_id = $1',
        [owner.id],
      );
      expect(rows).toEqual([{ count: 1 }]);
    });
  });

  it('is silent within the cooldown around a run, before or after it, and fires again once it is over', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const bot = await createBot(tx, owner, { ...above('0.0021'), cooldown_minutes: 15 });
      const first = later(30);
      expect(await evaluate(tx, swap(first, '0.002', '0.0022'))).toBe(1);
      // A crossing five minutes later, and one five minutes earlier delivered late: within it.
      expect(await evaluate(tx, swap(new Date(first.getTime() + 5 * MINUTE), '0.002', '0.0022'))).toBe(0);
      expect(await evaluate(tx, swap(new Date(first.getTime() - 5 * MINUTE), '0.002', '0.0022'))).toBe(0);
      // Fifteen minutes on, it is over.
      const next = new Date(first.getTime() + 15 * MINUTE);
      expect(await evaluate(tx, swap(next, '0.002', '0.0022'))).toBe(1);
      expect((await runsOf(tx, bot)).map(({ block_time }) => block_time)).toEqual([first, next]);
    });
  });

  it('is silent while paused, and fires once resumed', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const bot = await createBot(tx, owner, above('0.0021'));
      const setStatus = (status: string) =>
        tx.request(userClaims(owner), (query) =>
          query('update public.bots set status = $2 where id = $1', [bot, status]),
        );
      await setStatus('paused');
      expect(await evaluate(tx, swap(later(), '0.002', '0.0022'))).toBe(0);
      await setStatus('active');
      expect(await evaluate(tx, swap(later(1), '0.002', '0.0022'))).toBe(1);
      expect(await titlesOf(tx, bot)).toEqual(['DDEX above 0.0021 ETH']);
    });
  });

  it('counts no swap mined before the bot was armed, to the second, however late it arrives', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const bot = await createBot(tx, owner, above('0.0021'));
      const armedAt = await caseNow(tx);
      expect((await botOf(tx, bot))?.['armed_at']).toEqual(armedAt);
      const second = Math.floor(armedAt.getTime() / 1000) * 1000;
      expect(await evaluate(tx, swap(new Date(second - 1000), '0.002', '0.0022'))).toBe(0);
      // A block of the second the bot was armed in counts: blocks carry whole seconds.
      expect(await evaluate(tx, swap(new Date(second), '0.002', '0.0022'))).toBe(1);
    });
  });

  it('fires a large-swap bot on a swap of at least its amount, saying which way it went', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const bot = await createBot(tx, owner, { name: 'Whale', kind: 'large_swap', min_ddex: '10000' });
      expect(await evaluate(tx, swap(later(), '0.002', '0.00199', { amount: '9999.99' }))).toBe(0);
      const big = swap(later(1), '0.002', '0.0019', { amount: '12345', side: 'sell' });
      expect(await evaluate(tx, big, { texts: ['0.002', '0.0019', '12,345'] })).toBe(1);
      expect(await titlesOf(tx, bot)).toEqual(['Large swap: 12,345 DDEX sold']);
    });
  });

  it('never fires a large-swap bot on a swap below the project’s floor, whatever rule it was saved with', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      await tx.request(SERVICE, (query) => query('update public.bot_settings set large_swap_min_ddex = 100'));
      const older = await createBot(tx, owner, { name: 'Older whale', kind: 'large_swap', min_ddex: '200' });
      await tx.request(SERVICE, (query) =>
        query('update public.bot_settings set large_swap_min_ddex = 1000'),
      );
      expect(await evaluate(tx, swap(later(), '0.002', '0.00199', { amount: '999.99' }))).toBe(0);
      expect(await evaluate(tx, swap(later(1), '0.002', '0.00199', { amount: '1000', side: 'sell' }))).toBe(
        1,
      );
      expect(await titlesOf(tx, older)).toEqual(['Large swap: 1000 DDEX sold']);
    });
  });

  it('weighs only the rules it is asked for: the price rules, recorded in the history, or the large-swap rules', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const price = await createBot(tx, owner, above('0.0021'));
      const large = await createBot(tx, owner, { name: 'Whale', kind: 'large_swap', min_ddex: '5000' });
      const move = await createBot(tx, owner, {
        name: 'Move',
        kind: 'price_move',
        move_pct: 5,
        window_minutes: 15,
      });
      const history = async () =>
        (
          await tx.query<{ tx_hash: string }>('select tx_hash from public.market_prices where pair = $1', [
            PAIR,
          ])
        ).rows.map(({ tx_hash }) => tx_hash);

      // One swap, weighed for its size alone: only the large-swap bot hears of it, and the price
      // history does not hold it.
      const sized = swap(later(), '0.002', '0.0022', { amount: '6000' });
      expect(await evaluate(tx, sized, { rules: 'size' })).toBe(1);
      expect([await runsOf(tx, price), await runsOf(tx, move)]).toEqual([[], []]);
      expect(await history()).toEqual([]);
      // The same move weighed for its price: the price bots fire, the large-swap one is not asked.
      const priced = swap(later(1), '0.002', '0.0022', { amount: '6000' });
      expect(await evaluate(tx, priced, { rules: 'price' })).toBe(2);
      expect(await titlesOf(tx, price)).toEqual(['DDEX above 0.0021 ETH']);
      expect(await titlesOf(tx, move)).toEqual(['DDEX up 10 % in 15 min']);
      expect((await runsOf(tx, large)).map(({ tx_hash }) => tx_hash)).toEqual([sized.txHash]);
      expect(await history()).toEqual([priced.txHash]);
      const unknown = await tx.attempt(async () => {
        await evaluateBatch(tx, swap(later(2), '0.002', '0.0022'), { rules: 'every' as Rules });
        return { error: null, rows: 1 };
      });
      expect(unknown.error?.code).toBe('22023');
    });
  });

  it('evaluates a swap in batches of the set size, and a redelivery after a failed batch fires the rest once', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const { rows } = await tx.query('select evaluation_batch_size as size from public.bot_settings');
      expect(rows).toEqual([{ size: 200 }]);
      await tx.request(SERVICE, (query) => query('update public.bot_settings set evaluation_batch_size = 2'));
      const bots: string[] = [];
      for (let n = 1; n <= 5; n++) bots.push(await createBot(tx, owner, above('0.0021', `Bot ${n}`)));
      bots.sort();
      const crossing = swap(later(), '0.002', '0.0022');

      // Each call weighs the next two bots after the last one it was given, and says where it ended.
      expect(await evaluateBatch(tx, crossing)).toEqual({ fired: 2, next_bot: bots[1] });
      // The second batch's transaction fails: nothing of it stays.
      await tx.query('savepoint failed_batch');
      expect(await evaluateBatch(tx, crossing, { after: bots[1] })).toEqual({ fired: 2, next_bot: bots[3] });
      await tx.query('rollback to savepoint failed_batch');

      // Tatum delivers again: the first batch adds nothing, the rest fire once.
      const batches: Batch[] = [];
      let after: string | null = null;
      do {
        const batch = await evaluateBatch(tx, crossing, { after });
        batches.push(batch);
        after = batch.next_bot;
      } while (after !== null);
      expect(batches).toEqual([
        { fired: 0, next_bot: bots[1] },
        { fired: 2, next_bot: bots[3] },
        { fired: 1, next_bot: null },
      ]);
      for (const bot of bots) expect(await titlesOf(tx, bot)).toEqual(['DDEX above 0.0021 ETH']);
      const notices = await tx.query(
        'select count(*)::int as count from public.user_notifications where user_id = $1',
        [owner.id],
      );
      expect(notices.rows).toEqual([{ count: 5 }]);
      // A delivery after all of it adds nothing, batch after batch.
      expect(await evaluate(tx, crossing)).toBe(0);
    });
  });

  it('fires a move bot when the price moves far enough up or down within its window, and not over a longer time', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const rise = await createBot(tx, owner, {
        name: 'Rise',
        kind: 'price_move',
        move_pct: 5,
        window_minutes: 15,
      });
      const drop = await createBot(tx, owner, {
        name: 'Drop',
        kind: 'price_move',
        move_pct: 10,
        window_minutes: 60,
      });
      const start = later(60);
      const at = (minutes: number) => new Date(start.getTime() + minutes * MINUTE);

      expect(await evaluate(tx, swap(at(0), '0.002', '0.00201'))).toBe(0);
      // 6 % above the lowest price of the last 15 minutes (the first swap's price before it).
      expect(await evaluate(tx, swap(at(5), '0.00201', '0.00212'))).toBe(1);
      // 10.4 % below the highest of the last hour; the rise bot cools down.
      expect(await evaluate(tx, swap(at(10), '0.00212', '0.0019'))).toBe(1);
      // Two hours on, the earlier prices are out of either window: a small step is no move.
      expect(await evaluate(tx, swap(at(130), '0.0019', '0.00191'))).toBe(0);

      expect(await titlesOf(tx, rise)).toEqual(['DDEX up 6 % in 15 min']);
      expect(await titlesOf(tx, drop)).toEqual(['DDEX down 10.4 % in 1 h']);
    });
  });

  it('keeps the price history of the last 48 hours before a swap', async () => {
    await inCase(db, async (tx) => {
      const start = later(120);
      await evaluate(tx, swap(start, '0.002', '0.00201'));
      await evaluate(tx, swap(new Date(start.getTime() + 47 * 60 * MINUTE), '0.002', '0.00201'));
      const { rows } = await tx.query(
        'select count(*)::int as count from public.market_prices where pair = $1',
        [PAIR],
      );
      expect(rows).toEqual([{ count: 2 }]);
      await evaluate(tx, swap(new Date(start.getTime() + 49 * 60 * MINUTE), '0.002', '0.00201'));
      const kept = await tx.query('select count(*)::int as count from public.market_prices where pair = $1', [
        PAIR,
      ]);
      expect(kept.rows).toEqual([{ count: 2 }]);
    });
  });

  /**
   * Evaluates `a`, and `b` on another connection while a's transaction is still open, for a bot of
   * a user of their own, committed (the second must see the first one's commit); how many each
   * fired, and the runs and notifications the user got.
   */
  async function atOnce(a: Swap, b: Swap) {
    const owner = freshUser();
    await signUp((sql, params) => db.query(sql, params), owner);
    await db.query(
      `insert into public.bots (user_id, name, kind, level) values ($1, 'Together', 'price_above', 0.0021)`,
      [owner.id],
    );
    const [first, second] = [await connectAs(), await connectAs()];
    const call = (client: pg.Client, s: Swap) => client.query<{ fired: number }>(EVALUATE, argsOf(s));
    const count = async (table: string) =>
      (
        await db.query<{ count: number }>(
          `select count(*)::int as count from public.${table} where user_id = $1`,
          [owner.id],
        )
      ).rows[0]?.count;
    try {
      for (const delivery of [first, second]) await delivery.query('begin; set local role service_role');
      const firstFired = (await call(first, a)).rows[0]?.fired;
      const secondPid = (await second.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
      const evaluating = call(second, b);
      await expect
        .poll(async () => {
          const { rows } = await db.query<{ waiting: string | null }>(
            'select wait_event_type as waiting from pg_stat_activity where pid = $1',
            [secondPid],
          );
          return rows[0]?.waiting;
        })
        .toBe('Lock');
      await first.query('commit');
      const secondFired = (await evaluating).rows[0]?.fired;
      await second.query('commit');
      return {
        fired: [firstFired, secondFired],
        runs: await count('bot_runs'),
        notices: await count('user_notifications'),
      };
    } finally {
      await Promise.all([first.end(), second.end()]);
      await db.query('delete from auth.users where id = $1', [owner.id]);
      await db.query('delete from public.market_prices where pair = $1 and tx_hash = any($2)', [
        PAIR,
        [a.txHash, b.txHash],
      ]);
    }
  }

  it('fires once when two deliveries of one swap are evaluated at the same time', async () => {
    const crossing = swap(later(), '0.002', '0.0022');
    expect(await atOnce(crossing, crossing)).toEqual({ fired: [1, 0], runs: 1, notices: 1 });
  });

  it('fires once when two crossings within the cooldown are evaluated at the same time', async () => {
    // The second waits for the bot the first holds, then sees the first one's run.
    const [a, b] = [swap(later(), '0.002', '0.0022'), swap(later(1), '0.002', '0.0022')];
    expect(await atOnce(a, b)).toEqual({ fired: [1, 0], runs: 1, notices: 1 });
  });

  it('is executable by service_role alone', async () => {
    const { rows } = await db.query(
      `select has_function_privilege('anon', p.oid, 'EXECUTE') as anon,
              has_function_privilege('authenticated', p.oid, 'EXECUTE') as authenticated,
              has_function_privilege('service_role', p.oid, 'EXECUTE') as service_role,
              p.prosecdef as security_definer, p.proconfig as config
         from pg_proc p where p.oid = 'public.evaluate_market_swap'::regproc`,
    );
    expect(rows).toEqual([
      {
        anon: false,
        authenticated: false,
        service_role: true,
        security_definer: false,
        config: ['search_path=""'],
      },
    ]);
  });
});

describe('bots', () => {
  it('lets a user hold 25 bots and no more', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      for (let n = 1; n <= 25; n++) await createBot(tx, owner, above('0.0021', `Bot ${n}`));
      const refused = await tx.attempt(async () => {
        await createBot(tx, owner, above('0.0021', 'Bot 26'));
        return { error: null, rows: 1 };
      });
      expect(refused.error).toEqual({ code: '23514', message: 'A user can have at most 25 bots' });
      // Another user's bots do not count.
      const other = freshUser();
      await signUp(tx.query, other);
      await createBot(tx, other, above('0.0021'));
    });
  });

  /** The owner's change of a bot, as the portal makes it; the refusal's code and message, if any. */
  const ownerUpdate = (tx: Case, owner: User, bot: string, set: string, params: unknown[] = []) =>
    tx.attempt(async () => {
      await tx.request(userClaims(owner), (query) =>
        query(`update public.bots set ${set} where id = $1`, [bot, ...params]),
      );
      return { error: null, rows: 1 };
    });
  const ownerInsert = (tx: Case, owner: User, fields: BotFields) =>
    tx.attempt(async () => {
      await createBot(tx, owner, fields);
      return { error: null, rows: 1 };
    });

  it('runs at most the project’s number of active bots: a new or resumed one past it is refused, a paused one is not counted', async () => {
    await inCase(db, async (tx) => {
      const [owner, other] = [freshUser(), freshUser()];
      await signUp(tx.query, owner);
      await signUp(tx.query, other);
      // The default leaves room for the load bench's 2,000 bots many times over.
      const { rows } = await tx.query<{ max: number }>(
        'select max_active_bots as max from public.bot_settings',
      );
      expect(rows).toEqual([{ max: 10_000 }]);
      // The service role sets it: here, two more than are active now.
      const cap = await tx.request(SERVICE, async (query) => {
        const { rows: set } = await query<{ max: number }>(
          `update public.bot_settings
              set max_active_bots = (select count(*) from public.bots where status = 'active') + 2
            returning max_active_bots as max`,
        );
        return set[0]?.max ?? 0;
      });
      const refusal = {
        code: '23514',
        message: `The portal can run at most ${cap} active bots at once; try again later`,
      };

      await createBot(tx, owner, above('0.0021', 'First'));
      const asleep = await createBot(tx, owner, { ...above('0.0021', 'Asleep'), status: 'paused' });
      const second = await createBot(tx, owner, above('0.0021', 'Second'));
      // Full: a new active bot, anyone's, and a resume are refused; a paused bot may still be made.
      expect((await ownerInsert(tx, owner, above('0.0021', 'Third'))).error).toEqual(refusal);
      expect((await ownerInsert(tx, other, above('0.0021', 'Theirs'))).error).toEqual(refusal);
      expect((await ownerUpdate(tx, owner, asleep, `status = 'active'`)).error).toEqual(refusal);
      await createBot(tx, other, { ...above('0.0021', 'Theirs'), status: 'paused' });
      // An active bot's other changes go through; pausing one makes room for a resume.
      expect((await ownerUpdate(tx, owner, second, `name = 'Renamed', level = 0.003`)).error).toBeNull();
      expect((await ownerUpdate(tx, owner, second, `status = 'paused'`)).error).toBeNull();
      expect((await ownerUpdate(tx, owner, asleep, `status = 'active'`)).error).toBeNull();
      expect((await botOf(tx, asleep))?.['status']).toBe('active');
    });
  });

  it('refuses a large-swap rule below the project’s floor, new or edited, and keeps an older one', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const whale = (min: string) => ({ name: 'Whale', kind: 'large_swap', min_ddex: min });
      const { rows } = await tx.query('select large_swap_min_ddex as floor from public.bot_settings');
      expect(rows).toEqual([{ floor: '1000' }]);
      const refusal = { code: '23514', message: 'A large-swap bot needs a swap size of at least 1000 DDEX' };

      expect((await ownerInsert(tx, owner, whale('999.999'))).error).toEqual(refusal);
      const bot = await createBot(tx, owner, whale('1000'));
      expect((await ownerUpdate(tx, owner, bot, 'min_ddex = 500')).error).toEqual(refusal);
      const price = await createBot(tx, owner, above('0.0021'));
      expect(
        (await ownerUpdate(tx, owner, price, `kind = 'large_swap', level = null, min_ddex = 10`)).error,
      ).toEqual(refusal);

      // A bot saved under a lower floor keeps its rule through a rename and a pause.
      await tx.request(SERVICE, (query) => query('update public.bot_settings set large_swap_min_ddex = 100'));
      const older = await createBot(tx, owner, whale('200'));
      await tx.request(SERVICE, (query) =>
        query('update public.bot_settings set large_swap_min_ddex = 1000'),
      );
      expect((await ownerUpdate(tx, owner, older, `name = 'Older whale'`)).error).toBeNull();
      expect((await ownerUpdate(tx, owner, older, `status = 'paused'`)).error).toBeNull();
      expect(await botOf(tx, older)).toMatchObject({
        name: 'Older whale',
        min_ddex: '200',
        status: 'paused',
      });
    });
  });

  it('holds exactly the columns of its kind, within their bounds, and a trimmed name', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const refusal = async (fields: BotFields) =>
        (
          await tx.attempt(async () => {
            await createBot(tx, owner, fields);
            return { error: null, rows: 1 };
          })
        ).error?.message;
      const move = { name: 'Move', kind: 'price_move', move_pct: 5, window_minutes: 60 };
      expect(await refusal({ ...above('0.0021'), move_pct: 5 })).toContain('bots_rule_of_kind');
      expect(await refusal(above('0'))).toContain('bots_rule_of_kind');
      expect(await refusal({ name: 'Whale', kind: 'large_swap' })).toContain('bots_rule_of_kind');
      expect(await refusal({ ...move, window_minutes: 45 })).toContain('bots_window_preset');
      expect(await refusal({ ...move, move_pct: 0.05 })).toContain('bots_move_pct_range');
      expect(await refusal({ ...move, cooldown_minutes: 0 })).toContain('bots_cooldown_range');
      expect(await refusal({ ...move, kind: 'price_swing' })).toContain('bots_kind_valid');
      expect(await refusal({ ...move, name: '   ' })).toContain('bots_name_length');
      expect(await refusal({ ...move, name: 'x'.repeat(61) })).toContain('bots_name_length');

      const bot = await createBot(tx, owner, { ...move, name: `  ${'x'.repeat(60)}  ` });
      expect(await botOf(tx, bot)).toMatchObject({
        user_id: owner.id,
        name: 'x'.repeat(60),
        status: 'active',
        cooldown_minutes: 15,
        last_fired_at: null,
      });
    });
  });

  it('refuses a client change of the server’s fields, whatever the grants, and re-arms on a new rule or a resume', async () => {
    await inCase(db, async (tx) => {
      const owner = freshUser();
      await signUp(tx.query, owner);
      const bot = await createBot(tx, owner, above('0.0021'));
      const asOwner = (sql: string, params: unknown[]) =>
        tx.attempt(async () => {
          await tx.request(userClaims(owner), (query) => query(sql, [bot, ...params]));
          return { error: null, rows: 1 };
        });

      // The column grants refuse it on a hosted project...
      const fired = await asOwner('update public.bots set last_fired_at = now() where id = $1', []);
      expect(fired.error).toEqual({ code: '42501', message: 'permission denied for table bots' });
      // ...and the guard where every column is granted, as on the local stack.
      await tx.query('grant update on table public.bots to authenticated');
      const refusal = {
        code: '42501',
        message: 'Only the name, rule, cooldown and status of a bot can be changed by the client',
      };
      const other = freshUser();
      await signUp(tx.query, other);
      for (const [column, value] of [
        ['last_fired_at', new Date()],
        ['armed_at', new Date(0)],
        ['created_at', new Date(0)],
        ['user_id', other.id],
      ] as const) {
        expect((await asOwner(`update public.bots set ${column} = $2 where id = $1`, [value])).error).toEqual(
          refusal,
        );
      }
      expect(await botOf(tx, bot)).toMatchObject({ last_fired_at: null, user_id: owner.id });

      // The server may set them; the owner's new name keeps the bot armed as it was...
      const armedLongAgo = new Date('2026-01-01T00:00:00Z');
      const rearm = () => tx.query('update public.bots set armed_at = $2 where id = $1', [bot, armedLongAgo]);
      const armedAt = async () => (await botOf(tx, bot))?.['armed_at'];
      await rearm();
      expect((await asOwner(`update public.bots set name = 'Renamed' where id = $1`, [])).error).toBeNull();
      expect(await armedAt()).toEqual(armedLongAgo);
      // ...a new rule, or a resume, arms it anew.
      const now = await caseNow(tx);
      expect((await asOwner(`update public.bots set level = 0.003 where id = $1`, [])).error).toBeNull();
      expect(await armedAt()).toEqual(now);
      await rearm();
      expect((await asOwner(`update public.bots set status = 'paused' where id = $1`, [])).error).toBeNull();
      expect(await armedAt()).toEqual(armedLongAgo);
      expect((await asOwner(`update public.bots set status = 'active' where id = $1`, [])).error).toBeNull();
      expect(await armedAt()).toEqual(now);
    });
  });

  it('are their owner’s alone: another user can neither read nor change nor delete one, nor see its runs', async () => {
    await inCase(db, async (tx) => {
      const [owner, other] = [freshUser(), freshUser()];
      await signUp(tx.query, owner);
      await signUp(tx.query, other);
      const bot = await createBot(tx, owner, above('0.0021'));
      expect(await evaluate(tx, swap(later(), '0.002', '0.0022'))).toBe(1);
      const before = await botOf(tx, bot);

      const answers = await tx.request(userClaims(other), async (query) => [
        (await query('select * from public.bots where id = $1', [bot])).rowCount,
        (await query(`update public.bots set name = 'Mine now' where id = $1 returning *`, [bot])).rowCount,
        (await query(`update public.bots set status = 'paused' where id = $1 returning *`, [bot])).rowCount,
        (await query('delete from public.bots where id = $1 returning *', [bot])).rowCount,
        (await query('select * from public.bot_runs where bot_id = $1', [bot])).rowCount,
      ]);
      expect(answers).toEqual([0, 0, 0, 0, 0]);
      const stolen = await tx.attempt(async () => {
        await createBot(tx, other, { ...above('0.0021'), user_id: owner.id });
        return { error: null, rows: 1 };
      });
      expect(stolen.error?.code).toBe('42501');
      expect(await botOf(tx, bot)).toEqual(before);
    });
  });
});
