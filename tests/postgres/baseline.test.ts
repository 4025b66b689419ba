import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAs, inCase, SERVICE, userClaims } from '../support/postgres/sql.ts';

// What stack/postgres/hosted-baseline.sql promises a migration finds, as a hosted project has it
// before any migration of ours. The expectations restate the baseline's declarations.

let admin: pg.Client;
beforeAll(async () => {
  admin = await connectAs();
});
afterAll(async () => {
  await admin?.end();
});

const refusal = async (pending: Promise<unknown>) => {
  try {
    await pending;
    return null;
  } catch (error) {
    if (!(error instanceof pg.DatabaseError)) throw error;
    return { code: error.code, message: error.message };
  }
};

describe('the hosted baseline', () => {
  it('runs on PostgreSQL 17, the major of a new hosted project', async () => {
    const { rows } = await admin.query<{ server_version_num: string }>('show server_version_num');
    expect(Math.floor(Number(rows[0]?.server_version_num) / 10_000)).toBe(17);
  });

  it('gives the roles their hosted attributes: postgres is no superuser', async () => {
    const { rows } = await admin.query(
      `select rolname, rolsuper, rolinherit, rolcanlogin, rolbypassrls from pg_roles
       where rolname = any($1) order by rolname`,
      [['anon', 'authenticated', 'authenticator', 'postgres', 'service_role', 'supabase_admin']],
    );
    expect(rows).toEqual([
      { rolname: 'anon', rolsuper: false, rolinherit: true, rolcanlogin: false, rolbypassrls: false },
      {
        rolname: 'authenticated',
        rolsuper: false,
        rolinherit: true,
        rolcanlogin: false,
        rolbypassrls: false,
      },
      {
        rolname: 'authenticator',
        rolsuper: false,
        rolinherit: false,
        rolcanlogin: true,
        rolbypassrls: false,
      },
      { rolname: 'postgres', rolsuper: false, rolinherit: true, rolcanlogin: true, rolbypassrls: true },
      { rolname: 'service_role', rolsuper: false, rolinherit: true, rolcanlogin: false, rolbypassrls: true },
      { rolname: 'supabase_admin', rolsuper: true, rolinherit: true, rolcanlogin: true, rolbypassrls: true },
    ]);
  });

  it('lets authenticator log in and become the API roles, and nothing else', async () => {
    const authenticator = await connectAs('authenticator');
    try {
      for (const role of ['anon', 'authenticated', 'service_role']) {
        await authenticator.query(`set role ${role}`);
        const { rows } = await authenticator.query('select current_user');
        expect(rows[0]).toEqual({ current_user: role });
        await authenticator.query('reset role');
      }
      for (const role of ['postgres', 'supabase_admin']) {
        expect(await refusal(authenticator.query(`set role ${role}`))).toEqual({
          code: '42501',
          message: `permission denied to set role "${role}"`,
        });
      }
      // Holding no privilege of its own (NOINHERIT), it reads nothing before it switches.
      expect((await refusal(authenticator.query('select 1 from public.profiles')))?.code).toBe('42501');
    } finally {
      await authenticator.end();
    }
  });

  it('reads the JWT claims in auth.uid(), auth.role(), auth.email() and auth.jwt()', async () => {
    const user = { id: '6a0c1f57-4c36-4c1b-9b1e-1a2b3c4d5e6f', email: 'claims@example.test' };
    const claims = await inCase(admin, (tx) =>
      tx.request(userClaims(user), async (query) => {
        const json = await query(
          `select auth.uid()::text as uid, auth.role() as role, auth.email() as email, auth.jwt() ->> 'aud' as aud`,
        );
        // A legacy per-claim setting still wins over the JSON claims, as on hosted.
        await query(
          `select set_config('request.jwt.claim.sub', '00000000-0000-4000-8000-000000000001', true)`,
        );
        const legacy = await query('select auth.uid()::text as uid');
        return { json: json.rows[0], legacy: legacy.rows[0] };
      }),
    );
    expect(claims).toEqual({
      json: { uid: user.id, role: 'authenticated', email: user.email, aud: 'authenticated' },
      legacy: { uid: '00000000-0000-4000-8000-000000000001' },
    });
  });

  it('grants the API roles nothing on auth.users and auth.identities', async () => {
    const { rows } = await admin.query(
      `select r as role, t as table from unnest(array['anon', 'authenticated', 'service_role']) as r,
         unnest(array['auth.users', 'auth.identities']) as t
       where has_any_column_privilege(r, t, 'SELECT, INSERT, UPDATE, REFERENCES')
          or has_table_privilege(r, t, 'DELETE, TRUNCATE, TRIGGER')`,
    );
    expect(rows).toEqual([]);
  });

  it('has auth.identities as Auth writes it, owned by supabase_auth_admin, which postgres may put triggers on', async () => {
    const { rows: columns } = await admin.query<{ column_name: string }>(
      `select column_name from information_schema.columns
       where table_schema = 'auth' and table_name = 'identities' order by column_name`,
    );
    expect(columns.map(({ column_name }) => column_name)).toEqual([
      'created_at',
      'email',
      'id',
      'identity_data',
      'last_sign_in_at',
      'provider',
      'provider_id',
      'updated_at',
      'user_id',
    ]);
    const { rows } = await admin.query(
      `select pg_get_userbyid(relowner) as owner, relrowsecurity as rls,
              has_table_privilege('postgres', 'auth.identities', 'TRIGGER') as postgres_triggers
       from pg_class where oid = 'auth.identities'::regclass`,
    );
    expect(rows).toEqual([{ owner: 'supabase_auth_admin', rls: true, postgres_triggers: true }]);
  });

  it('grants the API roles nothing on a new public table: a new project exposes no table by default', async () => {
    const granted = await inCase(admin, async (tx) => {
      await tx.query('set local role postgres');
      await tx.query('create table public.baseline_probe (id int)');
      await tx.query('reset role');
      const { rows } = await tx.query(
        `select r as role from unnest(array['anon', 'authenticated', 'service_role']) as r
         where has_table_privilege(r, 'public.baseline_probe', 'SELECT, INSERT, UPDATE, DELETE')`,
      );
      return rows;
    });
    expect(granted).toEqual([]);
  });

  it('refuses a plain SQL delete on storage.objects unless the Storage API flag is set', async () => {
    const outcome = await inCase(admin, async (tx) => {
      const name = `${randomUUID()}.png`;
      await tx.query(`insert into storage.objects (bucket_id, name) values ('avatars', $1)`, [name]);
      const refused = await tx.attempt(async () => {
        await tx.request(SERVICE, (query) => query('delete from storage.objects where name = $1', [name]));
        return { error: null, rows: 0 };
      });
      const allowed = await tx.request(SERVICE, async (query) => {
        await query(`select set_config('storage.allow_delete_query', 'true', true)`);
        return (await query('delete from storage.objects where name = $1', [name])).rowCount;
      });
      return { refused: refused.error, allowed };
    });
    expect(outcome).toEqual({
      refused: {
        code: '42501',
        message: 'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
      },
      allowed: 1,
    });
  });

  it('lets postgres manage policies on storage.objects, as supautils does, but not alter the table', async () => {
    const results = await inCase(admin, async (tx) => {
      await tx.query('set local role postgres');
      const policy = await tx.attempt(async () => {
        await tx.query('create policy "baseline probe" on storage.objects for select to anon using (false)');
        await tx.query('drop policy "baseline probe" on storage.objects');
        return { error: null, rows: 0 };
      });
      const alter = await tx.attempt(async () => {
        await tx.query('alter table storage.objects disable row level security');
        return { error: null, rows: 0 };
      });
      return { policy: policy.error, alter: alter.error?.code };
    });
    expect(results).toEqual({ policy: null, alter: '42501' });
  });

  it('has pgcrypto and uuid-ossp in schema extensions, and the supabase_realtime publication owned by postgres', async () => {
    const { rows: extensions } = await admin.query(
      `select extname, extnamespace::regnamespace::text as schema from pg_extension
       where extname in ('pgcrypto', 'uuid-ossp') order by extname`,
    );
    expect(extensions).toEqual([
      { extname: 'pgcrypto', schema: 'extensions' },
      { extname: 'uuid-ossp', schema: 'extensions' },
    ]);
    const { rows: publication } = await admin.query(
      `select pg_get_userbyid(pubowner) as owner, puballtables from pg_publication where pubname = 'supabase_realtime'`,
    );
    expect(publication).toEqual([{ owner: 'postgres', puballtables: false }]);
  });
});
