-- The local Realtime feed. A row trigger on every table in the
-- supabase_realtime publication queues the change and notifies the gateway,
-- which reads the queue, checks each subscriber's right to see the row and
-- pushes it. A queue (not the NOTIFY payload) carries the row, so rows larger
-- than NOTIFY's 8000-byte limit still arrive.
create schema if not exists _realtime;
revoke all on schema _realtime from public;

create table if not exists _realtime.changes (
  id bigserial primary key,
  schema_name text not null,
  table_name text not null,
  type text not null,
  record jsonb,
  old_record jsonb,
  commit_timestamp timestamptz not null default now()
);

create or replace function _realtime.capture() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  change_id bigint;
begin
  insert into _realtime.changes (schema_name, table_name, type, record, old_record)
  values (
    tg_table_schema,
    tg_table_name,
    tg_op,
    case when tg_op = 'DELETE' then null else to_jsonb(new) end,
    case when tg_op = 'INSERT' then null else to_jsonb(old) end
  )
  returning id into change_id;
  perform pg_notify('_realtime_changes', change_id::text);
  return null;
end;
$$;

-- Installs the capture trigger on published tables and removes it from
-- tables that left the publication; run after migrations.
create or replace function _realtime.sync_publication() returns void
language plpgsql
as $$
declare
  t record;
begin
  for t in
    select n.nspname as schema_name, c.relname as table_name
    from pg_trigger tr
    join pg_class c on c.oid = tr.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    where tr.tgname = '_realtime_capture'
      and not exists (
        select 1 from pg_publication_tables p
        where p.pubname = 'supabase_realtime' and p.schemaname = n.nspname and p.tablename = c.relname
      )
  loop
    execute format('drop trigger _realtime_capture on %I.%I', t.schema_name, t.table_name);
  end loop;

  for t in
    select schemaname as schema_name, tablename as table_name
    from pg_publication_tables where pubname = 'supabase_realtime'
  loop
    execute format('drop trigger if exists _realtime_capture on %I.%I', t.schema_name, t.table_name);
    execute format(
      'create trigger _realtime_capture after insert or update or delete on %I.%I for each row execute function _realtime.capture()',
      t.schema_name, t.table_name
    );
  end loop;
end;
$$;
