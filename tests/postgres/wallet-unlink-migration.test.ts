import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySqlFile, connect, loadProject } from '../../stack/postgres/load-project.ts';
import { startPostgres, type PostgresServer } from '../../stack/postgres/server.ts';
import { Case, userClaims } from '../support/postgres/sql.ts';

// Migration 20261124000001_wallet_proof.sql meets a project that already has profiles: until
// then the browser wrote a profile's wallet itself, with no proof that its user holds the key, so
// the migration unlinks every one. A server of its own, loaded like a hosted project up to the
// migration before (the shared server has every migration already), gets profiles saved as the
// portal saved them then; the migrations from this one on are then applied as `supabase db push`
// would apply them.

const MIGRATION = '20261124000001_wallet_proof.sql';
const MIGRATIONS_DIR = 'supabase/migrations';
const MIGRATION_NAME = /^([0-9]+)_(.*)\.sql$/;
const migrationFiles = readdirSync(MIGRATIONS_DIR)
  .filter((name) => name.endsWith('.sql'))
  .sort();
const before = migrationFiles.filter((name) => name < MIGRATION);
const fromThisOn = migrationFiles.filter((name) => name >= MIGRATION);

type User = { id: string; email: string };
const freshUser = (label: string): User => {
  const id = randomUUID();
  return { id, email: `${label}-${id.slice(0, 8)}@example.test` };
};
const freshAddress = () => `0x${randomBytes(20).toString('hex')}`;

let server: PostgresServer;
let folder: string;

beforeAll(async () => {
  server = await startPostgres();
  // The project as it stood before the migration: its earlier migrations and no seed.
  folder = mkdtempSync(join(tmpdir(), 'ddex-before-wallet-proof-'));
  mkdirSync(join(folder, 'migrations'));
  for (const name of before) copyFileSync(join(MIGRATIONS_DIR, name), join(folder, 'migrations', name));
  await loadProject(server, { supabaseDir: folder });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Applies one migration as the loader does: as `postgres`, recorded in the same transaction. */
async function applyMigration(owner: pg.Client, name: string): Promise<void> {
  const [, version, migration] = MIGRATION_NAME.exec(name) ?? [];
  await applySqlFile(owner, join(MIGRATIONS_DIR, name), (client, statements) =>
    client.query(
      'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
      [version, migration, statements.map((statement) => statement.text)],
    ),
  );
}

describe('the wallet proof migration', () => {
  it('unlinks every wallet stored before it, and keeps the rest of each profile', async () => {
    const admin = await connect(server, server.superuser);
    const owner = await connect(server, 'postgres');
    try {
      const wallet = freshAddress();
      const users = {
        // One wallet two profiles held, in two letter cases: nothing stopped that then.
        ada: { ...freshUser('ada'), wallet: wallet.toUpperCase().replace('0X', '0x') },
        bob: { ...freshUser('bob'), wallet },
        cy: { ...freshUser('cy'), wallet: freshAddress() },
        dee: { ...freshUser('dee'), wallet: null },
      };
      await admin.query('begin');
      for (const [name, user] of Object.entries(users)) {
        await admin.query(
          `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data,
             created_at, updated_at)
           values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
             '{}', '{}', now(), now())`,
          [user.id, user.email],
        );
        // The portal's own upsert, as its user: the wallet was the browser's to write then.
        await new Case(admin).request(userClaims(user), (query) =>
          query(
            `insert into public.profiles (id, email, username, wallet_address) values ($1, $2, $3, $4)
             on conflict (id) do update set username = excluded.username,
               wallet_address = excluded.wallet_address`,
            [user.id, user.email, name, user.wallet],
          ),
        );
      }
      await admin.query('commit');
      const ids = Object.values(users).map(({ id }) => id);
      const profiles = async () =>
        (
          await admin.query<{ username: string; email: string; wallet_address: string | null }>(
            'select username, email, wallet_address from public.profiles where id = any($1) order by username',
            [ids],
          )
        ).rows;
      const stored = await profiles();
      expect(stored.filter((row) => row.wallet_address !== null)).toHaveLength(3);

      for (const name of fromThisOn) await applyMigration(owner, name);

      expect(await profiles()).toEqual(stored.map((row) => ({ ...row, wallet_address: null })));
      const proven = await admin.query(
        'select id from public.profiles where id = any($1) and wallet_verified_at is not null',
        [ids],
      );
      expect(proven.rows).toEqual([]);
    } finally {
      await admin.end();
      await owner.end();
    }
  });
});
