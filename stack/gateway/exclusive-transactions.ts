import type { PGlite, Transaction } from '@electric-sql/pglite';
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';

// lite's PGlite driver (0.10) begins a transaction with a plain `BEGIN` query and ends it with
// another, so PGlite's lock is held only for each statement: the statements of every other request
// run inside the open transaction meanwhile. A request that rolls back then undoes another's writes
// (a Sign in with Ethereum whose user and profile vanished after its session was issued), and a
// statement runs under the role and JWT claims another request set with SET LOCAL. Hosted Supabase
// gives each request a connection of its own. Here each transaction runs inside PGlite's own
// `transaction()`, which holds its lock from BEGIN to COMMIT: the other requests' statements wait
// their turn, as they would for the one connection of a pool of one.

// lite also opens every request's transaction with one statement per setting: the role, each JWT
// claim and the storage operation by set_config, then SET LOCAL ROLE, and five more for an RPC.
// Each statement is a round trip through PGlite's wire protocol on the one connection, which
// every other request waits for; under bench:load they were four statements in ten. Inside a
// transaction they are held and sent with set_config in one statement before the next query
// (lite reads none of their results). Their effect is the same: set_config(…, true) and SET
// LOCAL both end with the transaction, and a setting Postgres refuses fails that next statement,
// so the request still fails, in its own transaction.
const SET_CONFIG = /^SELECT set_config\('([\w.]+)', (?:\$1|''), true\)$/;
const SET_LOCAL_ROLE = /^SET LOCAL ROLE "((?:[^"]|"")+)"$/;

/** The setting a statement makes, when it only makes one; null for any other statement. */
function settingOf(query: CompiledQuery): [name: string, value: string] | null {
  const config = SET_CONFIG.exec(query.sql);
  if (config) return [config[1] as string, query.parameters.length === 1 ? String(query.parameters[0]) : ''];
  const role = SET_LOCAL_ROLE.exec(query.sql);
  if (role && query.parameters.length === 0) return ['role', (role[1] as string).replaceAll('""', '"')];
  return null;
}

class ExclusiveConnection implements DatabaseConnection {
  #transaction: Transaction | null = null;
  /** Settings not yet sent, in the order they were made. */
  #settings: [string, string][] = [];
  #finish: ((commit: boolean) => void) | null = null;
  #finished: Promise<unknown> | null = null;

  constructor(private readonly pg: PGlite) {}

  async begin(): Promise<void> {
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    this.#finished = this.pg.transaction(async (transaction) => {
      this.#transaction = transaction;
      started();
      const commit = await new Promise<boolean>((resolve) => (this.#finish = resolve));
      if (!commit) await transaction.rollback();
    });
    // A BEGIN that fails ends the transaction before it starts: its error is the begin's.
    await Promise.race([ready, this.#finished]);
  }

  async end(commit: boolean): Promise<void> {
    this.#finish?.(commit);
    try {
      await this.#finished;
    } finally {
      this.#transaction = null;
      this.#settings = [];
      this.#finish = null;
      this.#finished = null;
    }
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const transaction = this.#transaction;
    const setting = transaction === null ? null : settingOf(query);
    if (setting !== null) {
      this.#settings.push(setting);
      return { rows: [{ set_config: setting[1] } as R] };
    }
    if (transaction !== null && this.#settings.length > 0) await this.#sendSettings(transaction);
    const result = await (transaction ?? this.pg).query<R>(query.sql, [...query.parameters]);
    return {
      rows: result.rows,
      ...(typeof result.affectedRows === 'number' ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  async #sendSettings(transaction: Transaction): Promise<void> {
    const settings = this.#settings;
    this.#settings = [];
    const calls = settings.map((_, index) => `set_config($${2 * index + 1}, $${2 * index + 2}, true)`);
    await transaction.query(`select ${calls.join(', ')}`, settings.flat());
  }

  // eslint-disable-next-line require-yield -- kysely's interface; PGlite cannot stream.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }
}

class ExclusiveDriver implements Driver {
  constructor(private readonly pg: PGlite) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new ExclusiveConnection(this.pg);
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ExclusiveConnection).begin();
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ExclusiveConnection).end(true);
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ExclusiveConnection).end(false);
  }
  async releaseConnection(): Promise<void> {}
  // The PGlite instance belongs to lite's connection, which closes it.
  async destroy(): Promise<void> {}
}

/** A query builder on this PGlite whose transactions hold the database until they end. */
export function exclusiveKysely<Schema>(pg: PGlite): Kysely<Schema> {
  return new Kysely<Schema>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new ExclusiveDriver(pg),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}
