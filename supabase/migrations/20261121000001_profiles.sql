-- Profiles (docs/product.md#tables): one row per auth user, keyed by the user id.
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text,
  wallet_address text,
  mc_wallet_address text,
  updated_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  username text,
  role text not null default 'user',
  avatar_url text,
  full_name text,
  website text,
  theme_preference text not null default 'dark',
  hcaptcha_sim_verified boolean not null default false,
  last_dex_activity timestamptz,
  two_factor_enabled boolean not null default false,
  last_login_ip text,
  kyc_status text not null default 'pending',
  account_tier text not null default 'basic',
  preferred_language text not null default 'en',
  notification_preferences jsonb not null default '{}'::jsonb,
  api_key_count integer not null default 0,
  referral_code text,
  referred_by_user_id uuid references auth.users (id) on delete set null,
  constraint profiles_theme_preference_valid check (theme_preference in ('light', 'dark')),
  constraint profiles_website_is_http check (website is null or website = '' or website ~* '^https?://[^[:space:]]+$'),
  constraint profiles_username_length check (username is null or char_length(username) <= 64),
  constraint profiles_full_name_length check (full_name is null or char_length(full_name) <= 128),
  constraint profiles_notification_preferences_object check (jsonb_typeof(notification_preferences) = 'object')
);

create index profiles_wallet_address_lower_idx on public.profiles (lower(wallet_address));

-- created_at is set once, on first creation, and kept on every later upsert.
-- Server-owned fields may only be changed by the service role; a client that
-- sends them unchanged (for example upserting the profile it just fetched) is
-- fine, a client that tries to change them gets a clear permission error.
create function public.profiles_guard() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  server_owned constant text[] := array[
    'role', 'kyc_status', 'account_tier', 'api_key_count', 'two_factor_enabled',
    'hcaptcha_sim_verified', 'last_login_ip', 'last_dex_activity', 'referral_code',
    'referred_by_user_id'
  ];
  baseline jsonb;
  proposed jsonb := to_jsonb(new);
  field text;
begin
  if tg_op = 'UPDATE' then
    new.created_at := old.created_at;
    baseline := to_jsonb(old);
  else
    select to_jsonb(p) into baseline from public.profiles p where p.id = new.id;
    if baseline is null then
      baseline := jsonb_build_object(
        'role', 'user', 'kyc_status', 'pending', 'account_tier', 'basic', 'api_key_count', 0,
        'two_factor_enabled', false, 'hcaptcha_sim_verified', false, 'last_login_ip', null,
        'last_dex_activity', null, 'referral_code', null, 'referred_by_user_id', null
      );
      if current_user in ('anon', 'authenticated') then
        new.created_at := now();
      end if;
    end if;
  end if;
  new.updated_at := now();

  if current_user in ('anon', 'authenticated') then
    foreach field in array server_owned loop
      if proposed -> field is distinct from baseline -> field then
        raise exception using
          errcode = '42501',
          message = format('profiles.%s is managed by the server and cannot be changed by the client', field),
          hint = 'Leave server-owned fields out of the profile you save.';
      end if;
    end loop;
  end if;
  return new;
end;
$$;

create trigger profiles_guard
  before insert or update on public.profiles
  for each row execute function public.profiles_guard();

alter table public.profiles enable row level security;

create policy "profiles: owner reads" on public.profiles
  for select to authenticated using ((select auth.uid()) = id);
create policy "profiles: owner creates" on public.profiles
  for insert to authenticated with check ((select auth.uid()) = id);
create policy "profiles: owner updates" on public.profiles
  for update to authenticated using ((select auth.uid()) = id) with check ((select auth.uid()) = id);

-- Hosted Supabase grants every table to anon and authenticated by default;
-- state what clients may do instead of relying on that.
revoke all on table public.profiles from anon;
revoke all on table public.profiles from authenticated;
grant select, insert, update on table public.profiles to authenticated;
grant all on table public.profiles to service_role;
