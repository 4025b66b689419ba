import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectAs } from '../support/postgres/sql.ts';

// The migrations and the seed as they landed on a real PostgreSQL loaded like a hosted project.
// The expectations below are copied from what supabase/migrations/*.sql declare (the comments
// name the file), not read from the database: a migration edited without updating them, or a
// declaration the server does not honour, fails here.

const ROLES = ['anon', 'authenticated', 'service_role'] as const;
type Role = (typeof ROLES)[number];
const TABLE_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'];
const ALL = TABLE_PRIVILEGES;

/** The table-level grants each API role holds after the migrations; anything else is revoked. */
const TABLE_GRANTS: Record<string, Record<Role, string[]>> = {
  // 20261121000001_profiles.sql
  'public.profiles': { anon: [], authenticated: ['SELECT', 'INSERT', 'UPDATE'], service_role: ALL },
  // 20261121000002_user_notifications.sql (plus the column grant below)
  'public.user_notifications': { anon: [], authenticated: ['SELECT', 'DELETE'], service_role: ALL },
  // 20261121000003_transactions.sql
  'public.transactions': { anon: [], authenticated: ['SELECT'], service_role: ALL },
  // 20261124000001_wallet_proof.sql: only link-wallet (the service role) touches the nonces.
  'public.wallet_link_nonces': { anon: [], authenticated: [], service_role: ALL },
  // 20261125000001_tatum_subscriptions.sql: the owner reads; only tatum-webhooks writes.
  'public.tatum_subscriptions': { anon: [], authenticated: ['SELECT'], service_role: ALL },
  // …and the functions' rate-limit counters, which no API role may read.
  'public.function_rate_limits': { anon: [], authenticated: [], service_role: ALL },
  // 20261201000001_market_bots.sql: the owner manages their bots (plus the column grant below),
  // reads their runs, and no API role reads the price history.
  'public.bots': { anon: [], authenticated: ['SELECT', 'INSERT', 'DELETE'], service_role: ALL },
  'public.bot_runs': { anon: [], authenticated: ['SELECT'], service_role: ALL },
  'public.market_prices': { anon: [], authenticated: [], service_role: ALL },
  // 20261202000002_wallet_watches.sql: the server's own subscriptions and their queue, which no
  // API role may read or write.
  'public.wallet_watches': { anon: [], authenticated: [], service_role: ALL },
  'public.wallet_watch_jobs': { anon: [], authenticated: [], service_role: ALL },
  // 20261203000001_bot_limits.sql: the bots' project-wide limits, one row the service role reads
  // and changes, and no API role sees.
  'public.bot_settings': { anon: [], authenticated: [], service_role: ['SELECT', 'UPDATE'] },
  // 20261205000001_faucet.sql: the faucet's claims, which only the faucet function touches.
  'public.faucet_claims': { anon: [], authenticated: [], service_role: ALL },
  // 20261206000001_email_alerts.sql: the email alerts' outbox, which only email-alerts touches.
  'public.email_outbox': { anon: [], authenticated: [], service_role: ALL },
};

/** 20261121000002: authenticated may update these columns of user_notifications and no other. */
const NOTIFICATION_COLUMNS_UPDATABLE = ['is_read', 'read_at'];
const NOTIFICATION_COLUMNS = ['id', 'user_id', 'title', 'message', 'is_read', 'read_at', 'created_at'];

/** 20261201000001: authenticated may update a bot's name, rule, cooldown and status, no other column. */
const BOT_COLUMNS_UPDATABLE = [
  'name',
  'kind',
  'level',
  'move_pct',
  'window_minutes',
  'min_ddex',
  'cooldown_minutes',
  'status',
];
const BOT_COLUMNS = [
  'id',
  'user_id',
  ...BOT_COLUMNS_UPDATABLE,
  'armed_at',
  'last_fired_at',
  'created_at',
  'updated_at',
];

