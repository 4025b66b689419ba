-- Trading bots (docs/product.md#tables): a signed-in user's market watchers on the DDEX/WETH pair.
-- A bot watches and tells, never trades. The owner creates, edits, pauses and deletes their bots;
-- only the server (evaluate_market_swap, as the service role) records runs and notifies.
create table public.bots (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  kind text not null,
  -- ETH per DDEX; price_above and price_below only.
  level numeric,
  -- price_move only.
  move_pct numeric,
  window_minutes integer,
  -- large_swap only.
  min_ddex numeric,
  cooldown_minutes integer not null default 15,
  status text not null default 'active',
  -- Since when swaps count for the bot (bots_guard): none mined before it was created, last
  -- edited or resumed fires it, however late its delivery arrives.
  armed_at timestamptz not null default now(),
  last_fired_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint bots_name_length check (char_length(name) between 1 and 60),
  constraint bots_kind_valid check (kind in ('price_above', 'price_below', 'price_move', 'large_swap')),
  constraint bots_status_valid check (status in ('active', 'paused')),
  constraint bots_cooldown_range check (cooldown_minutes between 1 and 1440),
  -- Each kind has exactly its own rule columns, so a rule never carries a stale value of another.
  -- (coalesce: a check passes on null, and a missing level compares as null.)
  constraint bots_rule_of_kind check (
    coalesce(
      case kind
        when 'price_above' then level > 0 and move_pct is null and window_minutes is null and min_ddex is null
        when 'price_below' then level > 0 and move_pct is null and window_minutes is null and min_ddex is null
        when 'price_move' then level is null and move_pct is not null and window_minutes is not null
                               and min_ddex is null
        when 'large_swap' then level is null and move_pct is null and window_minutes is null and min_ddex > 0
      end,
      false
    )
  ),
  constraint bots_move_pct_range check (move_pct is null or move_pct between 0.1 and 1000),
  -- Presets only, so evaluating a swap looks up at most six windows.
  constraint bots_window_preset check (window_minutes is null or window_minutes in (15, 30, 60, 240, 720, 1440))
);

create index bots_user_created_idx on public.bots (user_id, created_at);
-- A swap's candidates are range scans, whatever the number of bots.
create index bots_active_above_idx on public.bots (level) where status = 'active' and kind = 'price_above';
create index bots_active_below_idx on public.bots (level) where status = 'active' and kind = 'price_below';
create index bots_active_large_swap_idx on public.bots (min_ddex) where status = 'active' and kind = 'large_swap';
create index bots_active_move_idx on public.bots (window_minutes) where status = 'active' and kind = 'price_move';

-- At most 25 bots per user. Inserts of one user take turns, so two at once cannot both take the
-- last place: each count is a statement of its own, which sees the other's committed row.
create function public.bots_cap() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('bots-cap:' || new.user_id::text, 0));
  if (select count(*) from public.bots b where b.user_id = new.user_id) >= 25 then
    raise exception using
      errcode = '23514',
      message = 'A user can have at most 25 bots',
      hint = 'Delete a bot to make room for another.';
  end if;
  return new;
end;
$$;

create trigger bots_cap
  before insert on public.bots
  for each row execute function public.bots_cap();

-- The server's fields of a bot. A client may change the name, the rule, the cooldown and the
-- status, nothing else; the trigger enforces it whatever the table grants are (the local
-- gateway's lite re-grants tables to the API roles at runtime; hosted projects also get the
-- column grant below). It arms the bot when it is created, when its rule changes and when it is
-- resumed, so a swap from before that moment never fires the new rule.
create function public.bots_guard() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  client constant boolean := current_user in ('anon', 'authenticated');
begin
  new.name := pg_catalog.btrim(new.name, E' \t\r\n');
  if tg_op = 'INSERT' then
    new.armed_at := now();
    if client then
      new.last_fired_at := null;
      new.created_at := now();
    end if;
  else
    if client
       and (new.id, new.user_id, new.armed_at, new.last_fired_at, new.created_at)
           is distinct from (old.id, old.user_id, old.armed_at, old.last_fired_at, old.created_at) then
      raise exception using
        errcode = '42501',
        message = 'Only the name, rule, cooldown and status of a bot can be changed by the client';
    end if;
    if (new.kind, new.level, new.move_pct, new.window_minutes, new.min_ddex)
         is distinct from (old.kind, old.level, old.move_pct, old.window_minutes, old.min_ddex)
       or (old.status = 'paused' and new.status = 'active') then
      new.armed_at := now();
    end if;
  end if;
  new.updated_at := now();
  return new;
