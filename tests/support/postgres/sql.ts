import pg from 'pg';
import { expect, inject } from 'vitest';

// How the postgres layer talks to its server (tests/support/postgres/global-setup.ts).

/** The JWT claims of a request, as PostgREST hands them to the database. */
export type Claims = {
  role: 'anon' | 'authenticated' | 'service_role';
  sub?: string;
  email?: string;
  aud?: string;
};

export const ANON: Claims = { role: 'anon' };
export const SERVICE: Claims = { role: 'service_role' };
export const userClaims = (user: { id: string; email: string }): Claims => ({
  role: 'authenticated',
  aud: 'authenticated',
  sub: user.id,
  email: user.email,
});

/** Connects as one of the server's login roles (the bootstrap superuser by default). */
export async function connectAs(user?: string): Promise<pg.Client> {
  const server = inject('postgres');
  const client = new pg.Client({
    host: server.host,
    port: server.port,
    database: server.database,
    user: user ?? server.superuser,
    password: server.password,
  });
  await client.connect();
  return client;
}

export type Query = <R extends pg.QueryResultRow = Record<string, unknown>>(
  sql: string,
  params?: unknown[],
) => Promise<pg.QueryResult<R>>;

/** What a call answered: its error, and how many of the rows it returned or touched are the target. */
export type SqlAnswer = { error: { code: string; message: string } | null; rows: number };

/**
 * One case of a test: a transaction on a superuser connection that is always rolled back, so
 * cases never see each other's rows. Outside `request` the queries run as the superuser, which
 * reads the state a call left behind: no other session could, as it is never committed.
 */
export class Case {
  constructor(private readonly db: pg.Client) {}

  /** A query as the superuser. */
  readonly query: Query = (sql, params) => this.db.query(sql, params);

  /**
   * Runs `fn` as one request to the Data API: as PostgREST's login role `authenticator`
   * (SET SESSION AUTHORIZATION, so session_user is authenticator as on PostgREST's connections),
   * which switches to the request's role and sets its claims and search path, transaction-local
   * as PostgREST does before every request. Afterwards the case is the superuser again.
   */
  async request<T>(claims: Claims, fn: (query: Query) => Promise<T>): Promise<T> {
    await this.db.query('set local session authorization authenticator');
    await this.db.query(`set local role ${this.db.escapeIdentifier(claims.role)}`);
    await this.db.query(
      `select set_config('request.jwt.claims', $1, true), set_config('search_path', 'public, extensions', true)`,
      [JSON.stringify(claims)],
    );
    const result = await fn(this.query);
    await this.db.query(
      `set local role none;
       set local session authorization default;
       select set_config('request.jwt.claims', '', true), set_config('search_path', '"$user", public', true)`,
    );
    return result;
  }

  /**
   * Makes a call that may be refused: a refusal rolls back to before the call (and its request
   * settings) and becomes the answer's error, so the case can still read the state afterwards.
   */
  async attempt(call: () => Promise<SqlAnswer>): Promise<SqlAnswer> {
    await this.db.query('savepoint call');
    try {
      const answer = await call();
      await this.db.query('release savepoint call');
      return answer;
    } catch (error) {
      if (!(error instanceof pg.DatabaseError)) throw error;
      await this.db.query('rollback to savepoint call');
      return { error: { code: error.code ?? '', message: error.message }, rows: 0 };
    }
  }
}

/** Runs `fn` in a case that is rolled back whatever happens. */
export async function inCase<T>(db: pg.Client, fn: (tx: Case) => Promise<T>): Promise<T> {
  await db.query('begin');
  try {
    return await fn(new Case(db));
  } finally {
    await db.query('rollback');
  }
}

/** A call's answer from its result: the rows that are the target. */
export function answerOf<R extends pg.QueryResultRow>(
  result: pg.QueryResult<R>,
  isTarget: (row: R) => boolean,
): SqlAnswer {
  return { error: null, rows: result.rows.filter(isTarget).length };
}

/**
 * Waits until the session `pid` waits on a lock, as `db` (the superuser) sees it: the moment a
 * second writer is known to queue behind the first, so a test of two at once is not left to timing.
 */
export async function waitUntilBlocked(db: pg.Client, pid: number, what: string): Promise<void> {
  const waitOf = async () => {
    const { rows } = await db.query<{ wait: string | null }>(
      'select wait_event_type as wait from pg_stat_activity where pid = $1',
      [pid],
    );
    return rows[0]?.wait;
  };
  await expect.poll(waitOf, { message: what, timeout: 10_000, interval: 10 }).toBe('Lock');
}
