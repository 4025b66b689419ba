-- evaluate_market_swap in bounded batches, for the rules it is asked for
-- (docs/reliability-and-security.md#trading-bots).
--
-- Before, one call weighed a swap against every active bot in one transaction, writing a run and
-- a notification for each that fired: one swap, anybody's on a public chain, made one transaction
-- as large as the project's bots. Now each call weighs at most bot_settings.evaluation_batch_size
-- of the bots the swap meets, in bot id order after the one the previous call ended at, and says
-- where it ended; the caller (market-bots) calls again until a call ends nowhere. Each call is a
-- transaction of its own. A bot fires at most once per swap however often it is weighed
-- (bot_runs is unique on the bot and the swap, and its cooldown covers the swap's own run), so a
-- delivery that failed part way is delivered again from the first batch: the batches already done
-- add nothing, the rest fire once.
--
-- The caller also says which rules to weigh. A transaction may swap on the pair more than once (a
-- swap and a swap back, through a contract): its price rules are weighed once, on the price before
-- its first swap and after its last ('price'), and only that move joins the price history; its
-- large-swap rules on each swap ('size'). A transaction of one swap is weighed for both ('all').
-- A swap below bot_settings.large_swap_min_ddex fires no large-swap bot, whatever rule an older
-- bot was saved with.

alter table public.bot_settings
  -- Bots weighed per call of evaluate_market_swap: each call one transaction of at most this
  -- many runs and notifications.
  add column evaluation_batch_size integer not null default 200,
  add constraint bot_settings_evaluation_batch_size_range check (evaluation_batch_size between 1 and 10000);

drop function public.evaluate_market_swap(text, text, integer, bigint, timestamptz, numeric, numeric, numeric, text, text, text, text);

-- Rules as before (20261201000001_market_bots.sql): price_above fires when the price goes from
-- below the level to at or above it, price_below the other way; large_swap when the swap moves at
-- least min_ddex DDEX (and at least the floor); price_move when the price after is at least
-- move_pct away from the lowest or the highest price of the window before it (the moves recorded
-- in [t - window, t], up to this one, and this move's price before). A bot counts a swap only if
-- it was armed by the swap's block time, to the second, and fires at most once per cooldown around
-- any of its runs. p_*_text are the caller's display texts.
--
-- Returns one row: how many bots this batch fired (0 on a repeat) and the last bot it weighed
-- when it weighed a full batch, so more may follow (null: none left).
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
  p_amount_text text,
  -- 'all', 'price' (price_above, price_below, price_move) or 'size' (large_swap).
  p_rules text default 'all',
  -- The next_bot the previous batch answered; null for the first batch.
  p_after_bot uuid default null
) returns table (fired integer, next_bot uuid)
language plpgsql
security invoker
set search_path = ''
as $$
declare
  c_windows constant integer[] := array[15, 30, 60, 240, 720, 1440];
  v_pair constant text := pg_catalog.lower(p_pair);
  v_tx constant text := pg_catalog.lower(p_tx_hash);
  v_prices constant boolean := p_rules in ('all', 'price');
  v_sizes constant boolean := p_rules in ('all', 'size');
  v_batch integer;
  v_min_ddex numeric;
  v_lows numeric[];
  v_highs numeric[];
  v_bot record;
  v_run uuid;
  v_notification uuid;
  v_title text;
  v_up numeric;
  v_down numeric;
  v_weighed integer := 0;
  v_fired integer := 0;
  v_next uuid;
begin
  if not (p_price_before > 0 and p_price_after > 0 and p_ddex_amount >= 0) then
    raise exception using
      errcode = '22023',
      message = 'A swap needs positive prices and an amount of at least 0';
  end if;
  if p_rules is null or not (v_prices or v_sizes) then
    raise exception using
      errcode = '22023',
      message = 'p_rules is all, price or size';
  end if;
  -- Batches of one swap take turns, so a second delivery sees the runs the first committed.
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('market-swap:' || v_pair || ':' || v_tx || ':' || p_log_index::text, 0)
  );

  select s.evaluation_batch_size, s.large_swap_min_ddex into v_batch, v_min_ddex
    from public.bot_settings s;
  v_batch := coalesce(v_batch, 200);
  v_min_ddex := coalesce(v_min_ddex, 1000);

  if v_prices then
    insert into public.market_prices as m (pair, tx_hash, log_index, block_number, block_time,
      price_before, price_after, ddex_amount, side)
    values (v_pair, v_tx, p_log_index, p_block_number, p_block_time, p_price_before, p_price_after,
      p_ddex_amount, p_side)
    on conflict (pair, tx_hash, log_index) do nothing;

    -- Pruned here, not by a client: the local stack's REST API does not delete as the service
    -- role. 48 h keeps the longest window (24 h) for deliveries up to a day late. Per pair, so one
    -- market's clock never prunes another's; once per swap, by its first batch.
    if p_after_bot is null then
      delete from public.market_prices m
       where m.pair = v_pair and m.block_time < p_block_time - interval '48 hours';
    end if;

    -- Each window's lowest and highest price, in c_windows' order.
    select array_agg(w.low order by w.minutes), array_agg(w.high order by w.minutes)
      into v_lows, v_highs
      from (
        select w.minutes, min(p.price) as low, max(p.price) as high
          from unnest(c_windows) as w(minutes)
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
      ) as w;
  end if;

  -- Candidates are locked in one order, so concurrent swaps never deadlock; a swap that waited
  -- for a bot's lock checks the cooldown below, after the other swap's run is committed.
  <<bots>>
  for v_bot in
    select b.id, b.user_id, b.name, b.kind, b.level, b.window_minutes, b.cooldown_minutes, w.low, w.high
      from public.bots b
      cross join lateral (
        select v_lows[pg_catalog.array_position(c_windows, b.window_minutes)] as low,
               v_highs[pg_catalog.array_position(c_windows, b.window_minutes)] as high
      ) as w
     where b.status = 'active'
       and (p_after_bot is null or b.id > p_after_bot)
       and date_trunc('second', b.armed_at) <= p_block_time
       and case b.kind
             when 'price_above' then v_prices and b.level > p_price_before and b.level <= p_price_after
             when 'price_below' then v_prices and b.level < p_price_before and b.level >= p_price_after
             when 'large_swap' then v_sizes and b.min_ddex <= p_ddex_amount and v_min_ddex <= p_ddex_amount
             when 'price_move' then
               v_prices
               and greatest(abs(p_price_after / w.low - 1), abs(p_price_after / w.high - 1)) * 100 >= b.move_pct
             else false
           end
     order by b.id
     for update of b
  loop
    v_weighed := v_weighed + 1;
    <<one_bot>>
    begin
      if exists (
        select 1 from public.bot_runs r
         where r.bot_id = v_bot.id
           and r.block_time > p_block_time - make_interval(mins => v_bot.cooldown_minutes)
           and r.block_time < p_block_time + make_interval(mins => v_bot.cooldown_minutes)
      ) then
        exit one_bot;
      end if;

      insert into public.bot_runs (bot_id, user_id, tx_hash, log_index, block_number, block_time,
        price_before, price_after, ddex_amount, side)
      values (v_bot.id, v_bot.user_id, v_tx, p_log_index, p_block_number, p_block_time,
        p_price_before, p_price_after, p_ddex_amount, p_side)
      on conflict (bot_id, tx_hash, log_index) do nothing
      returning id into v_run;
      exit one_bot when v_run is null;

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
    end;
    -- A full batch: the caller asks for the bots after this one in a transaction of its own.
    if v_weighed >= v_batch then
      v_next := v_bot.id;
      exit bots;
    end if;
  end loop;

  fired := v_fired;
  next_bot := v_next;
  return next;
end;
$$;

revoke all on function public.evaluate_market_swap(text, text, integer, bigint, timestamptz, numeric, numeric, numeric, text, text, text, text, text, uuid) from public;
revoke all on function public.evaluate_market_swap(text, text, integer, bigint, timestamptz, numeric, numeric, numeric, text, text, text, text, text, uuid) from anon;
revoke all on function public.evaluate_market_swap(text, text, integer, bigint, timestamptz, numeric, numeric, numeric, text, text, text, text, text, uuid) from authenticated;
grant execute on function public.evaluate_market_swap(text, text, integer, bigint, timestamptz, numeric, numeric, numeric, text, text, text, text, text, uuid) to service_role;