end;
$$;

create trigger bots_guard
  before insert or update on public.bots
  for each row execute function public.bots_guard();

alter table public.bots enable row level security;

create policy "bots: owner reads" on public.bots
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "bots: owner creates" on public.bots
  for insert to authenticated with check ((select auth.uid()) = user_id);
create policy "bots: owner updates" on public.bots
  for update to authenticated using ((select auth.uid()) = user_id) with check ((select auth.uid()) = user_id);
create policy "bots: owner deletes" on public.bots
  for delete to authenticated using ((select auth.uid()) = user_id);

revoke all on table public.bots from anon;
revoke all on table public.bots from authenticated;
grant select, insert, delete on table public.bots to authenticated;
grant update (name, kind, level, move_pct, window_minutes, min_ddex, cooldown_minutes, status)
  on table public.bots to authenticated;
grant all on table public.bots to service_role;

-- One row per firing: the swap that fired the bot and the notification it sent. user_id repeats
-- the bot's owner for RLS and the Realtime filter. Only evaluate_market_swap writes.
create table public.bot_runs (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  tx_hash text not null,
  -- The pair's Swap log in its block.
  log_index integer not null,
  block_number bigint not null,
  block_time timestamptz not null,
  price_before numeric not null,
  price_after numeric not null,
  ddex_amount numeric not null,
  side text not null,
  notification_id uuid references public.user_notifications (id) on delete set null,
  created_at timestamptz not null default now(),
  -- A swap fires a bot once, however often it is delivered.
  constraint bot_runs_once_per_swap unique (bot_id, tx_hash, log_index),
  constraint bot_runs_tx_hash_is_hex check (tx_hash ~ '^0x[0-9a-f]{64}$'),
  constraint bot_runs_log_index_is_position check (log_index >= 0),
  constraint bot_runs_side_valid check (side in ('buy', 'sell'))
);

-- The cooldown looks up a bot's runs around a swap's time; the page lists a user's newest.
create index bot_runs_bot_block_time_idx on public.bot_runs (bot_id, block_time desc);
create index bot_runs_user_block_time_idx on public.bot_runs (user_id, block_time desc);

alter table public.bot_runs enable row level security;

create policy "bot_runs: owner reads" on public.bot_runs
  for select to authenticated using ((select auth.uid()) = user_id);

revoke all on table public.bot_runs from anon;
revoke all on table public.bot_runs from authenticated;
grant select on table public.bot_runs to authenticated;
grant all on table public.bot_runs to service_role;

