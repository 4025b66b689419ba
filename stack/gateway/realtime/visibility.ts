import type { PGlite } from '@electric-sql/pglite';
import { applyClaims, quoteIdent } from '../as-role.ts';
import type { Claims } from '../claims.ts';
import type { Change } from './feed.ts';

// Decides whether a subscriber may see a changed row by asking Postgres under
// the subscriber's role and claims, so the table's own RLS policies decide.
// A deleted row no longer exists to select, so it is put back inside a
// transaction that is always rolled back, and checked there. Each check is a
// transaction on the gateway's one database connection, so a change is checked
// once per identity, however many channels that identity has open.

export type TableInfo = { primaryKey: string[]; columns: { name: string; type: string }[] };

export function createTableInfo(pg: PGlite): (schema: string, table: string) => Promise<TableInfo> {
  const cache = new Map<string, Promise<TableInfo>>();
  return (schema, table) => {
    const key = `${schema}.${table}`;
    let info = cache.get(key);
    if (!info) {
      info = load(pg, schema, table);
      cache.set(key, info);
    }
    return info;
  };
}

async function load(pg: PGlite, schema: string, table: string): Promise<TableInfo> {
  const relation = `${quoteIdent(schema)}.${quoteIdent(table)}`;
  const columns = await pg.query<{ name: string; type: string }>(
    `select a.attname as name, t.typname as type
       from pg_attribute a join pg_type t on t.oid = a.atttypid
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [relation],
  );
  const keys = await pg.query<{ name: string }>(
    `select a.attname as name
       from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = $1::regclass and i.indisprimary`,
    [relation],
  );
  return { columns: columns.rows, primaryKey: keys.rows.map((row) => row.name) };
}

/**
 * Who a check is for: everything a policy can read of the caller (role, subject, all claims), less
 * when the token was issued and when it expires, so one user's channels share a check even across
 * sockets and refreshed tokens. Expiry itself is enforced on the channel, not by policies.
 */
export function identityKey(claims: Claims): string {
  const rest = Object.entries(claims.raw)
    .filter(([name]) => name !== 'exp' && name !== 'iat' && name !== 'nbf')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([claims.role, claims.sub, rest]);
}

/** For one change: whether each identity may see it, asked of Postgres once per identity. */
export function visibilityOf(
  pg: PGlite,
  change: Change,
  info: TableInfo,
): (claims: Claims) => Promise<boolean> {
  const verdicts = new Map<string, Promise<boolean>>();
  return (claims) => {
    const key = identityKey(claims);
    let verdict = verdicts.get(key);
    if (!verdict) {
      verdict = canSee(pg, claims, change, info);
      verdicts.set(key, verdict);
    }
    return verdict;
  };
}

class Rollback extends Error {}

export async function canSee(pg: PGlite, claims: Claims, change: Change, info: TableInfo): Promise<boolean> {
  if (claims.role === 'service_role') return true;
  const row = change.type === 'DELETE' ? change.oldRecord : change.record;
  if (!row || info.primaryKey.length === 0) return false;
  const relation = `${quoteIdent(change.schema)}.${quoteIdent(change.table)}`;
  const where = info.primaryKey.map((column, i) => `${quoteIdent(column)}::text = $${i + 1}`).join(' and ');
  const keyValues = info.primaryKey.map((column) => {
    const value = row[column];
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
  let visible = false;
  try {
    await pg.transaction(async (tx) => {
      if (change.type === 'DELETE') {
        await tx.query(`insert into ${relation} select * from jsonb_populate_record(null::${relation}, $1)`, [
          JSON.stringify(row),
        ]);
      }
      await applyClaims(tx, claims);
      const result = await tx.query(`select 1 from ${relation} where ${where}`, keyValues);
      visible = result.rows.length > 0;
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) return false;
  }
  return visible;
}
