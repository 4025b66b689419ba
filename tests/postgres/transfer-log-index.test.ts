import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitStatements } from '../../stack/postgres/load-project.ts';
import { connectAs, inCase } from '../support/postgres/sql.ts';

// One history row per transfer (migration 20261126000001) on a real PostgreSQL loaded like a
// hosted project: the migration keeps the rows recorded before it, each log of a transaction is a
// row of its own, and writers of one transfer that arrive together (Tatum's webhook and the
// portal's record-transaction) record it once. The contract layer proves the same through the
// functions on the local stack (tests/contract/transactions.test.ts, process-payments.test.ts).

const MIGRATION = 'supabase/migrations/20261126000001_transfer_log_index.sql';
const RECORD_TRANSFER_AT_LOG =
  'public.record_transfer(uuid, text, text, integer, text, text, text, text, text)';

let db: pg.Client;
beforeAll(async () => {
  db = await connectAs();
});
afterAll(async () => {
  await db?.end();
});

const txHash = () => `0x${randomBytes(32).toString('hex')}`;

/** A user as Auth writes one, through `run`; returns its id. */
async function signUp(run: (sql: string, params: unknown[]) => Promise<unknown>): Promise<string> {
  const id = randomUUID();
  await run(
    `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data,
       created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       '{}', '{}', now(), now())`,
    [id, `transfers-${id.slice(0, 8)}@example.test`],
  );
  return id;
}

const recordAt = `select public.record_transfer(p_user_id => $1, p_tx_hash => $2, p_type => 'token_received',
  p_log_index => $3, p_status => 'confirmed', p_amount => '2', p_token_symbol => 'DDEX',
  p_title => 'DDEX Received', p_message => 'You received 2 DDEX.') as recorded`;

