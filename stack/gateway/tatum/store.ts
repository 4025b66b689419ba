import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { AddressEvent } from './events.ts';

// The emulator's tables (stack/sql/tatum.sql): subscriptions, owed deliveries
// and the watcher's cursor. All SQL of the emulator lives here.

export type Subscription = { id: string; type: string; chain: string; address: string; url: string };

export type Delivery = { id: number; url: string; body: string; attempts: number };

export type Cursor = { blockNumber: bigint; blockHash: string };

export class DuplicateSubscriptionError extends Error {}

export function createTatumStore(pg: PGlite) {
  const moveCursor = async (cursor: Cursor, tx?: Transaction): Promise<void> => {
    await (tx ?? pg).query(
      `insert into _tatum.cursor (block_number, block_hash) values ($1, $2)
       on conflict (singleton) do update set block_number = excluded.block_number, block_hash = excluded.block_hash`,
      [cursor.blockNumber.toString(), cursor.blockHash],
    );
  };

  return {
    /** A new subscription, told of the blocks after `afterBlock` (the chain's head as it is made). */
    async addSubscription(input: Omit<Subscription, 'id'>, afterBlock: bigint): Promise<Subscription> {
      try {
        const { rows } = await pg.query<Subscription>(
          `insert into _tatum.subscriptions (type, chain, address, url, after_block) values ($1, $2, $3, $4, $5)
           returning id, type, chain, address, url`,
          [input.type, input.chain, input.address, input.url, afterBlock.toString()],
        );
        const row = rows[0];
        if (!row) throw new Error('insert returned no subscription');
        return row;
      } catch (error) {
        if ((error as { code?: string }).code === '23505') throw new DuplicateSubscriptionError();
        throw error;
      }
    },

    /**
     * The subscription, added unless it is there already. A receiver keeps its path when the
     * gateway moves to another port on kept data (STACK_GATEWAY_PORT), so a subscription of the
     * same address to the same path on another origin is the old one, and is dropped with
     * whatever it still owed: nothing listens there any more.
     */
    async ensureSubscription(input: Omit<Subscription, 'id'>, afterBlock: bigint): Promise<Subscription> {
      const target = new URL(input.url);
      return pg.transaction(async (tx) => {
        const { rows } = await tx.query<Subscription>(
          `select id, type, chain, address, url from _tatum.subscriptions
            where type = $1 and chain = $2 and lower(address) = lower($3)`,
          [input.type, input.chain, input.address],
        );
        let kept: Subscription | null = null;
        for (const row of rows) {
          if (row.url === input.url) {
            kept = row;
            continue;
          }
          const url = URL.canParse(row.url) ? new URL(row.url) : null;
          if (url?.pathname === target.pathname && url.origin !== target.origin) {
            await tx.query('delete from _tatum.subscriptions where id = $1', [row.id]);
          }
        }
        if (kept) return kept;
        // One connection runs one transaction at a time, so nothing can add it since the read above.
        const inserted = await tx.query<Subscription>(
          `insert into _tatum.subscriptions (type, chain, address, url, after_block) values ($1, $2, $3, $4, $5)
           returning id, type, chain, address, url`,
          [input.type, input.chain, input.address, input.url, afterBlock.toString()],
        );
        const row = inserted.rows[0];
        if (!row) throw new Error('insert returned no subscription');
        return row;
      });
    },

    async listSubscriptions(page: { pageSize: number; offset: number; address: string | null }) {
      const { rows } = await pg.query<Subscription>(
        `select id, type, chain, address, url from _tatum.subscriptions
          where $1::text is null or lower(address) = lower($1)
          order by created_at, id limit $2 offset $3`,
        [page.address, page.pageSize, page.offset * page.pageSize],
      );
      return rows;
    },

    /** Removes a subscription; returns how many undelivered events it still owed, or null if unknown. */
    async removeSubscription(id: string): Promise<number | null> {
      return pg.transaction(async (tx) => {
        const owed = await tx.query<{ count: number }>(
          `select count(*)::int as count from _tatum.deliveries
            where subscription_id = $1 and delivered_at is null`,
          [id],
        );
        const removed = await tx.query('delete from _tatum.subscriptions where id = $1', [id]);
        return removed.affectedRows ? (owed.rows[0]?.count ?? 0) : null;
      });
    },

    /** Lower-cased addresses with a subscription that block `blockNumber` is news to, and who watches each. */
    async watchers(blockNumber: bigint): Promise<Map<string, Subscription[]>> {
      const { rows } = await pg.query<Subscription>(
        `select id, type, chain, address, url from _tatum.subscriptions
          where after_block is null or after_block < $1 order by created_at, id`,
        [blockNumber.toString()],
      );
      const byAddress = new Map<string, Subscription[]>();
      for (const row of rows) {
        const key = row.address.toLowerCase();
        byAddress.set(key, [...(byAddress.get(key) ?? []), row]);
      }
      return byAddress;
    },

    async cursor(): Promise<Cursor | null> {
      const { rows } = await pg.query<{ block_number: string; block_hash: string }>(
        'select block_number::text, block_hash from _tatum.cursor',
      );
      const row = rows[0];
      return row ? { blockNumber: BigInt(row.block_number), blockHash: row.block_hash } : null;
    },

    moveCursor,

    /**
     * Owes each event to every subscription watching its address and moves the
     * cursor past the block in the same transaction, so a crash either records
     * both or neither and a block is never skipped.
     */
    async owe(
      events: { event: AddressEvent; subscription: Subscription; body: string }[],
      cursor: Cursor,
    ): Promise<number> {
      return pg.transaction(async (tx) => {
        let owed = 0;
        for (const { event, subscription, body } of events) {
          const result = await tx.query(
            `insert into _tatum.deliveries (subscription_id, event_key, url, body) values ($1, $2, $3, $4)
             on conflict (subscription_id, event_key) do nothing`,
            [subscription.id, event.key, subscription.url, body],
          );
          owed += result.affectedRows ?? 0;
        }
        await moveCursor(cursor, tx);
        return owed;
      });
    },

    /**
     * Owes every delivery made of transaction `txId` once more, flagged `reorg: true` as Tatum's
     * re-org follower sends them, in `blockNumber` when the chain now has the transaction there
     * (null: it keeps the block it named). Each replay is a delivery of its own; returns how many.
     */
    async replayAsReorg(txId: string, blockNumber: number | null): Promise<number> {
      return pg.transaction(async (tx) => {
        const { rows } = await tx.query<{
          subscription_id: string;
          event_key: string;
          url: string;
          body: string;
        }>(
          `select subscription_id, event_key, url, body from _tatum.deliveries
            where lower(body::jsonb ->> 'txId') = lower($1) and event_key not like '%:reorg:%'
            order by id`,
          [txId],
        );
        const { rows: counted } = await tx.query<{ n: number }>(
          `select count(*)::int as n from _tatum.deliveries
            where lower(body::jsonb ->> 'txId') = lower($1) and event_key like '%:reorg:%'`,
          [txId],
        );
        const round = counted[0]?.n ?? 0;
        for (const row of rows) {
          const body = JSON.parse(row.body) as Record<string, unknown>;
          const replayed = { ...body, ...(blockNumber === null ? {} : { blockNumber }), reorg: true };
          await tx.query(
            `insert into _tatum.deliveries (subscription_id, event_key, url, body) values ($1, $2, $3, $4)`,
            [row.subscription_id, `${row.event_key}:reorg:${round}`, row.url, JSON.stringify(replayed)],
          );
        }
        return rows.length;
      });
    },

    async dueDeliveries(limit: number): Promise<Delivery[]> {
      const { rows } = await pg.query<Delivery>(
        `select id::int as id, url, body, attempts from _tatum.deliveries
          where delivered_at is null and next_attempt_at <= now()
          order by id limit $1`,
        [limit],
      );
      return rows;
    },

    /** Milliseconds until the next owed delivery is due, or null when nothing is owed. */
    async nextDueInMs(): Promise<number | null> {
      const { rows } = await pg.query<{ ms: number | null }>(
        `select (extract(epoch from (min(next_attempt_at) - now())) * 1000)::float8 as ms
           from _tatum.deliveries where delivered_at is null`,
      );
      // Not greatest(0, …) in SQL: greatest skips a null, and "nothing owed" would read as "due now".
      const ms = rows[0]?.ms ?? null;
      return ms === null ? null : Math.max(0, ms);
    },

    async delivered(id: number, status: number): Promise<void> {
      await pg.query(
        `update _tatum.deliveries set delivered_at = now(), attempts = attempts + 1, last_status = $2,
                last_error = null where id = $1`,
        [id, status],
      );
    },

    async failed(id: number, problem: { status: number | null; error: string; retryInMs: number }) {
      await pg.query(
        `update _tatum.deliveries
            set attempts = attempts + 1, last_status = $2, last_error = $3,
                next_attempt_at = now() + make_interval(secs => $4::float8 / 1000)
          where id = $1`,
        [id, problem.status, problem.error, problem.retryInMs],
      );
    },
  };
}

export type TatumStore = ReturnType<typeof createTatumStore>;
