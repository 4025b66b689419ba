import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Case, connectAs, inCase, SERVICE } from '../support/postgres/sql.ts';

// The email alerts' outbox (migration 20261206000001) on a real PostgreSQL loaded like a hosted
// project: a notification of a kind its owner turned on queues one mail, nothing else does; two
// drains claiming at once on two sessions take different rows without waiting for each other; a
// sent row is never claimed again, a failed one waits and keeps why. The contract layer drives the
// same through the email-alerts function and a mailbox (tests/contract/email-alerts.test.ts).

type User = { id: string; email: string };
type Claimed = { id: string; claim: string; recipient: string; subject: string; attempts: number };

let db: pg.Client;
beforeAll(async () => {
  db = await connectAs();
});
afterAll(async () => {
  await db?.end();
});

const freshUser = (): User => {
  const id = randomUUID();
  return { id, email: `alerts-${id.slice(0, 8)}@example.test` };
};

/** A user as Auth makes one (confirmed unless said otherwise) with a profile holding `preferences`. */
async function userWith(
  run: (sql: string, params?: unknown[]) => Promise<unknown>,
  user: User,
  preferences: unknown,
  { email = user.email as string | null, confirmed = true } = {},
): Promise<void> {
  await run(
    `insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       case when $3 then now() end, '{}', '{}', now(), now())`,
    [user.id, email, confirmed],
  );
  await run('insert into public.profiles (id, notification_preferences) values ($1, $2)', [
    user.id,
    JSON.stringify(preferences),
  ]);
}

/** A notification as the server writes one (the service role). */
const notify = (tx: Case, user: User, kind: string | null, title = 'ETH Received') =>
  tx.request(SERVICE, (query) =>
    query('insert into public.user_notifications (user_id, title, message, kind) values ($1, $2, $3, $4)', [
      user.id,
      title,
      `${title}.`,
      kind,
    ]),
  );

type OutboxRow = {
  kind: string;
  recipient: string;
  subject: string;
  attempts: number;
  sent_at: string | null;
};

const outboxOf = async (tx: { query: Case['query'] }, user: User): Promise<OutboxRow[]> =>
  (
    await tx.query<OutboxRow>(
      'select kind, recipient, subject, attempts, sent_at from public.email_outbox where user_id = $1',
      [user.id],
    )
  ).rows;

