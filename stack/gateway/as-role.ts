import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Claims } from './claims.ts';

// Runs fn in a transaction under the request's role and JWT claims, exactly
// as PostgREST does for REST calls, so RLS policies decide what it may do.
export async function withClaims<T>(
  pg: PGlite,
  claims: Claims,
  fn: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return pg.transaction(async (tx) => {
    await applyClaims(tx, claims);
    return fn(tx);
  });
}

export async function applyClaims(tx: Transaction, claims: Claims): Promise<void> {
  await tx.query(
    `select set_config('role', $1, true),
            set_config('request.jwt.claims', $2, true),
            set_config('request.jwt.claim.role', $1, true),
            set_config('request.jwt.claim.sub', $3, true),
            set_config('request.jwt.claim.email', $4, true)`,
    [claims.role, JSON.stringify(claims.raw), claims.sub ?? '', claims.email ?? ''],
  );
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
