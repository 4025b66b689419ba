-- Alerts by email (docs/deploy.md#email-alerts): a user who asked for it gets one email per
-- notification of a kind they chose, even with the portal closed. The profile's
-- notification_preferences holds the choice, {"email": {"transfers": true, "bots": true}}; a
-- missing key is false, so email is off until the owner turns it on.
--
-- - user_notifications.kind says what a notification is about, set by whoever writes it:
--   'transfers' for DDEX or ETH arriving from someone else (process-payments,
--   _shared/history-words.ts alertKindOf), 'bots' for a bot firing (evaluate_market_swap below).
--   Every other notification (the user's own swaps, approvals and faucet claims, corrections
--   after a reorganisation) has none and is never mailed.
-- - A trigger on user_notifications queues one row in email_outbox per notification its owner
--   wants mailed, with the recipient, subject and body as they were then (since 20261207000001 a
--   claim sends to the account's address as it is when the mail goes). A notification is
--   inserted once however often Tatum redelivers its event: a transfer's has an id made of the
--   event (process-payments), and a bot firing's, whose id is random, is written only by the
--   insert into bot_runs that its unique key (bot_id, tx_hash, log_index) lets through once. The
--   outbox is unique per notification besides, so one notification is one row.
-- - The email-alerts function drains the outbox: on a hosted project a Database Webhook on
--   email_outbox calls it, and a scheduled call retries what failed; on the local stack the
--   gateway plays both (docs/local-stack.md#email-alerts-and-the-mailbox).
--
-- The unsubscribe link's token is made and checked by the functions, which hold its secret
-- (EMAIL_UNSUBSCRIBE_SECRET); the database never sees either.

alter table public.user_notifications add column kind text;
alter table public.user_notifications
  add constraint user_notifications_kind_valid check (kind is null or kind in ('transfers', 'bots'));

-- The owner may still only flip the read state: the kind joins the fields the guard keeps.
create or replace function public.user_notifications_guard() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and (new.id, new.user_id, new.title, new.message, new.created_at, new.kind)
         is distinct from (old.id, old.user_id, old.title, old.message, old.created_at, old.kind) then
    raise exception using
      errcode = '42501',
      message = 'Only is_read and read_at of a notification can be changed by the client';
  end if;
  return new;
end;
$$;

-- One email per notification. No foreign key to the notification: the row outlives it, so a
-- notification its owner deleted and a redelivery wrote again is not mailed twice, and one
-- deleted before its mail went is still mailed (it was the owner's choice when it came). A
-- deleted user takes their rows (and address) with them.
create table public.email_outbox (
  -- Random, not a sequence: the mail's Message-ID is made of it (email-alerts), and a fresh
  -- database must not reuse one.
  id uuid primary key default gen_random_uuid(),
  notification_id uuid not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null,
  recipient text not null,
  subject text not null,
  -- The notification's message; the function adds the portal's line and the unsubscribe link.
  body text not null,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- The drain sending it, until claimed_until: the lease outlives the claiming transaction,
  -- because the work in between talks to the mail server.
  claimed_by uuid,
  claimed_until timestamptz,
  -- When the mail server accepted it; a sent row is never claimed again.
  sent_at timestamptz,
  -- When a drain found the owner no longer wants it (they turned the kind off, or the account
  -- has no confirmed email now) before it went; it is then never sent.
  discarded_at timestamptz,
  -- Why the last attempt failed, as the function words it (never a password or a token).
  last_error text,
  constraint email_outbox_kind_valid check (kind in ('transfers', 'bots'))
);

create index email_outbox_due_idx on public.email_outbox (next_attempt_at)
  where sent_at is null and discarded_at is null;

alter table public.email_outbox enable row level security;

revoke all on table public.email_outbox from anon;
revoke all on table public.email_outbox from authenticated;
grant all on table public.email_outbox to service_role;

-- Where the user's emails of `p_kind` go, or null when none may: the account's email, confirmed,
-- and the owner's choice of that kind, which only a JSON true makes (a missing key, a string, or
-- anything else is off). Security definer: auth.users is no API role's, and the trigger below
-- runs as whoever inserted the notification.
create function public.email_alert_recipient(p_user_id uuid, p_kind text) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select u.email
    from auth.users u
    join public.profiles p on p.id = u.id
   where u.id = p_user_id
     and nullif(pg_catalog.btrim(u.email), '') is not null
     and u.email_confirmed_at is not null
     and p.notification_preferences -> 'email' -> p_kind = 'true'::jsonb;
$$;

revoke all on function public.email_alert_recipient(uuid, text) from public;
revoke all on function public.email_alert_recipient(uuid, text) from anon;
revoke all on function public.email_alert_recipient(uuid, text) from authenticated;
grant execute on function public.email_alert_recipient(uuid, text) to service_role;

-- Queues the email of a new notification whose owner wants its kind mailed. Security definer:
-- notifications are written by the service role and inside the functions above, none of which
-- need the outbox themselves.
create function public.queue_email_alert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_recipient text;
begin
  if new.kind is null then
    return null;
  end if;
  v_recipient := public.email_alert_recipient(new.user_id, new.kind);
  if v_recipient is null then
    return null;
  end if;
  insert into public.email_outbox (notification_id, user_id, kind, recipient, subject, body)
  values (new.id, new.user_id, new.kind, v_recipient, new.title, new.message)
  on conflict (notification_id) do nothing;
  return null;
end;
$$;

revoke all on function public.queue_email_alert() from public;
revoke all on function public.queue_email_alert() from anon;
revoke all on function public.queue_email_alert() from authenticated;

create trigger queue_email_alert
  after insert on public.user_notifications
  for each row execute function public.queue_email_alert();

-- Claims up to p_limit due emails for one drain, each leased for p_lease_seconds, and answers
-- them with the claim to finish each with. Rows are taken with FOR UPDATE SKIP LOCKED in the
-- statement that leases them, so two drains at once never take one row: a row another claim has
-- locked is skipped, and one whose lease that claim has committed no longer qualifies when this
-- one re-reads it. A row is claimable while unsent, not discarded, due, and not leased. Emails
-- whose owner has turned their kind off since they were queued are discarded first, never sent.
create function public.claim_email_alerts(p_limit integer, p_lease_seconds integer)
returns table (
  id uuid,
  claim uuid,
  user_id uuid,
  kind text,
  recipient text,
  subject text,
  body text,
  attempts integer
)
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_claim uuid := gen_random_uuid();
begin
  update public.email_outbox o
     set discarded_at = now(),
         last_error = 'Not sent: the owner turned these emails off, or the account has no confirmed email'
   where o.id in (
           select d.id
             from public.email_outbox d
            where d.sent_at is null
              and d.discarded_at is null
              and (d.claimed_until is null or d.claimed_until <= now())
              and public.email_alert_recipient(d.user_id, d.kind) is null
              for update skip locked
         );
  return query
  update public.email_outbox o
     set claimed_by = v_claim,
         claimed_until = now() + make_interval(secs => p_lease_seconds)
   where o.id in (
           select c.id
             from public.email_outbox c
            where c.sent_at is null
              and c.discarded_at is null
              and c.next_attempt_at <= now()
              and (c.claimed_until is null or c.claimed_until <= now())
            order by c.next_attempt_at, c.created_at
            limit p_limit
              for update skip locked
         )
  returning o.id, v_claim, o.user_id, o.kind, o.recipient, o.subject, o.body, o.attempts;
end;
$$;

-- Ends one claim. Sent (p_error null): sent_at is set, and the row is never claimed again.
-- Failed: attempts + 1, and the next attempt p_retry_after_ms from now (the function's back-off),
-- with the reason. Only the drain holding the claim can end it; answers whether it did (false:
-- its lease ran out and another drain took the row).
create function public.finish_email_alert(
  p_id uuid,
  p_claim uuid,
  p_error text,
  p_retry_after_ms integer default 0
) returns boolean
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if p_error is null then
    update public.email_outbox
       set sent_at = now(), claimed_by = null, claimed_until = null, last_error = null
     where id = p_id and claimed_by = p_claim and sent_at is null;
  else
    update public.email_outbox
       set claimed_by = null,
           claimed_until = null,
           attempts = attempts + 1,
           next_attempt_at = now() + make_interval(secs => greatest(0, p_retry_after_ms) / 1000.0),
           last_error = left(p_error, 500)
     where id = p_id and claimed_by = p_claim and sent_at is null;
  end if;
  return found;
end;
$$;

-- Turns one kind of email off for a user, as the unsubscribe link asks (email-unsubscribe checks
-- the link's token first). Answers whether the user exists; a second call changes nothing more.
-- The other kind, and anything else the preferences hold, is kept.
create function public.unsubscribe_email_alerts(p_user_id uuid, p_kind text) returns boolean
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if p_kind is null or p_kind not in ('transfers', 'bots') then
    raise exception using errcode = '22023', message = 'p_kind is transfers or bots';
  end if;
  update public.profiles p
     set notification_preferences = pg_catalog.jsonb_set(
           p.notification_preferences,
           array['email'],
           case when pg_catalog.jsonb_typeof(p.notification_preferences -> 'email') = 'object'
                then p.notification_preferences -> 'email' else '{}'::jsonb end
             || pg_catalog.jsonb_build_object(p_kind, false)
         )
   where p.id = p_user_id;
  return found;
end;
$$;

revoke all on function public.claim_email_alerts(integer, integer) from public;
revoke all on function public.claim_email_alerts(integer, integer) from anon;
revoke all on function public.claim_email_alerts(integer, integer) from authenticated;
grant execute on function public.claim_email_alerts(integer, integer) to service_role;

revoke all on function public.finish_email_alert(uuid, uuid, text, integer) from public;
revoke all on function public.finish_email_alert(uuid, uuid, text, integer) from anon;
revoke all on function public.finish_email_alert(uuid, uuid, text, integer) from authenticated;
grant execute on function public.finish_email_alert(uuid, uuid, text, integer) to service_role;

revoke all on function public.unsubscribe_email_alerts(uuid, text) from public;
revoke all on function public.unsubscribe_email_alerts(uuid, text) from anon;
revoke all on function public.unsubscribe_email_alerts(uuid, text) from authenticated;
grant execute on function public.unsubscribe_email_alerts(uuid, text) to service_role;

-- evaluate_market_swap as 20261203000002 defines it, but its notification says it is a bot
-- firing (kind 'bots'). Same signature, so its grants (service_role only) stay.
create or replace function public.evaluate_market_swap(
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

      -- 20261206000001: the one change, kind 'bots', which the owner may have asked to be emailed.
      insert into public.user_notifications (user_id, title, message, kind)
      values (
        v_bot.user_id,
        v_title,
        v_bot.name || ': ' || coalesce(p_price_before_text, trim_scale(p_price_before)::text) || ' → '
          || coalesce(p_price_after_text, trim_scale(p_price_after)::text)
          || ' ETH per DDEX (tx ' || left(v_tx, 10) || '…).',
        'bots'
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