describe('the outbox on PostgreSQL', () => {
  it('queues one mail for a notification of a kind its confirmed owner turned on, and none otherwise', async () => {
    await inCase(db, async (tx) => {
      const keen = freshUser();
      const off = freshUser();
      const unconfirmed = freshUser();
      const walletOnly = freshUser();
      await userWith(tx.query, keen, { email: { transfers: true, bots: 'true' } });
      await userWith(tx.query, off, { email: { transfers: false } });
      await userWith(tx.query, unconfirmed, { email: { transfers: true } }, { confirmed: false });
      await userWith(tx.query, walletOnly, { email: { transfers: true } }, { email: null });

      await notify(tx, keen, 'transfers');
      await notify(tx, keen, 'bots', 'DDEX above 1 ETH');
      await notify(tx, keen, null, 'DDEX Bought');
      for (const user of [off, unconfirmed, walletOnly]) await notify(tx, user, 'transfers');

      // Only a JSON true turns a kind on: the string 'true' does not.
      expect(await outboxOf(tx, keen)).toEqual([
        { kind: 'transfers', recipient: keen.email, subject: 'ETH Received', attempts: 0, sent_at: null },
      ]);
      for (const user of [off, unconfirmed, walletOnly]) expect(await outboxOf(tx, user)).toEqual([]);
    });
  });

  it('gives two drains claiming at once different rows, without one waiting for the other', async () => {
    // Committed, so that two sessions see them.
    const user = freshUser();
    await userWith((sql, params) => db.query(sql, params), user, { email: { transfers: true } });
    for (let i = 0; i < 4; i++) {
      await db.query(
        "insert into public.user_notifications (user_id, title, message, kind) values ($1, $2, '', 'transfers')",
        [user.id, `Mail ${i}`],
      );
    }
    const [first, second] = [await connectAs(), await connectAs()];
    const claimOn = async (client: pg.Client, limit: number) => {
      await client.query('begin');
      await client.query('set local role service_role');
      return (await client.query<Claimed>('select * from public.claim_email_alerts($1, 60)', [limit])).rows;
    };
    try {
      const a = (await claimOn(first, 2)).filter((row) => row.recipient === user.email);
      // Before the first commits: its rows are locked, and skipped rather than waited for.
      const b = (await claimOn(second, 10)).filter((row) => row.recipient === user.email);
      await first.query('commit');
      await second.query('commit');
      expect(a).toHaveLength(2);
      expect(b).toHaveLength(2);
      expect(b.filter((row) => a.some((taken) => taken.id === row.id))).toEqual([]);

      // Leased, they are nobody else's; sent, never anybody's again.
      const third = await claimOn(first, 10);
      expect(third.filter((row) => row.recipient === user.email)).toEqual([]);
      await first.query('rollback');
      for (const row of [...a, ...b]) {
        const { rows } = await db.query<{ done: boolean }>(
          'select public.finish_email_alert($1, $2, null) as done',
          [row.id, row.claim],
        );
        expect(rows[0]?.done).toBe(true);
      }
      await db.query(
        "update public.email_outbox set claimed_until = now() - interval '1 second' where user_id = $1",
        [user.id],
      );
      const again = await claimOn(first, 10);
      await first.query('commit');
      expect(again.filter((row) => row.recipient === user.email)).toEqual([]);
      expect(
        (await outboxOf({ query: (sql, params) => db.query(sql, params) }, user)).every(
          (row) => row.sent_at !== null,
        ),
      ).toBe(true);
    } finally {
      await first.end();
      await second.end();
      await db.query('delete from auth.users where id = $1', [user.id]);
    }
  });

  it('puts a row whose drain stopped mid-send behind the rows due before its lease ran out', async () => {
    await inCase(db, async (tx) => {
      // Only this case's rows: claims of one row at a time take the first due in the whole outbox.
      await tx.query('delete from public.email_outbox');
      const user = freshUser();
      await userWith(tx.query, user, { email: { transfers: true } });
      await notify(tx, user, 'transfers', 'Stuck');
      await notify(tx, user, 'transfers', 'Waiting');
      // Within one transaction now() stands still: each row's times are set as if queued earlier.
      await tx.query(
        `update public.email_outbox
            set next_attempt_at = now() - case subject when 'Stuck' then interval '10 minutes'
                                                               else interval '5 minutes' end
          where user_id = $1`,
        [user.id],
      );
      const claimOne = () =>
        tx.request(SERVICE, async (query) =>
          (await query<Claimed>('select * from public.claim_email_alerts(1, 60)')).rows.map(
            (row) => row.subject,
          ),
        );
      expect(await claimOne()).toEqual(['Stuck']);
      // Its drain stops without finishing it. 61 s later (every time moved back as far) its lease
      // has run out: the row due before is sent first, then the stopped one.
      await tx.query(
        `update public.email_outbox
            set next_attempt_at = next_attempt_at - interval '61 seconds',
                claimed_until = claimed_until - interval '61 seconds'
          where user_id = $1`,
        [user.id],
      );
      expect(await claimOne()).toEqual(['Waiting']);
      expect(await claimOne()).toEqual(['Stuck']);
      expect(await claimOne()).toEqual([]);
    });
  });

  it('sends a retry to the address the account has now, and discards it when it has none confirmed', async () => {
    await inCase(db, async (tx) => {
      await tx.query('delete from public.email_outbox');
      const moved = freshUser();
      const unconfirmed = freshUser();
      await userWith(tx.query, moved, { email: { transfers: true } });
      await userWith(tx.query, unconfirmed, { email: { transfers: true } });
      await notify(tx, moved, 'transfers');
      await notify(tx, unconfirmed, 'transfers');
      expect((await outboxOf(tx, moved))[0]?.recipient).toBe(moved.email);

      const newAddress = `moved-${moved.id.slice(0, 8)}@example.test`;
      await tx.query('update auth.users set email = $2, email_confirmed_at = now() where id = $1', [
        moved.id,
        newAddress,
      ]);
      await tx.query('update auth.users set email = $2, email_confirmed_at = null where id = $1', [
        unconfirmed.id,
        `unconfirmed-${unconfirmed.id.slice(0, 8)}@example.test`,
      ]);
      const claimed = await tx.request(
        SERVICE,
        async (query) =>
          (await query<Claimed & { user_id: string }>('select * from public.claim_email_alerts(10, 60)'))
            .rows,
      );
      expect(claimed.map((row) => [row.user_id, row.recipient])).toEqual([[moved.id, newAddress]]);
      expect((await outboxOf(tx, moved))[0]?.recipient).toBe(newAddress);
      const { rows } = await tx.query<{ discarded: boolean }>(
        'select discarded_at is not null as discarded from public.email_outbox where user_id = $1',
        [unconfirmed.id],
      );
      expect(rows).toEqual([{ discarded: true }]);
    });
  });

  it('discards a mail the server refused for good, with the reason, by its own claim only', async () => {
    await inCase(db, async (tx) => {
      await tx.query('delete from public.email_outbox');
      const user = freshUser();
      await userWith(tx.query, user, { email: { transfers: true } });
      await notify(tx, user, 'transfers');
      const claim = () =>
        tx.request(
          SERVICE,
          async (query) => (await query<Claimed>('select * from public.claim_email_alerts(1, 60)')).rows,
        );
      const [row] = await claim();
      const discard = (claimId: string) =>
        tx.request(
          SERVICE,
          async (query) =>
            (
              await query<{ done: boolean }>('select public.discard_email_alert($1, $2, $3) as done', [
                row?.id,
                claimId,
                'the mail server refused the recipient for good: 550 5.1.1 no such user',
              ])
            ).rows[0]?.done,
        );
      expect(await discard(randomUUID())).toBe(false);
      expect(await discard(row?.claim ?? '')).toBe(true);
      const { rows } = await tx.query(
        `select attempts, sent_at, discarded_at is not null as discarded, last_error, claimed_by, claimed_until
           from public.email_outbox where id = $1`,
        [row?.id],
      );
      expect(rows).toEqual([
        {
          attempts: 1,
          sent_at: null,
          discarded: true,
          last_error: 'the mail server refused the recipient for good: 550 5.1.1 no such user',
          claimed_by: null,
          claimed_until: null,
        },
      ]);
      // Never claimed again, however long it waits.
      await tx.query(
        "update public.email_outbox set next_attempt_at = now() - interval '1 day' where id = $1",
        [row?.id],
      );
      expect(await claim()).toEqual([]);
    });
  });

  it('keeps a failed mail with its reason for a later attempt, and lets only its own claim finish it', async () => {
    await inCase(db, async (tx) => {
      const user = freshUser();
      await userWith(tx.query, user, { email: { bots: true } });
      await notify(tx, user, 'bots', 'DDEX below 1 ETH');
      const [row] = await tx.request(SERVICE, async (query) =>
        (await query<Claimed>('select * from public.claim_email_alerts(100, 60)')).rows.filter(
          (claimed) => claimed.recipient === user.email,
        ),
      );
      const finish = (claim: string, error: string | null) =>
        tx.request(
          SERVICE,
          async (query) =>
            (
              await query<{ done: boolean }>('select public.finish_email_alert($1, $2, $3, 30000) as done', [
                row?.id,
                claim,
                error,
              ])
            ).rows[0]?.done,
        );
      expect(await finish(randomUUID(), null)).toBe(false);
      expect(await finish(row?.claim ?? '', 'Error: connect ECONNREFUSED 127.0.0.1:2525')).toBe(true);
      const { rows } = await tx.query<{
        attempts: number;
        wait: number;
        last_error: string;
        claimed_by: null;
      }>(
        `select attempts, extract(epoch from next_attempt_at - now())::float8 as wait, last_error, claimed_by
           from public.email_outbox where id = $1`,
        [row?.id],
      );
      expect(rows[0]).toMatchObject({
        attempts: 1,
        last_error: 'Error: connect ECONNREFUSED 127.0.0.1:2525',
        claimed_by: null,
      });
      expect(rows[0]?.wait).toBeGreaterThan(29);
    });
  });
});
