-- The profiles guard compared an upsert's proposed row with the stored one in
-- its INSERT branch, so a profile whose server-owned fields (role, tier, KYC
-- status, ...) were no longer at their defaults could never be saved by its
-- owner: the fields the client left out arrive as defaults. The check belongs
-- to the UPDATE branch, which ON CONFLICT DO UPDATE runs with the real change.
create or replace function public.profiles_guard() returns trigger
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
    if exists (select 1 from public.profiles p where p.id = new.id) then
      -- An upsert of an existing profile: the proposed row carries column
      -- defaults for every field the client left out, which say nothing about
      -- what it wants changed. ON CONFLICT DO UPDATE fires the UPDATE branch
      -- with the real change, and a plain INSERT fails on the key anyway.
      new.updated_at := now();
      return new;
    end if;
    baseline := jsonb_build_object(
      'role', 'user', 'kyc_status', 'pending', 'account_tier', 'basic', 'api_key_count', 0,
      'two_factor_enabled', false, 'hcaptcha_sim_verified', false, 'last_login_ip', null,
      'last_dex_activity', null, 'referral_code', null, 'referred_by_user_id', null
    );
    if current_user in ('anon', 'authenticated') then
      new.created_at := now();
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
