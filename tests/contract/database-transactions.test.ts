import { PGlite } from '@electric-sql/pglite';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exclusiveKysely } from '../../stack/gateway/exclusive-transactions.ts';

// The gateway's one database connection, as lite's requests use it (stack/gateway/exclusive-
// transactions.ts): a transaction that waits for something in its middle (auth signing a token)
// must not take in another request's statements, or another's rollback undoes it.

let pg: PGlite;
let db: Kysely<unknown>;
/** Lets every other callback waiting on the event loop run, as a request awaiting I/O does. */
const awaitingIo = () => new Promise((resolve) => setImmediate(resolve));

beforeAll(async () => {
  pg = new PGlite();
  await pg.exec('create table notes (id int primary key, body text check (length(body) <= 8))');
  db = exclusiveKysely(pg);
});
afterAll(() => pg.close());

const ids = async () =>
  (await sql<{ id: number }>`select id from notes order by id`.execute(db)).rows.map(({ id }) => id);

describe('transactions on the one connection', () => {
  it("keeps a transaction's writes when another fails and rolls back meanwhile", async () => {
    await sql`delete from notes`.execute(db);
    const kept = db.transaction().execute(async (trx) => {
      await sql`insert into notes values (1, 'kept')`.execute(trx);
      await awaitingIo();
      await sql`insert into notes values (2, 'kept too')`.execute(trx);
    });
    const refused = db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into notes values (3, 'far too long')`.execute(trx);
      })
      .then(
        () => 'saved',
        (error: Error) => error.message,
      );
    await kept;
    expect(await refused).toMatch(/check constraint/);
    expect(await ids()).toEqual([1, 2]);
  });

  it('rolls back every write of a failed transaction, and leaves the next one whole', async () => {
    await sql`delete from notes`.execute(db);
    const failed = db.transaction().execute(async (trx) => {
      await sql`insert into notes values (1, 'gone')`.execute(trx);
      await awaitingIo();
      await sql`insert into notes values (2, 'far too long')`.execute(trx);
    });
    const next = db.transaction().execute(async (trx) => {
      await sql`insert into notes values (3, 'next')`.execute(trx);
    });
    await expect(failed).rejects.toThrow(/check constraint/);
    await next;
    expect(await ids()).toEqual([3]);
  });

  it('runs a statement outside any transaction after the open one ends, not inside it', async () => {
    await sql`delete from notes`.execute(db);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const open = db.transaction().execute(async (trx) => {
      await sql`insert into notes values (1, 'open')`.execute(trx);
      await released;
      throw new Error('changed its mind');
    });
    const outside = sql`insert into notes values (2, 'outside')`.execute(db);
    await awaitingIo();
    release();
    await expect(open).rejects.toThrow('changed its mind');
    await outside;
    expect(await ids()).toEqual([2]);
  });
});
