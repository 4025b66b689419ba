-- The Tatum key stays on the server (docs/reliability-and-security.md#the-tatum-key): the
-- tatum-webhooks function subscribes a caller's proven wallet with it and records here whose
-- subscription each one is, so List Hooks and Delete First Hook see only the caller's own.
-- Only that function (the service role) writes; a user reads their own rows.
create table public.tatum_subscriptions (
  -- Tatum's subscription id.
  id text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  address text not null,
  url text not null,
  chain text not null,
  created_at timestamptz not null default now(),
  constraint tatum_subscriptions_address_is_hex check (address ~ '^0x[0-9a-fA-F]{40}$')
);

create index tatum_subscriptions_user_created_idx on public.tatum_subscriptions (user_id, created_at, id);

alter table public.tatum_subscriptions enable row level security;

create policy "tatum_subscriptions: owner reads" on public.tatum_subscriptions
  for select to authenticated using ((select auth.uid()) = user_id);

revoke all on table public.tatum_subscriptions from anon;
revoke all on table public.tatum_subscriptions from authenticated;
grant select on table public.tatum_subscriptions to authenticated;
grant all on table public.tatum_subscriptions to service_role;

-- Forgets one of a user's subscriptions once Tatum no longer holds it. A function rather than a
-- REST delete: the local stack's REST API does not delete as the service role (local-stack.md).
create function public.forget_tatum_subscription(p_user_id uuid, p_id text) returns boolean
language sql
security invoker
set search_path = ''
as $$
  with gone as (
    delete from public.tatum_subscriptions where id = p_id and user_id = p_user_id returning 1
  )
  select exists (select 1 from gone);
$$;

revoke all on function public.forget_tatum_subscription(uuid, text) from public;
revoke all on function public.forget_tatum_subscription(uuid, text) from anon;
revoke all on function public.forget_tatum_subscription(uuid, text) from authenticated;
grant execute on function public.forget_tatum_subscription(uuid, text) to service_role;

-- Requests per client and fixed window, for functions that spend a provider's quota on behalf of
-- anyone holding the anon key (native-balance). Kept in the database, not in a function's
-- memory, so the count holds across function instances and restarts. No API role may read it.
create table public.function_rate_limits (
  bucket text not null,
  window_start timestamptz not null,
  requests integer not null,
  primary key (bucket, window_start)
);

create index function_rate_limits_window_idx on public.function_rate_limits (window_start);

alter table public.function_rate_limits enable row level security;

revoke all on table public.function_rate_limits from anon;
revoke all on table public.function_rate_limits from authenticated;
grant all on table public.function_rate_limits to service_role;

-- Counts one request of `p_bucket` in the current window of `p_window_seconds` and answers how
-- many seconds the client must wait: 0 while it is within `p_limit`. Windows an hour past their
-- end are purged on the way, so the table holds about the last hour.
create function public.take_rate_limit(p_bucket text, p_limit integer, p_window_seconds integer)
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_window timestamptz := to_timestamp(
    floor(extract(epoch from clock_timestamp()) / p_window_seconds) * p_window_seconds
  );
  v_requests integer;
begin
  insert into public.function_rate_limits as r (bucket, window_start, requests)
  values (p_bucket, v_window, 1)
  on conflict (bucket, window_start) do update set requests = r.requests + 1
  returning r.requests into v_requests;
  delete from public.function_rate_limits
  where window_start < v_window - make_interval(secs => p_window_seconds) - interval '1 hour';
  if v_requests <= p_limit then
    return 0;
  end if;
  return greatest(
    1,
    ceil(extract(epoch from (v_window + make_interval(secs => p_window_seconds) - clock_timestamp())))
  )::integer;
end;
$$;

revoke all on function public.take_rate_limit(text, integer, integer) from public;
revoke all on function public.take_rate_limit(text, integer, integer) from anon;
revoke all on function public.take_rate_limit(text, integer, integer) from authenticated;
grant execute on function public.take_rate_limit(text, integer, integer) to service_role;