const RECORD_TRANSFER = 'public.record_transfer(uuid, text, text, text, text, text, text, text)';
const LINK_WEB3_WALLET = 'public.link_web3_wallet()';
/** 20261125000001: the functions' own helpers, for the service role alone. */
const SERVICE_ONLY_FUNCTIONS = [
  'public.forget_tatum_subscription(uuid, text)',
  'public.take_rate_limit(text, integer, integer)',
  // 20261203000002 (first 20261201000001): the market-bots function's evaluation of a swap, a
  // batch of bots at a time.
  'public.evaluate_market_swap(text, text, integer, bigint, timestamptz, numeric, numeric, numeric, text, text, text, text, text, uuid)',
  // 20261202000002: the watch-wallets function's queue and watches.
  'public.claim_wallet_watches(text, integer, integer)',
  'public.finish_wallet_watch(text, uuid, text)',
  'public.forget_wallet_watch(text)',
  // 20261205000001: the faucet function's claims.
  'public.take_faucet_claim(uuid, text, text, interval)',
  // 20261206000001: the email alerts' outbox, where a user's alerts go, and the unsubscribe link.
  'public.claim_email_alerts(integer, integer)',
  'public.finish_email_alert(uuid, uuid, text, integer)',
  'public.unsubscribe_email_alerts(uuid, text)',
  'public.email_alert_recipient(uuid, text)',
  // 20261207000001: a mail the server refused for good, discarded by its claim.
  'public.discard_email_alert(uuid, uuid, text)',
];

/** Every policy the migrations create: [table, name, command], all for the role authenticated. */
const POLICIES = [
  // 20261121000001_profiles.sql
  ['public.profiles', 'profiles: owner reads', 'SELECT'],
  ['public.profiles', 'profiles: owner creates', 'INSERT'],
  ['public.profiles', 'profiles: owner updates', 'UPDATE'],
  // 20261121000002_user_notifications.sql
  ['public.user_notifications', 'user_notifications: owner reads', 'SELECT'],
  ['public.user_notifications', 'user_notifications: owner marks read', 'UPDATE'],
  ['public.user_notifications', 'user_notifications: owner deletes', 'DELETE'],
  // 20261121000003_transactions.sql
  ['public.transactions', 'transactions: owner reads', 'SELECT'],
  // 20261125000001_tatum_subscriptions.sql
  ['public.tatum_subscriptions', 'tatum_subscriptions: owner reads', 'SELECT'],
  // 20261201000001_market_bots.sql
  ['public.bots', 'bots: owner reads', 'SELECT'],
  ['public.bots', 'bots: owner creates', 'INSERT'],
  ['public.bots', 'bots: owner updates', 'UPDATE'],
  ['public.bots', 'bots: owner deletes', 'DELETE'],
  ['public.bot_runs', 'bot_runs: owner reads', 'SELECT'],
  // 20261121000004_avatars_bucket.sql
  ['storage.objects', 'avatars: owner uploads under own id', 'INSERT'],
  ['storage.objects', 'avatars: owner lists own', 'SELECT'],
  ['storage.objects', 'avatars: owner replaces own', 'UPDATE'],
  ['storage.objects', 'avatars: owner deletes own', 'DELETE'],
].sort();

const MIGRATIONS_DIR = 'supabase/migrations';
const migrationFiles = readdirSync(MIGRATIONS_DIR)
  .filter((name) => name.endsWith('.sql'))
  .sort();

let db: pg.Client;
beforeAll(async () => {
  db = await connectAs();
});
afterAll(async () => {
  await db?.end();
});

const rowsOf = async <R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
  (await db.query<R>(sql, params)).rows;

