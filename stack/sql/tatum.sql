-- State of the local Tatum emulator: address-event subscriptions, the webhook
-- deliveries still owed or made, and how far the block watcher has read the
-- chain. Kept in the database so subscriptions and undelivered events survive a
-- restart; not part of supabase/migrations because hosted Tatum keeps this, not
-- our Supabase project.
create schema if not exists _tatum;
revoke all on schema _tatum from public;

create table if not exists _tatum.subscriptions (
  -- Tatum's ids are 24 hex characters (Mongo object ids).
  id text primary key default substr(replace(gen_random_uuid()::text, '-', ''), 1, 24),
  type text not null,
  chain text not null,
  address text not null,
  url text not null,
  created_at timestamptz not null default clock_timestamp()
);

-- The chain's head when the subscription was made: as hosted Tatum, it tells of later blocks only,
-- even where the watcher reads the chain late (null: made before this column, told of every block).
alter table _tatum.subscriptions add column if not exists after_block bigint;

create unique index if not exists subscriptions_one_per_target
  on _tatum.subscriptions (type, chain, lower(address), url);

create table if not exists _tatum.deliveries (
  id bigserial primary key,
  subscription_id text not null references _tatum.subscriptions (id) on delete cascade,
  -- What makes an event unique (tx, log, type, address): a block read twice
  -- after a crash must not owe the same event twice.
  event_key text not null,
  url text not null,
  body text not null,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  delivered_at timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz not null default now(),
  unique (subscription_id, event_key)
);

create index if not exists deliveries_owed on _tatum.deliveries (next_attempt_at) where delivered_at is null;

create table if not exists _tatum.cursor (
  singleton boolean primary key default true check (singleton),
  block_number bigint not null,
  block_hash text not null
);