describe('migration 20261126000001: one row per transfer', () => {
  it('keeps every row recorded before it, without a log, and a later writer that names one meets it', async () => {
    await inCase(db, async (tx) => {
      // The database as it was before the migration: one row per (user, transaction, type).
      await tx.query(
        `drop function public.record_transfer(uuid, text, text, integer, text, text, text, text, text);
         alter table public.transactions drop constraint transactions_one_row_per_transfer;
         alter table public.transactions drop column log_index;
         alter table public.transactions
           add constraint transactions_one_row_per_transfer unique (user_id, tx_hash, type)`,
      );
      const user = await signUp((sql, params) => tx.query(sql, params));
      const [token, fee] = [txHash(), txHash()];
      await tx.query(
        `insert into public.transactions (user_id, tx_hash, type, status, amount, token_symbol) values
           ($1, $2, 'token_received', 'confirmed', '2', 'DDEX'),
           ($1, $2, 'native_received', 'confirmed', '0.5', 'ETH'),
           ($1, $3, 'fee', 'confirmed', '-0.000021', 'ETH')`,
        [user, token, fee],
      );
      const before = await tx.query('select * from public.transactions where user_id = $1 order by id', [
        user,
      ]);

      for (const statement of splitStatements(readFileSync(MIGRATION, 'utf8'))) {
        await tx.query(statement.text);
      }

      const after = await tx.query('select * from public.transactions where user_id = $1 order by id', [
        user,
      ]);
      expect(after.rows).toEqual(before.rows.map((row) => ({ ...row, log_index: null })));
      // The webhook of the token transfer, now naming its log, meets the old row; a second
      // transfer of the same transaction is a row of its own.
      expect((await tx.query(recordAt, [user, token, 3])).rows).toEqual([{ recorded: false }]);
      expect((await tx.query(recordAt, [user, token, 4])).rows).toEqual([{ recorded: true }]);
      const logs = await tx.query(
        `select type, log_index from public.transactions where user_id = $1 order by type, log_index`,
        [user],
      );
      expect(logs.rows).toEqual([
        { type: 'fee', log_index: null },
        { type: 'native_received', log_index: null },
        { type: 'token_received', log_index: 3 },
        { type: 'token_received', log_index: 4 },
      ]);
    });
  });

  it('matches a transfer recorded without its log only by its token and amount', async () => {
    await inCase(db, async (tx) => {
      const user = await signUp((sql, params) => tx.query(sql, params));
      await tx.query('set local role service_role');
      const hash = txHash();
      const record = (log: number | null, amount: string) =>
        tx.query(
          `select public.record_transfer(p_user_id => $1, p_tx_hash => $2, p_type => 'token_sent',
             p_log_index => $3, p_status => 'confirmed', p_amount => $4, p_token_symbol => 'DDEX') as recorded`,
          [user, hash, log, amount],
        );
      // A legacy delivery (no log) of the first of two transfers in one transaction...
      expect((await record(null, '-1.5')).rows).toEqual([{ recorded: true }]);
      // ...does not make the second transfer, named with its log, look recorded.
      expect((await record(4, '-2')).rows).toEqual([{ recorded: true }]);
      // The first, named with its log (the same amount, written another way), takes its own row over.
      expect((await record(3, '-1.50')).rows).toEqual([{ recorded: false }]);
      // A legacy delivery of the second, again, meets the row its log made.
      expect((await record(null, '-2')).rows).toEqual([{ recorded: false }]);
      const { rows } = await tx.query(
        'select log_index, amount from public.transactions where user_id = $1 and tx_hash = $2 order by log_index',
        [user, hash],
      );
      expect(rows).toEqual([
        { log_index: 3, amount: '-1.5' },
        { log_index: 4, amount: '-2' },
      ]);
    });
  });

  it('lets service_role alone record a transfer at its log', async () => {
    const { rows } = await db.query(
      `select has_function_privilege('anon', $1::regprocedure, 'EXECUTE') as anon,
              has_function_privilege('authenticated', $1::regprocedure, 'EXECUTE') as authenticated,
              has_function_privilege('service_role', $1::regprocedure, 'EXECUTE') as service_role,
              exists (select 1 from pg_proc p, aclexplode(p.proacl) acl
                      where p.oid = $1::regprocedure and acl.grantee = 0) as public`,
      [RECORD_TRANSFER_AT_LOG],
    );
    expect(rows).toEqual([{ anon: false, authenticated: false, service_role: true, public: false }]);
  });

  it('records a transfer once when its two writers arrive together, one without its log', async () => {
    // Committed, unlike the cases above: the second writer must see the first one's commit.
    const user = await signUp((sql, params) => db.query(sql, params));
    const hash = txHash();
    const [webhook, portal] = [await connectAs(), await connectAs()];
    try {
      for (const writer of [webhook, portal]) await writer.query('begin; set local role service_role');
      // Tatum's legacy delivery, which names no log, records the row and has not committed yet...
      expect((await webhook.query(recordAt, [user, hash, null])).rows).toEqual([{ recorded: true }]);
      // ...when record-transaction, which knows the log, records the same transfer.
      const portalPid = (await portal.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
      const recording = portal.query(recordAt, [user, hash, 7]);
      await expect
        .poll(async () => {
          const { rows } = await db.query<{ waiting: string | null }>(
            'select wait_event_type as waiting from pg_stat_activity where pid = $1',
            [portalPid],
          );
          return rows[0]?.waiting;
        })
        .toBe('Lock');
      await webhook.query('commit');
      expect((await recording).rows).toEqual([{ recorded: false }]);
      await portal.query('commit');

      const { rows } = await db.query(
        'select log_index from public.transactions where user_id = $1 and tx_hash = $2',
        [user, hash],
      );
      expect(rows).toEqual([{ log_index: 7 }]);
      const notices = await db.query(
        'select count(*)::int as count from public.user_notifications where user_id = $1',
        [user],
      );
      expect(notices.rows).toEqual([{ count: 1 }]);
    } finally {
      await Promise.all([webhook.end(), portal.end()]);
      await db.query('delete from auth.users where id = $1', [user]);
    }
  });
});
