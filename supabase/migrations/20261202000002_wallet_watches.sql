-- The server watches every proven wallet (docs/deploy.md#3-tatum): one Tatum ADDRESS_EVENT
-- subscription per proven address, delivering to process-payments, so a wallet's history is
-- written from the chain whether or not its user ever made a demo hook. The demo's
-- tatum_subscriptions stay the users' own to list and delete; the server's subscriptions are kept
-- apart, here, where no API role reads or writes (as function_rate_limits).
--
-- A wallet becomes proven or stops being so in several places, two of them inside the database:
-- link-wallet's write, the Sign in with Ethereum trigger on auth.identities, an unlink by the
-- owner, a relink, a deleted user. So the profile itself queues each change of its proven wallet
-- (the trigger below) and the watch-wallets function drains the queue: on a hosted project a
-- Database Webhook on wallet_watch_jobs calls it, and a scheduled call retries what failed; on the
-- local stack the gateway does both (docs/local-stack.md#watch-wallets).

-- The server's subscriptions, one per address. No foreign key to the user: the watch of a deleted
-- user's wallet must outlive them until its subscription is ended at Tatum.
create table public.wallet_watches (
  -- Lower case: one subscription per address, in whatever letter case its profile holds it.
  address text primary key,
  -- The proven owner when it was last reconciled.
  user_id uuid not null,
  -- Where Tatum delivers: process-payments with a query of its own, so it is never the URL of a
  -- demo hook of the same address (Tatum holds one subscription per address and URL).
  url text not null,
  -- Tatum's id; null while the subscription is being made.
  subscription_id text,
  -- 'subscribing' from before Tatum is asked until its id is recorded, so a drain that stopped in
  -- between finds the subscription Tatum may have made instead of making a second.
  state text not null default 'subscribing',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint wallet_watches_address_is_hex check (address ~ '^0x[0-9a-f]{40}$'),
  constraint wallet_watches_state_valid check (state in ('subscribing', 'active')),
  constraint wallet_watches_active_has_id check (state <> 'active' or subscription_id is not null)
);

alter table public.wallet_watches enable row level security;

revoke all on table public.wallet_watches from anon;
revoke all on table public.wallet_watches from authenticated;
grant all on table public.wallet_watches to service_role;

-- Addresses whose watch may be out of date. A job is done when the function has made the watch
-- match the profiles (wallet_watches), whatever happened in between, so jobs of one address are
-- claimed and finished together.
create table public.wallet_watch_jobs (
  id bigint generated always as identity primary key,
  address text not null,
  -- Whose profile changed; no foreign key, as above.
  user_id uuid,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- The drain working on it, until claimed_until: the lease outlives the claiming transaction,
  -- because the work in between calls Tatum.
  claimed_by uuid,
  claimed_until timestamptz,
  last_error text,
  constraint wallet_watch_jobs_address_is_hex check (address ~ '^0x[0-9a-f]{40}$')
);

create index wallet_watch_jobs_address_idx on public.wallet_watch_jobs (address);
create index wallet_watch_jobs_next_attempt_idx on public.wallet_watch_jobs (next_attempt_at);

alter table public.wallet_watch_jobs enable row level security;

revoke all on table public.wallet_watch_jobs from anon;
revoke all on table public.wallet_watch_jobs from authenticated;
grant all on table public.wallet_watch_jobs to service_role;

-- Queues the addresses a change of the profile's proven wallet touched: the one it held and the
-- one it holds, each only while proven. Another letter case of the same address, a new proof of it
-- or an edit of another field touches none. Security definer: an owner's unlink runs as
-- authenticated, and a Sign in with Ethereum as supabase_auth_admin, neither of which may write
-- the queue.
create function public.queue_wallet_watch() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  held text;
  holds text;
begin
  if tg_op <> 'INSERT' and old.wallet_verified_at is not null then
    held := lower(old.wallet_address);
  end if;
  if tg_op <> 'DELETE' and new.wallet_verified_at is not null then
    holds := lower(new.wallet_address);
  end if;
  if held is not distinct from holds then
    return null;
  end if;
  insert into public.wallet_watch_jobs (address, user_id)
  select touched, case when tg_op = 'DELETE' then old.id else new.id end
    from unnest(array[held, holds]) as touched
   where touched ~ '^0x[0-9a-f]{40}$';
  return null;
end;
$$;

revoke all on function public.queue_wallet_watch() from public;
revoke all on function public.queue_wallet_watch() from anon;
revoke all on function public.queue_wallet_watch() from authenticated;

create trigger queue_wallet_watch
  after insert or update or delete on public.profiles
  for each row execute function public.queue_wallet_watch();

-- The wallets proven before this migration are watched from now on.
insert into public.wallet_watch_jobs (address, user_id)
select lower(wallet_address), id
  from public.profiles
 where wallet_verified_at is not null and lower(wallet_address) ~ '^0x[0-9a-f]{40}$';

-- Claims up to p_limit addresses with a due job for one drain, every job of each, for
-- p_lease_seconds; answers each address with the claim to finish it with. An address is never
-- claimed while another drain's lease on it holds, so two drains never reconcile one address at
-- once. Claims take turns (the advisory lock): the lease must outlive this transaction, so row
-- locks (FOR UPDATE SKIP LOCKED) cannot hold it, and without the turns two claims could each see
-- the other's leases not yet committed. A watch made for another URL than p_url (the project's
-- address changed) is queued first, so the drain moves it.
create function public.claim_wallet_watches(p_url text, p_limit integer, p_lease_seconds integer)
returns table (address text, claim uuid)
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_claim uuid := gen_random_uuid();
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('claim_wallet_watches', 0));
  insert into public.wallet_watch_jobs (address, user_id)
  select w.address, w.user_id
    from public.wallet_watches w
   where w.url is distinct from p_url
     and not exists (select 1 from public.wallet_watch_jobs j where j.address = w.address);
  return query
  with free as (
    select j.address
      from public.wallet_watch_jobs j
     group by j.address
    having min(j.next_attempt_at) <= now()
       and not coalesce(bool_or(j.claimed_until > now()), false)
     order by min(j.id)
     limit p_limit
  ), taken as (
    update public.wallet_watch_jobs j
       set claimed_by = v_claim,
           claimed_until = now() + make_interval(secs => p_lease_seconds)
     where j.address in (select f.address from free f)
    returning j.address
  )
  select distinct t.address, v_claim from taken t;
