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

// lite opens every request's transaction with one statement per setting (the role, each JWT claim,
// the storage operation, then SET LOCAL ROLE; an RPC adds five more). Each statement is a round
// trip through PGlite's wire protocol, and on the one connection that cost is every request's.
describe("a request's session settings", () => {
  let counted: PGlite;
  let countedDb: Kysely<unknown>;
  let statements = 0;

  beforeAll(async () => {
    counted = new PGlite();
    await counted.exec('create role authenticated nologin; grant usage on schema public to authenticated');
    const transaction = counted.transaction.bind(counted);
    counted.transaction = (fn) =>
      transaction((tx) => {
        const query = tx.query.bind(tx);
        tx.query = (...args) => {
          statements += 1;
          return query(...args);
        };
        return fn(tx);
      });
    countedDb = exclusiveKysely(counted);
  });
  afterAll(() => counted.close());

  /** The statements lite sends for a request, in its order and spelling (0.10). */
  const asRequest = async (trx: Kysely<unknown>, sub: string) => {
    const claims = JSON.stringify({ sub, role: 'authenticated' });
    await sql`SELECT set_config('role', ${'authenticated'}, true)`.execute(trx);
    await sql`SELECT set_config('request.jwt.claim.sub', ${sub}, true)`.execute(trx);
    await sql`SELECT set_config('request.jwt.claim.role', ${'authenticated'}, true)`.execute(trx);
    await sql`SELECT set_config('storage.operation', ${''}, true)`.execute(trx);
    await sql.raw('SET LOCAL ROLE "authenticated"').execute(trx);
    await sql`SELECT set_config('request.jwt.claims', ${claims}, true)`.execute(trx);
    await sql`SELECT set_config('response.status', '', true)`.execute(trx);
    await sql`SELECT set_config('request.method', ${'POST'}, true)`.execute(trx);
  };

  it("reach the request's query as one statement, under its role and claims", async () => {
    statements = 0;
    const seen = await countedDb.transaction().execute(async (trx) => {
      await asRequest(trx, 'user-1');
      return (
        await sql<{ role: string; sub: string; claims: string; method: string; status: string }>`
          select current_user as role, current_setting('request.jwt.claim.sub') as sub,
                 current_setting('request.jwt.claims') as claims,
                 current_setting('request.method') as method, current_setting('response.status') as status`.execute(
          trx,
        )
      ).rows[0];
    });
    expect(seen).toEqual({
      role: 'authenticated',
      sub: 'user-1',
      claims: JSON.stringify({ sub: 'user-1', role: 'authenticated' }),
      method: 'POST',
      status: '',
    });
    expect(statements).toBe(2);
  });

  it('end with the transaction, and a setting that fails fails the request', async () => {
    const after = await sql<{ sub: string | null }>`
      select current_setting('request.jwt.claim.sub', true) as sub`.execute(countedDb);
    expect(after.rows[0]?.sub ?? '').toBe('');
    const refused = countedDb.transaction().execute(async (trx) => {
      await sql`SELECT set_config('role', ${'nobody_at_all'}, true)`.execute(trx);
      await sql`select 1`.execute(trx);
    });
    await expect(refused).rejects.toThrow(/nobody_at_all/);
  });
});