describe('migrations on PostgreSQL', () => {
  it('applied every migration file in order, then the seed, each recorded as the Supabase CLI records it', async () => {
    const loaded = inject('postgres').loaded.map(({ file }) => file);
    expect(loaded).toEqual([
      'stack/postgres/hosted-baseline.sql',
      ...migrationFiles.map((name) => `${MIGRATIONS_DIR}/${name}`),
      'supabase/seed.sql',
    ]);
    const recorded = await rowsOf<{ version: string; name: string }>(
      'select version, name from supabase_migrations.schema_migrations order by version',
    );
    expect(recorded.map(({ version, name }) => `${version}_${name}.sql`)).toEqual(migrationFiles);
    const seeds = await rowsOf<{ path: string; hash: string }>(
      'select path, hash from supabase_migrations.seed_files',
    );
    expect(seeds).toEqual([
      {
        path: 'supabase/seed.sql',
        hash: createHash('sha256').update(readFileSync('supabase/seed.sql')).digest('hex'),
      },
    ]);
  });

  it.each(Object.keys(TABLE_GRANTS))(
    '%s exists, belongs to postgres and has row level security on',
    async (table) => {
      const [row] = await rowsOf<{ owner: string; rls: boolean }>(
        'select pg_get_userbyid(relowner) as owner, relrowsecurity as rls from pg_class where oid = $1::regclass',
        [table],
      );
      expect(row).toEqual({ owner: 'postgres', rls: true });
    },
  );

  it.each(
    Object.entries(TABLE_GRANTS).flatMap(([table, byRole]) =>
      ROLES.map((role) => [table, role, byRole[role]]),
    ),
  )('%s: %s holds exactly the table grants the migration declares', async (table, role, granted) => {
    const held = await rowsOf<{ privilege: string }>(
      `select privilege from unnest($3::text[]) as privilege
         where has_table_privilege($1, $2::regclass, privilege)`,
      [role, table, TABLE_PRIVILEGES],
    );
    expect(held.map(({ privilege }) => privilege)).toEqual(granted);
  });

  it('anon holds no column grant on the public tables either', async () => {
    const held = await rowsOf(
      `select t.table_name, p.privilege from unnest($1::text[]) as t(table_name),
         unnest(array['SELECT', 'INSERT', 'UPDATE', 'REFERENCES']) as p(privilege)
       where has_any_column_privilege('anon', t.table_name::regclass, p.privilege)`,
      [Object.keys(TABLE_GRANTS)],
    );
    expect(held).toEqual([]);
  });

  it('authenticated may update only is_read and read_at of user_notifications', async () => {
    const updatable = await rowsOf<{ column: string }>(
      `select c as column from unnest($1::text[]) as c
       where has_column_privilege('authenticated', 'public.user_notifications', c, 'UPDATE')`,
      [NOTIFICATION_COLUMNS],
    );
    expect(updatable.map(({ column }) => column)).toEqual(NOTIFICATION_COLUMNS_UPDATABLE);
  });

  it('authenticated may update only the name, rule, cooldown and status of bots (20261201000001)', async () => {
    const updatable = await rowsOf<{ column: string }>(
      `select c as column from unnest($1::text[]) as c
       where has_column_privilege('authenticated', 'public.bots', c, 'UPDATE')`,
      [BOT_COLUMNS],
    );
    expect(updatable.map(({ column }) => column)).toEqual(BOT_COLUMNS_UPDATABLE);
  });

  it('record_transfer is executable by service_role alone', async () => {
    const [row] = await rowsOf(
      `select has_function_privilege('anon', $1::regprocedure, 'EXECUTE') as anon,
              has_function_privilege('authenticated', $1::regprocedure, 'EXECUTE') as authenticated,
              has_function_privilege('service_role', $1::regprocedure, 'EXECUTE') as service_role,
              exists (select 1 from pg_proc p, aclexplode(p.proacl) acl
                      where p.oid = $1::regprocedure and acl.grantee = 0) as public`,
      [RECORD_TRANSFER],
    );
    expect(row).toEqual({ anon: false, authenticated: false, service_role: true, public: false });
  });

  it.each(SERVICE_ONLY_FUNCTIONS)('%s is executable by service_role alone', async (fn) => {
    const [row] = await rowsOf(
      `select has_function_privilege('anon', $1::regprocedure, 'EXECUTE') as anon,
              has_function_privilege('authenticated', $1::regprocedure, 'EXECUTE') as authenticated,
              has_function_privilege('service_role', $1::regprocedure, 'EXECUTE') as service_role,
              exists (select 1 from pg_proc p, aclexplode(p.proacl) acl
                      where p.oid = $1::regprocedure and acl.grantee = 0) as public`,
      [fn],
    );
    expect(row).toEqual({ anon: false, authenticated: false, service_role: true, public: false });
  });

  it('set_email_alert is a signed-in user’s, for their own profile, and no visitor’s (20261207000002)', async () => {
    const [row] = await rowsOf(
      `select has_function_privilege('anon', $1::regprocedure, 'EXECUTE') as anon,
              has_function_privilege('authenticated', $1::regprocedure, 'EXECUTE') as authenticated,
              exists (select 1 from pg_proc p, aclexplode(p.proacl) acl
                      where p.oid = $1::regprocedure and acl.grantee = 0) as public,
              (select p.prosecdef from pg_proc p where p.oid = $1::regprocedure) as definer`,
      ['public.set_email_alert(text, boolean)'],
    );
    // Security invoker: it runs under the owner's update policy and the profile guard.
    expect(row).toEqual({ anon: false, authenticated: true, public: false, definer: false });
  });

  it('counts requests per client and window, and says how long to wait once over the limit', async () => {
    await db.query('begin');
    try {
      await db.query('set local role service_role');
      const waits: number[] = [];
      for (let asked = 0; asked < 4; asked++) {
        const [row] = await rowsOf<{ wait: number }>(
          `select public.take_rate_limit('pg-test', 3, 3600) as wait`,
        );
        waits.push(row?.wait ?? -1);
      }
      expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
      expect(waits[3]).toBeGreaterThan(0);
      expect(waits[3]).toBeLessThanOrEqual(3600);
      const [other] = await rowsOf<{ wait: number }>(
        `select public.take_rate_limit('pg-other', 3, 3600) as wait`,
      );
      expect(other?.wait).toBe(0);
    } finally {
      await db.query('rollback');
    }
  });

  it('gives one faucet claim per account and per address in the cooldown, and says when the next may be (20261205000001)', async () => {
    await db.query('begin');
    try {
      const [one, two] = await rowsOf<{ id: string }>(
        `insert into auth.users (id, email) values (gen_random_uuid(), 'faucet-a@example.com'),
           (gen_random_uuid(), 'faucet-b@example.com') returning id`,
      );
      await db.query('set local role service_role');
      const take = async (user: string | undefined, address: string) =>
        (
          await rowsOf<{ claim_id: string | null; next_claim_at: Date }>(
            `select * from public.take_faucet_claim($1, $2, '100', interval '24 hours')`,
            [user, address],
          )
        )[0];
      const first = await take(one?.id, '0xAAAA000000000000000000000000000000000001');
      expect(first?.claim_id).not.toBeNull();
      // The same account for another address, and the same address (any case) for another account.
      const sameAccount = await take(one?.id, '0xaaaa000000000000000000000000000000000002');
      const sameAddress = await take(two?.id, '0xaaaa000000000000000000000000000000000001');
      for (const refused of [sameAccount, sameAddress]) {
        expect(refused?.claim_id).toBeNull();
        expect(refused?.next_claim_at.getTime()).toBe(first?.next_claim_at.getTime());
      }
      expect((await take(two?.id, '0xaaaa000000000000000000000000000000000003'))?.claim_id).not.toBeNull();
    } finally {
      await db.query('rollback');
    }
  });

  it('creates exactly the declared policies, each for authenticated', async () => {
    const policies = await rowsOf<{ table: string; name: string; cmd: string; roles: string[] }>(
      `select schemaname || '.' || tablename as table, policyname as name, cmd, roles::text[] as roles
       from pg_policies where schemaname in ('public', 'storage')`,
    );
    expect(policies.map(({ table, name, cmd }) => [table, name, cmd]).sort()).toEqual(POLICIES);
    expect(new Set(policies.flatMap(({ roles }) => roles))).toEqual(new Set(['authenticated']));
  });

  it('guards server-owned fields with triggers (20261121000001, …02, …07, 20261201000001), caps bots (…, 20261203000001), links web3 wallets (20261124000001), queues proven-wallet changes (20261202000002) and email alerts (20261206000001)', async () => {
    const triggers = await rowsOf<{ table: string; name: string }>(
      `select tgrelid::regclass::text as table, tgname as name from pg_trigger
       where not tgisinternal and tgrelid in ('public.profiles'::regclass,
         'public.user_notifications'::regclass, 'auth.identities'::regclass, 'public.bots'::regclass)
       order by 1, 2`,
    );
    expect(triggers).toEqual([
      { table: 'auth.identities', name: 'link_web3_wallet' },
      { table: 'bots', name: 'bots_cap' },
      { table: 'bots', name: 'bots_guard' },
      { table: 'bots', name: 'bots_limits' },
      { table: 'profiles', name: 'profiles_guard' },
      { table: 'profiles', name: 'queue_wallet_watch' },
      { table: 'user_notifications', name: 'queue_email_alert' },
      { table: 'user_notifications', name: 'user_notifications_guard' },
    ]);
  });

  it('links web3 wallets with a security definer function of postgres that no API role may call (20261124000001)', async () => {
    const [row] = await rowsOf(
      `select pg_get_userbyid(p.proowner) as owner, p.prosecdef as security_definer,
              p.proconfig as config,
              has_function_privilege('anon', $1::regprocedure, 'EXECUTE') as anon,
              has_function_privilege('authenticated', $1::regprocedure, 'EXECUTE') as authenticated
       from pg_proc p where p.oid = $1::regprocedure`,
      [LINK_WEB3_WALLET],
    );
    expect(row).toEqual({
      owner: 'postgres',
      security_definer: true,
      config: ['search_path=""'],
      anon: false,
      authenticated: false,
    });
  });

  it('limits the bots with a security definer function of postgres that no API role may call (20261203000001)', async () => {
    const [row] = await rowsOf(
      `select pg_get_userbyid(p.proowner) as owner, p.prosecdef as security_definer,
              p.proconfig as config,
              has_function_privilege('anon', p.oid, 'EXECUTE') as anon,
              has_function_privilege('authenticated', p.oid, 'EXECUTE') as authenticated
       from pg_proc p where p.oid = 'public.bots_limits()'::regprocedure`,
    );
    expect(row).toEqual({
      owner: 'postgres',
      security_definer: true,
      config: ['search_path=""'],
      anon: false,
      authenticated: false,
    });
  });

  it('lets one profile hold an address, in any letter case (20261124000001)', async () => {
    const indexes = await rowsOf<{ name: string; definition: string }>(
      `select indexname as name, indexdef as definition from pg_indexes
       where schemaname = 'public' and tablename = 'profiles' and indexdef ilike '%wallet_address%'`,
    );
    expect(indexes).toEqual([
      {
        name: 'profiles_wallet_address_lower_key',
        definition:
          'CREATE UNIQUE INDEX profiles_wallet_address_lower_key ON public.profiles USING btree (lower(wallet_address)) WHERE (wallet_address IS NOT NULL)',
      },
    ]);
  });

  it('creates the public avatars bucket (20261121000004)', async () => {
    const buckets = await rowsOf(
      'select id, name, public, file_size_limit, allowed_mime_types from storage.buckets',
    );
    expect(buckets).toEqual([
      {
        id: 'avatars',
        name: 'avatars',
        public: true,
        file_size_limit: '2097152',
        allowed_mime_types: ['image/png', 'image/jpeg', 'image/gif'],
      },
    ]);
  });

  it('publishes user_notifications (20261121000005), bots and bot_runs (20261201000001) to Realtime with full replica identity', async () => {
    const published = await rowsOf(
      `select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime'
       order by tablename`,
    );
    expect(published).toEqual([
      { schemaname: 'public', tablename: 'bot_runs' },
      { schemaname: 'public', tablename: 'bots' },
      { schemaname: 'public', tablename: 'user_notifications' },
    ]);
    const identities = await rowsOf<{ relreplident: string }>(
      `select relreplident from pg_class
       where oid in ('public.user_notifications'::regclass, 'public.bots'::regclass, 'public.bot_runs'::regclass)`,
    );
    expect(identities.map(({ relreplident }) => relreplident)).toEqual(['f', 'f', 'f']);
  });
});