end;
$$;

-- Ends a claim: done (p_error null) deletes the claimed jobs, while jobs queued since stay for the
-- next claim; failed keeps them for a retry 1 s later, then 2, 4, … up to 10 minutes, with the
-- error for whoever looks.
create function public.finish_wallet_watch(p_address text, p_claim uuid, p_error text)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if p_error is null then
    delete from public.wallet_watch_jobs where address = p_address and claimed_by = p_claim;
    return;
  end if;
  update public.wallet_watch_jobs
     set claimed_by = null,
         claimed_until = null,
         next_attempt_at = now() + make_interval(secs => least(600, power(2, attempts))),
         attempts = attempts + 1,
         last_error = left(p_error, 500)
   where address = p_address and claimed_by = p_claim;
end;
$$;

-- Forgets the watch of an address once Tatum no longer holds its subscription. A function rather
-- than a REST delete: the local stack's REST API does not delete as the service role
-- (local-stack.md).
create function public.forget_wallet_watch(p_address text) returns boolean
language sql
security invoker
set search_path = ''
as $$
  with gone as (delete from public.wallet_watches where address = p_address returning 1)
  select exists (select 1 from gone);
$$;

revoke all on function public.claim_wallet_watches(text, integer, integer) from public;
revoke all on function public.claim_wallet_watches(text, integer, integer) from anon;
revoke all on function public.claim_wallet_watches(text, integer, integer) from authenticated;
grant execute on function public.claim_wallet_watches(text, integer, integer) to service_role;

revoke all on function public.finish_wallet_watch(text, uuid, text) from public;
revoke all on function public.finish_wallet_watch(text, uuid, text) from anon;
revoke all on function public.finish_wallet_watch(text, uuid, text) from authenticated;
grant execute on function public.finish_wallet_watch(text, uuid, text) to service_role;

revoke all on function public.forget_wallet_watch(text) from public;
revoke all on function public.forget_wallet_watch(text) from anon;
revoke all on function public.forget_wallet_watch(text) from authenticated;
grant execute on function public.forget_wallet_watch(text) to service_role;
