-- Limits on the trading bots as a whole (docs/reliability-and-security.md#trading-bots). Anybody
-- can swap on a public chain, and every swap is evaluated against every active bot: without a
-- limit beyond 25 bots per account, enough accounts could make one swap write any number of runs
-- and notifications, and a rule of a few wei would fire on every dust swap. The limits live in
-- one row that the service role reads and changes; no API role sees it.
create table public.bot_settings (
  -- One row: true is its only key.
  id boolean primary key default true,
  -- Active bots the whole project runs at once: a new active bot, or a resume, past it is
  -- refused. Paused bots are not counted. The default holds the load bench's 2,000 bots
  -- (`npm run bench:load -- --users 100`) five times over.
  max_active_bots integer not null default 10000,
  -- The smallest swap, in DDEX, a large-swap rule may watch for: 0.2 % of the local pool's
  -- 500,000 DDEX, 0.2 ETH at its seeded price. A rule below it is refused when it is saved.
  large_swap_min_ddex numeric not null default 1000,
  updated_at timestamptz not null default now(),
  constraint bot_settings_one_row check (id),
  constraint bot_settings_max_active_bots_range check (max_active_bots >= 0),
  constraint bot_settings_large_swap_min_ddex_positive check (large_swap_min_ddex > 0)
);

insert into public.bot_settings default values;

alter table public.bot_settings enable row level security;

revoke all on table public.bot_settings from anon;
revoke all on table public.bot_settings from authenticated;
revoke all on table public.bot_settings from service_role;
-- The service role reads and changes the one row; nobody adds another or deletes it.
grant select, update on table public.bot_settings to service_role;

-- The project's limits on a bot being created or changed, after bots_cap (25 per user) and
-- bots_guard. Security definer: the count is of everybody's bots, which the owner's row-level
-- security would hide, and the settings are no API role's to read.
create function public.bots_limits() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_max_active integer;
  v_min_ddex numeric;
begin
  select s.max_active_bots, s.large_swap_min_ddex into v_max_active, v_min_ddex
    from public.bot_settings s;

  -- A rule below the floor is refused when it is saved; a rename or a pause of a bot saved under
  -- a lower floor keeps its rule.
  if new.kind = 'large_swap'
     and (tg_op = 'INSERT' or (old.kind, old.min_ddex) is distinct from (new.kind, new.min_ddex))
     and new.min_ddex < coalesce(v_min_ddex, 1000) then
    raise exception using
      errcode = '23514',
      message = 'A large-swap bot needs a swap size of at least '
        || trim_scale(coalesce(v_min_ddex, 1000))::text || ' DDEX',
      hint = 'Choose a larger swap size.';
  end if;

  -- Only a bot that becomes active counts. Writers that add one take turns, so two at once
  -- cannot both take the last place: each count is a statement of its own, which sees the
  -- other's committed row.
  if new.status = 'active' and (tg_op = 'INSERT' or old.status is distinct from 'active') then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('bots-active-cap', 0));
    v_max_active := coalesce(v_max_active, 10000);
    if (
      select count(*) from (
        select 1 from public.bots b
         where b.status = 'active'
         limit v_max_active
      ) as active
    ) >= v_max_active then
      raise exception using
        errcode = '23514',
        message = 'The portal can run at most ' || v_max_active::text || ' active bots at once; try again later',
        hint = 'Pause or delete an active bot to make room.';
    end if;
  end if;
  return new;
end;
$$;

revoke all on function public.bots_limits() from public;
revoke all on function public.bots_limits() from anon;
revoke all on function public.bots_limits() from authenticated;

create trigger bots_limits
  before insert or update on public.bots
  for each row execute function public.bots_limits();
