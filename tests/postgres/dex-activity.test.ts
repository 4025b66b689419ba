import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Case, connectAs, inCase, SERVICE } from '../support/postgres/sql.ts';

// The profile's last_dex_activity (a spec field the Trading tab's context card shows as 'Last DEX
// activity') on a real PostgreSQL loaded like a hosted project: the time of the user's newest swap
// in their history, as the server records it; nothing else the history holds moves it.

let db: pg.Client;
beforeAll(async () => {
  db = await connectAs();
});
afterAll(async () => {
  await db?.end();
});

async function freshUser(tx: Case): Promise<string> {
  const id = randomUUID();
  await tx.query(
    `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data,
       created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '{}', '{}',
       now(), now())`,
    [id, `dex-${id.slice(0, 8)}@example.test`],
  );
  await tx.query('insert into public.profiles (id) values ($1)', [id]);
  return id;
}

/** A history row as record-transaction writes one (the service role), at `at`. */
const record = (tx: Case, userId: string, type: string, at: string) =>
  tx.request(SERVICE, (query) =>
    query(
      `insert into public.transactions (user_id, created_at, type, status, amount, token_symbol, tx_hash)
       values ($1, $2, $3, 'confirmed', '1', 'DDEX', $4)`,
      [userId, at, type, `0x${randomUUID().replace(/-/g, '')}`],
    ),
  );

const lastActivityOf = async (tx: Case, userId: string): Promise<string | null> => {
  const { rows } = await tx.query<{ at: string | null }>(
    `select to_char(last_dex_activity at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at
       from public.profiles where id = $1`,
    [userId],
  );
  return rows[0]?.at ?? null;
};

describe('last DEX activity', () => {
  it('is the time of the user’s newest recorded swap, and nothing else moves it', async () => {
    await inCase(db, async (tx) => {
      const trader = await freshUser(tx);
      const other = await freshUser(tx);
      expect(await lastActivityOf(tx, trader)).toBeNull();

      await record(tx, trader, 'token_sent', '2026-11-01T10:00:00Z');
      expect(await lastActivityOf(tx, trader)).toBeNull();

      await record(tx, trader, 'swap', '2026-11-02T10:00:00Z');
      expect(await lastActivityOf(tx, trader)).toBe('2026-11-02T10:00:00Z');

      // A swap recorded late (a retried call) does not move it back.
      await record(tx, trader, 'swap', '2026-11-01T12:00:00Z');
      expect(await lastActivityOf(tx, trader)).toBe('2026-11-02T10:00:00Z');
      await record(tx, trader, 'swap', '2026-11-03T09:30:00Z');
      expect(await lastActivityOf(tx, trader)).toBe('2026-11-03T09:30:00Z');

      expect(await lastActivityOf(tx, other)).toBeNull();
    });
  });
});
