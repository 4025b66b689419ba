import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CELLS, ROWS, rowsOf, verdictOf, type Actor } from '../support/policy-table.ts';
import {
  createSqlProbes,
  type MatrixUsers,
  type SqlProbe,
  type SqlTarget,
  type User,
} from '../support/postgres/probes.ts';
import { ANON, Case, connectAs, inCase, SERVICE, userClaims, type Claims } from '../support/postgres/sql.ts';

// The policy matrix (tests/support/policy-table.ts) at the SQL level on a real PostgreSQL loaded
// like a hosted project: every cell is one transaction, rolled back, that makes its target as the
// service role, sends the call as PostgREST would for the caller (as `authenticator`, switched to
// the caller's role with the caller's JWT claims) and reads the target back as the superuser.
// Each cell is judged by what the table expects of PostgreSQL; the contract layer runs the same
// table through supabase-js on the local stack.

let db: pg.Client;

const user = (label: string): User => {
  const id = randomUUID();
  return { id, email: `${label}-${id.slice(0, 8)}@example.test` };
};
const users: MatrixUsers = {
  owner: user('matrix-owner'),
  other: user('matrix-other'),
  newcomer: user('matrix-new'),
};
const probes = createSqlProbes(users);

beforeAll(async () => {
  db = await connectAs();
  // The accounts, as Auth would have written them on sign-up.
  for (const { id, email } of Object.values(users)) {
    await db.query(
      `insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at, raw_app_meta_data,
         raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, now(),
         '{"provider": "email", "providers": ["email"]}', '{}', now(), now())`,
      [id, email],
    );
  }
  // The owner and the other user have saved their profiles; the newcomer has not.
  await db.query('begin');
  await new Case(db).request(SERVICE, (query) =>
    query(`insert into public.profiles (id, email, username) values ($1, $2, 'owner'), ($3, $4, 'other')`, [
      users.owner.id,
      users.owner.email,
      users.other.id,
      users.other.email,
    ]),
  );
  await db.query('commit');
});

afterAll(async () => {
  await db?.query('delete from auth.users where id = any($1)', [Object.values(users).map(({ id }) => id)]);
  await db?.end();
});

function claimsOf(actor: Actor, target: SqlTarget): Claims {
  if (actor === 'owner') return userClaims(target.owner);
  if (actor === 'other user') return userClaims(users.other);
  return ANON;
}

describe('policy matrix on PostgreSQL', () => {
  it('has one row for every resource and verb', () => {
    expect(ROWS).toEqual(rowsOf(probes));
  });

  it.each(CELLS)('%s · %s · as %s: %s', async (resource, verb, actor, outcome) => {
    const probe = (probes as Record<string, Record<string, SqlProbe>>)[resource]?.[verb];
    if (!probe) throw new Error(`no probe for ${resource} · ${verb}`);
    const { target, before, answer, after } = await inCase(db, async (tx) => {
      const target = await probe.arrange(tx);
      const before = await probe.read(tx, target);
      const answer = await tx.attempt(() => probe.act(tx, claimsOf(actor, target), target));
      const after = await probe.read(tx, target);
      return { target, before, answer, after };
    });

    const verdict = verdictOf(outcome, 'postgres');
    switch (verdict) {
      case 'allowed':
        expect(answer.error).toBeNull();
        expect(probe.applied(target, after, answer)).toBe(true);
        break;
      case 'refused':
        expect(answer.error?.code).toBe('42501');
        expect(after).toEqual(before);
        break;
      case 'no privilege':
        expect(answer.error?.code).toBe('42501');
        expect(answer.error?.message).toMatch(/^permission denied for (table|function) /);
        expect(after).toEqual(before);
        break;
      case 'invisible':
        expect(answer.error).toBeNull();
        expect(answer.rows).toBe(0);
        expect(after).toEqual(before);
        break;
      default:
        throw new Error(`PostgreSQL has no cell that comes to '${verdict}'`);
    }
  });
});
