-- What a NEW hosted Supabase project has before any migration of ours, reduced to what our
-- migrations, policies and tests touch, for PostgreSQL 17: the major a new hosted project gets
-- ([CL-17]), so the privilege checks, RLS and planner are the ones our SQL deploys to.
--
-- Loaded by stack/postgres/load-project.ts as the bootstrap superuser `supabase_admin`, once,
-- into database `postgres`; the migrations and seed then run as `postgres`, which is NOT a
-- superuser on hosted (`supabase db push` connects as postgres). The login roles get no password
-- here: hosted gives each project its own, the loader sets the throwaway server's.
--
-- Written from Supabase's published definitions; each section cites what it reproduces. Only
-- roles, grants, columns and function semantics are taken over, not the upstream files' text.
-- Sources (the commit is the version read):
--   [P-init]    supabase/postgres migrations/db/init-scripts/00000000000000-initial-schema.sql (aec7381)
--   [P-auth]    supabase/postgres migrations/db/init-scripts/00000000000001-auth-schema.sql (ce2035d)
--   [P-stor]    supabase/postgres migrations/db/init-scripts/00000000000002-storage-schema.sql (1921aa3)
--   [P-post]    supabase/postgres migrations/db/init-scripts/00000000000003-post-setup.sql (79b9d75)
--   [P-mig]     supabase/postgres migrations/db/migrations/*.sql, file named inline
--   [P-migrate] supabase/postgres migrations/db/migrate.sh (7db7e1a): the init-scripts run AS
--               postgres, db/migrations as supabase_admin, so what the init-scripts create
--               (and their default privileges) belongs to postgres
--   [P-dump]    supabase/postgres migrations/schema-17.sql (018bf3c): pg_dump of the 17.6 image
--   [P-supautils] supabase/postgres ansible/files/postgresql_config/supautils.conf.j2 (7db7e1a)
--   [A]         supabase/auth migrations/*.up.sql (bc32168), replayed in order for the columns
--   [S]         supabase/storage migrations/tenant/*.sql (4fa61fb), replayed in order
--   [CL]        Supabase changelog, 2026-04-28, "New tables in the public schema will no longer be
--               exposed to the Data API automatically" (#45329): from 2026-05-30 new projects do
--               not grant new public tables, functions and sequences to anon/authenticated/
--               service_role (all projects from 2026-10-30)
--   [CL-17]     Supabase changelog #46080 (2026), "Self-hosted Supabase: upgrading from PG 15 to
--               17": "Postgres 17 is what we currently default to on the Supabase platform"

-- ---------------------------------------------------------------------------------------------
-- 1. Roles
-- ---------------------------------------------------------------------------------------------
-- [P-migrate] creates postgres as a superuser owning the database; [P-mig]
-- 10000000000000_demote-postgres.sql then takes superuser away and leaves these attributes.
create role postgres nosuperuser createdb createrole login replication bypassrls;
alter database postgres owner to postgres;  -- schema public belongs to pg_database_owner, so to postgres
grant all on database postgres to postgres;
alter role postgres set search_path to "$user", public, extensions;  -- [P-post]

-- [P-init]: the three roles PostgREST switches to, NOLOGIN; service_role bypasses RLS.
-- [P-mig] 20230529180330_alter_api_roles_for_inherit.sql made them INHERIT.
create role anon nologin inherit;
create role authenticated nologin inherit;
create role service_role nologin inherit bypassrls;
alter role anon set statement_timeout = '3s';           -- [P-init]
alter role authenticated set statement_timeout = '8s';  -- [P-init]

-- [P-init]: PostgREST logs in as authenticator (NOINHERIT: it holds no privilege of its own)
-- and may only switch to the API roles ([P-mig] 20221103090837_revoke_admin.sql removed
-- supabase_admin from them).
create role authenticator login noinherit;
grant anon, authenticated, service_role to authenticator;
alter role authenticator set statement_timeout = '8s';  -- [P-mig] 20221028101028
alter role authenticator set lock_timeout = '8s';       -- [P-mig] 20231130133139
-- Hosted also preloads supautils and safeupdate for authenticator ([P-mig] 20260413000000);
-- neither library exists outside Supabase's image.

-- [P-mig] 20230201083204, 20250605172253 (PG 16+): postgres may act as, and grant, the API roles.
grant anon, authenticated, service_role to postgres with admin option;

-- [P-auth]: owns schema auth; [P-mig] 20260821154147 took CREATEROLE away.
create role supabase_auth_admin login noinherit nocreaterole noreplication;
alter role supabase_auth_admin set search_path = auth;
-- [P-stor]: owns schema storage.
create role supabase_storage_admin login noinherit createrole noreplication;
alter role supabase_storage_admin set search_path = storage;
grant create on database postgres to supabase_storage_admin;
-- [P-mig] 20230327032006, 20231013070755: the Storage API switches to the caller's role.
grant anon, authenticated, service_role, authenticator to supabase_storage_admin;
-- Left out (hosted has them, nothing here uses them): dashboard_user, supabase_read_only_user,
-- supabase_replication_admin, supabase_realtime_admin, supabase_functions_admin,
-- supabase_etl_admin, supabase_superuser, pgbouncer and the pgsodium roles.

-- ---------------------------------------------------------------------------------------------
-- 2. Schema extensions ([P-init], created by postgres, so owned by it)
-- ---------------------------------------------------------------------------------------------
create schema extensions authorization postgres;
create extension "uuid-ossp" with schema extensions;
create extension pgcrypto with schema extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
-- Hosted also has pg_stat_statements (extensions) and supabase_vault (vault) [P-dump];
-- pg_graphql is off for projects created after 2026-05-18.

-- ---------------------------------------------------------------------------------------------
-- 3. Schema public: usage and default privileges
-- ---------------------------------------------------------------------------------------------
grant usage on schema public to postgres, anon, authenticated, service_role;  -- [P-init]
-- [P-init]: what supabase_admin creates in public is granted to the API roles, on every project
-- (postgres cannot change supabase_admin's defaults). Our migrations create nothing as it.
alter default privileges for role supabase_admin in schema public
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public
  grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public
  grant all on sequences to postgres, anon, authenticated, service_role;
-- What postgres creates in public, that is every migration: projects created before 2026-05-30
-- with default settings had [P-init]'s
--   alter default privileges for role postgres in schema public grant all on tables, functions,
--   sequences to postgres, anon, authenticated, service_role
-- A new project has no such default [CL], so nothing is declared here: a new table reaches the
-- API roles only through the grants its migration writes. A function still gets PostgreSQL's
-- built-in EXECUTE for PUBLIC.

-- ---------------------------------------------------------------------------------------------
-- 4. Schema auth ([P-auth]; the users table's columns from replaying [A])
-- ---------------------------------------------------------------------------------------------
create schema auth authorization supabase_admin;
grant usage on schema auth to anon, authenticated, service_role, postgres;
grant all on schema auth to supabase_auth_admin;

-- The users and identities tables as [A] leaves them. Hosted's other auth tables (sessions,
-- refresh_tokens, mfa_*, sso_*, oauth_*, ...) are left out: nothing here references them.
create table auth.users (
  instance_id uuid,
  id uuid not null primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0 check (email_change_confirm_status between 0 and 2),
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
create unique index users_email_partial_key on auth.users (email) where is_sso_user = false;
create index users_instance_id_idx on auth.users (instance_id);
alter table auth.users owner to supabase_auth_admin;
alter table auth.users enable row level security;  -- [A] 20240612123726, without policies
-- [P-auth], [P-mig] 10000000000000 and 20211115181400: postgres gets everything on the auth
-- tables; [A] 20240612123726 adds SELECT WITH GRANT OPTION. The API roles get nothing.
grant all on auth.users to postgres;
grant select on auth.users to postgres with grant option;

-- [A] 20210909172000 (created), 20221215195800 (email), 20231117164230 (the old id became
-- provider_id, a uuid id the key, one identity per provider and provider_id); the index of
-- 20211122151130. A migration's trigger on this table fires as Auth writes it, as
-- supabase_auth_admin: an insert on the first sign-in with a provider, an update of
-- identity_data and last_sign_in_at on every later one (supabase/auth internal/api/external.go,
-- createAccountFromExternalIdentity).
create table auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid not null default gen_random_uuid() primary key,
  constraint identities_provider_id_provider_unique unique (provider_id, provider)
);
create index identities_user_id_idx on auth.identities (user_id);
create index identities_email_idx on auth.identities (email text_pattern_ops);
alter table auth.identities owner to supabase_auth_admin;
alter table auth.identities enable row level security;  -- [A] 20240612123726, without policies
grant all on auth.identities to postgres;
grant select on auth.identities to postgres with grant option;

-- The claim readers, latest bodies from [A] 20220224000811_update_auth_functions and
-- 20220531120530_add_auth_jwt_function: a legacy per-claim setting (request.jwt.claim.<name>)
-- wins when set and not empty, else the JSON claims PostgREST sets (request.jwt.claims).
create function auth.uid() returns uuid language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claim.sub', true), ''),
                  nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')::uuid
$$;
create function auth.role() returns text language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claim.role', true), ''),
                  nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')::text
$$;
create function auth.email() returns text language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claim.email', true), ''),
                  nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')::text
$$;
create function auth.jwt() returns jsonb language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claim', true), ''),
                  nullif(current_setting('request.jwt.claims', true), ''))::jsonb
$$;
-- [P-mig] 20211124212715_update-auth-owner; EXECUTE stays with PUBLIC, as on hosted.
alter function auth.uid() owner to supabase_auth_admin;
alter function auth.role() owner to supabase_auth_admin;
alter function auth.email() owner to supabase_auth_admin;
alter function auth.jwt() owner to supabase_auth_admin;

-- ---------------------------------------------------------------------------------------------
-- 5. Schema storage ([P-stor], then the tables as [S] 0002..0063 leave them)
-- ---------------------------------------------------------------------------------------------
create schema storage authorization supabase_admin;
grant usage on schema storage to postgres, anon, authenticated, service_role;
grant all on schema storage to supabase_storage_admin with grant option;
alter default privileges for role supabase_storage_admin in schema storage
  grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_storage_admin in schema storage
  grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_storage_admin in schema storage
  grant all on sequences to postgres, anon, authenticated, service_role;

-- The storage server's migrations run as its admin role: ownership and the defaults above apply.
set role supabase_storage_admin;

create type storage.buckettype as enum ('STANDARD', 'ANALYTICS', 'VECTOR');  -- [S] 0044

-- [S] 0002, 0008, 0012, 0013, 0014, 0018, 0044
create table storage.buckets (
  id text not null primary key,
  name text not null,
  owner uuid,  -- deprecated for owner_id ([S] 0018)
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text,
  type storage.buckettype not null default 'STANDARD'
);
create unique index bname on storage.buckets (name);

-- [S] 0002, 0003, 0016, 0018, 0019, 0025
create table storage.objects (
  id uuid not null default gen_random_uuid() primary key,
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,  -- deprecated for owner_id ([S] 0018)
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  owner_id text,
  user_metadata jsonb
);
-- Left out: buckets.versioning_status and the objects' versioning columns ([S] 0062, shipped
-- dark: a check constraint pins versioning to 'DISABLED').
create unique index bucketid_objname on storage.objects (bucket_id, name);
create index name_prefix_search on storage.objects (name text_pattern_ops);

alter table storage.buckets enable row level security;  -- [S] 0007
alter table storage.objects enable row level security;  -- [S] 0002
-- A new project has no storage policies.

-- The path helpers storage policies are written with ([S] 0002; bodies as of 0036 and 0061):
-- the folders of an object name, its file name, and its extension.
create function storage.foldername(name text) returns text[] language plpgsql immutable as $$
declare
  parts text[] := string_to_array(name, '/');
begin
  return parts[1 : array_length(parts, 1) - 1];
end $$;
create function storage.filename(name text) returns text language plpgsql immutable as $$
declare
  parts text[] := string_to_array(name, '/');
begin
  return parts[array_length(parts, 1)];
end $$;
create function storage.extension(name text) returns text language plpgsql immutable as $$
declare
  parts text[] := string_to_array(name, '/');
begin
  return reverse(split_part(reverse(parts[array_length(parts, 1)]), '.', 1));
end $$;

-- [S] 0011: an object's updated_at follows every update.
create function storage.update_updated_at_column() returns trigger language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end $$;
create trigger update_objects_updated_at before update on storage.objects
  for each row execute function storage.update_updated_at_column();

-- [S] 0037: bucket names are at most 100 characters.
create function storage.enforce_bucket_name_length() returns trigger language plpgsql as $$
begin
  if length(new.name) > 100 then
    raise exception 'bucket name "%" is too long (% characters). Max is 100.', new.name, length(new.name);
  end if;
  return new;
end $$;
create trigger enforce_bucket_name_length_trigger before insert or update of name on storage.buckets
  for each row execute function storage.enforce_bucket_name_length();

-- [S] 0055: a DELETE on buckets or objects fails (42501) unless the transaction set
-- storage.allow_delete_query to 'true', which the Storage API does for every request it serves
-- (supabase/storage src/internal/database/postgres/scope.ts, 4fa61fb). SQL that cleans up
-- storage has to set it too.
create function storage.protect_delete() returns trigger language plpgsql as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') <> 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using errcode = '42501', hint = 'This prevents accidental data loss from orphaned objects.';
  end if;
  return null;
end $$;
create trigger protect_buckets_delete before delete on storage.buckets
  for each statement execute function storage.protect_delete();
create trigger protect_objects_delete before delete on storage.objects
  for each statement execute function storage.protect_delete();

reset role;

-- [S] 0046, 0049: the API roles may do everything on buckets and objects (RLS decides);
-- postgres too, WITH GRANT OPTION.
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;
grant all on storage.buckets, storage.objects to postgres with grant option;
-- [P-mig] 20250421084701_revoke_admin_roles_from_postgres
revoke create on schema storage from postgres;
revoke create on schema auth from postgres;

-- ---------------------------------------------------------------------------------------------
-- 6. The Realtime publication ([P-init], created by postgres, so owned by it)
-- ---------------------------------------------------------------------------------------------
set role postgres;
create publication supabase_realtime;  -- empty: a migration adds the tables to publish
reset role;

-- ---------------------------------------------------------------------------------------------
-- 7. Stand-in for supautils' policy grants ([P-supautils])
-- ---------------------------------------------------------------------------------------------
-- On hosted, the supautils library lets postgres create, alter and drop POLICIES (and triggers)
-- on tables it does not own: auth.users and the other auth tables, storage.buckets,
-- storage.objects, storage.migrations, storage.s3_multipart_uploads(_parts) and
-- realtime.messages. Stock PostgreSQL lets only the owner do that. So postgres inherits the
-- owners' privileges (membership without SET), and an event trigger refuses every other DDL it
-- runs in auth, storage or realtime, which hosted refuses too.
grant supabase_auth_admin, supabase_storage_admin to postgres with inherit true, set false;

create function extensions.emulate_supautils_policy_grants() returns event_trigger
language plpgsql as $$
declare
  command record;
begin
  if current_user <> 'postgres' then
    return;
  end if;
  if tg_event = 'ddl_command_end' then
    for command in select * from pg_event_trigger_ddl_commands() loop
      if command.schema_name in ('auth', 'storage', 'realtime')
         and command.command_tag not in ('CREATE POLICY', 'ALTER POLICY', 'CREATE TRIGGER', 'GRANT', 'REVOKE') then
        raise exception 'permission denied: % on %', command.command_tag, command.object_identity
          using errcode = '42501',
                hint = 'Hosted Supabase lets postgres manage only policies and triggers in auth, storage and realtime.';
      end if;
    end loop;
  else  -- sql_drop
    for command in select * from pg_event_trigger_dropped_objects() loop
      if command.schema_name in ('auth', 'storage', 'realtime')
         and command.object_type not in ('policy', 'trigger') and not command.is_temporary then
        raise exception 'permission denied: drop % %', command.object_type, command.object_identity
          using errcode = '42501';
      end if;
    end loop;
  end if;
end $$;
revoke all on function extensions.emulate_supautils_policy_grants() from public;
create event trigger emulate_supautils_policy_grants_ddl on ddl_command_end
  execute function extensions.emulate_supautils_policy_grants();
create event trigger emulate_supautils_policy_grants_drop on sql_drop
  execute function extensions.emulate_supautils_policy_grants();