-- The pair's recent swaps, written by evaluate_market_swap: the history a price_move rule looks
-- back over. Keyed by the pair too, so a second market (the contract tests' own) keeps apart.
-- No API role may read it.
create table public.market_prices (
  pair text not null,
  tx_hash text not null,
  log_index integer not null,
  block_number bigint not null,
  block_time timestamptz not null,
  price_before numeric not null,
  price_after numeric not null,
  ddex_amount numeric not null,
  side text not null,
  primary key (pair, tx_hash, log_index),
  constraint market_prices_pair_is_hex check (pair ~ '^0x[0-9a-f]{40}$'),
  constraint market_prices_tx_hash_is_hex check (tx_hash ~ '^0x[0-9a-f]{64}$'),
  constraint market_prices_log_index_is_position check (log_index >= 0),
  constraint market_prices_prices_positive check (price_before > 0 and price_after > 0),
  constraint market_prices_amount_not_negative check (ddex_amount >= 0),
  constraint market_prices_side_valid check (side in ('buy', 'sell'))
);

create index market_prices_pair_block_time_idx on public.market_prices (pair, block_time);

alter table public.market_prices enable row level security;

revoke all on table public.market_prices from anon;
revoke all on table public.market_prices from authenticated;
grant all on table public.market_prices to service_role;

-- Live bots and runs (docs/product.md#realtime), filtered by user_id. Full replica identity lets
-- filtered DELETE events carry the row.
alter table public.bots replica identity full;
alter table public.bot_runs replica identity full;
alter publication supabase_realtime add table public.bots, public.bot_runs;

-- Evaluates one swap of the pair against every active bot and records each firing: the run and
-- its notification, in one transaction, once. The caller (the market-bots function) reads the
-- prices from the swap's own receipt, so a crossing depends on the swap alone: repeated and
-- concurrent deliveries agree, and (pair, tx, log) is the swap's key. Returns how many bots
-- fired, 0 on a repeat.
--
-- Rules: price_above fires when the price goes from below the level to at or above it,
-- price_below the other way; large_swap when the swap moves at least min_ddex DDEX; price_move
-- when the price after the swap is at least move_pct away from the lowest or the highest price of
-- the window before it (the swaps recorded in [t - window, t], up to this one, and this swap's
-- price before). A move is judged on the prices recorded so far: a swap delivered after a later
-- one sees that later swap only if they share the block time, and is not weighed again when an
-- earlier swap arrives after it. The emulator delivers in order; hosted Tatum mostly does.
--
-- A bot counts a swap only if it was armed by the swap's block time (to the second: blocks carry
-- whole seconds), and fires at most once per cooldown around any of its runs, before or after,
-- so deliveries out of order still fire it once.
--
-- p_*_text are the caller's display texts (six significant digits) for the message and the large
-- swap title, so both engines show the same (the numbers as stored when a text is null); levels
-- are shown as stored.
create function public.evaluate_market_swap(
  p_pair text,
  p_tx_hash text,
  p_log_index integer,
  p_block_number bigint,
  p_block_time timestamptz,
  p_price_before numeric,
  p_price_after numeric,
  p_ddex_amount numeric,
  p_side text,
  p_price_before_text text,
  p_price_after_text text,
  p_amount_text text
) returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_pair constant text := pg_catalog.lower(p_pair);
  v_tx constant text := pg_catalog.lower(p_tx_hash);
  v_bot record;
  v_run uuid;
  v_notification uuid;
  v_title text;
  v_up numeric;
  v_down numeric;
  v_fired integer := 0;
begin
  if not (p_price_before > 0 and p_price_after > 0 and p_ddex_amount >= 0) then
    raise exception using
      errcode = '22023',
      message = 'A swap needs positive prices and an amount of at least 0';
  end if;
  -- Deliveries of one swap take turns, so the second sees the runs the first committed.
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('market-swap:' || v_pair || ':' || v_tx || ':' || p_log_index::text, 0)
  );

  insert into public.market_prices as m (pair, tx_hash, log_index, block_number, block_time,
    price_before, price_after, ddex_amount, side)
  values (v_pair, v_tx, p_log_index, p_block_number, p_block_time, p_price_before, p_price_after,
    p_ddex_amount, p_side)
  on conflict (pair, tx_hash, log_index) do nothing;

  -- Pruned here, not by a client: the local stack's REST API does not delete as the service role.
  -- 48 h keeps the longest window (24 h) for deliveries up to a day late. Per pair, so one
  -- market's clock never prunes another's.
  delete from public.market_prices m
   where m.pair = v_pair and m.block_time < p_block_time - interval '48 hours';

  -- Candidates are locked in one order, so concurrent swaps never deadlock; a swap that waited
  -- for a bot's lock checks the cooldown below, after the other swap's run is committed.
  for v_bot in
    with windows as (
      select w.minutes, min(p.price) as low, max(p.price) as high
        from unnest(array[15, 30, 60, 240, 720, 1440]) as w(minutes)
        cross join lateral (
          select v.price
            from public.market_prices m
            cross join lateral (values (m.price_before), (m.price_after)) as v(price)
           where m.pair = v_pair
             and m.block_time >= p_block_time - make_interval(mins => w.minutes)
             and m.block_time <= p_block_time
             and (m.block_number, m.log_index) <= (p_block_number, p_log_index)
          union all
          select p_price_before
        ) as p
       group by w.minutes
    )
    select b.id, b.user_id, b.name, b.kind, b.level, b.move_pct, b.window_minutes,
           b.cooldown_minutes, w.low, w.high
      from public.bots b
      left join windows w on b.kind = 'price_move' and w.minutes = b.window_minutes
     where b.status = 'active'
       and date_trunc('second', b.armed_at) <= p_block_time
       and case b.kind
             when 'price_above' then b.level > p_price_before and b.level <= p_price_after
             when 'price_below' then b.level < p_price_before and b.level >= p_price_after
             when 'large_swap' then b.min_ddex <= p_ddex_amount
             when 'price_move' then
               greatest(abs(p_price_after / w.low - 1), abs(p_price_after / w.high - 1)) * 100 >= b.move_pct
             else false
           end
     order by b.id
     for update of b
  loop
    if exists (
      select 1 from public.bot_runs r
       where r.bot_id = v_bot.id
         and r.block_time > p_block_time - make_interval(mins => v_bot.cooldown_minutes)
         and r.block_time < p_block_time + make_interval(mins => v_bot.cooldown_minutes)
    ) then
      continue;
    end if;

    insert into public.bot_runs (bot_id, user_id, tx_hash, log_index, block_number, block_time,
      price_before, price_after, ddex_amount, side)
    values (v_bot.id, v_bot.user_id, v_tx, p_log_index, p_block_number, p_block_time,
      p_price_before, p_price_after, p_ddex_amount, p_side)
    on conflict (bot_id, tx_hash, log_index) do nothing
    returning id into v_run;
    continue when v_run is null;

    if v_bot.kind = 'price_move' then
      v_up := (p_price_after / v_bot.low - 1) * 100;
      v_down := (1 - p_price_after / v_bot.high) * 100;
    end if;
    v_title := case v_bot.kind
      when 'price_above' then 'DDEX above ' || trim_scale(v_bot.level)::text || ' ETH'
      when 'price_below' then 'DDEX below ' || trim_scale(v_bot.level)::text || ' ETH'
      when 'large_swap' then
        'Large swap: ' || coalesce(p_amount_text, trim_scale(p_ddex_amount)::text) || ' DDEX '
          || case p_side when 'buy' then 'bought' else 'sold' end
      else
        'DDEX ' || case when v_up >= v_down then 'up ' else 'down ' end
          || trim_scale(round(greatest(v_up, v_down), 1))::text || ' % in '
          || case when v_bot.window_minutes < 60 then v_bot.window_minutes::text || ' min'
                  else (v_bot.window_minutes / 60)::text || ' h' end
    end;

    insert into public.user_notifications (user_id, title, message)
    values (
      v_bot.user_id,
      v_title,
      v_bot.name || ': ' || coalesce(p_price_before_text, trim_scale(p_price_before)::text) || ' → '
        || coalesce(p_price_after_text, trim_scale(p_price_after)::text)
        || ' ETH per DDEX (tx ' || left(v_tx, 10) || '…).'
    )
    returning id into v_notification;

    update public.bot_runs set notification_id = v_notification where id = v_run;
    update public.bots
       set last_fired_at = greatest(coalesce(last_fired_at, '-infinity'::timestamptz), p_block_time)
     where id = v_bot.id;
    v_fired := v_fired + 1;
  end loop;

  return v_fired;
end;
$$;

revoke all on function public.evaluate_market_swap(text, text, integer, bigint, timestamptz, numeric, numeric, numeric, text, text, text, text) from public;
revoke all on function public.evaluate_market_swap(text, text, integer, bigint, timestamptz, numeric, numeric, numeric, text, text, text, text) from anon;
revoke all on function public.evaluate_market_swap(text, text, integer, bigint, timestamptz, numeric, numeric, numeric, text, text, text, text) from authenticated;
grant execute on function public.evaluate_market_swap(text, text, integer, bigint, timestamptz, numeric, numeric, numeric, text, text, text, text) to service_role;
