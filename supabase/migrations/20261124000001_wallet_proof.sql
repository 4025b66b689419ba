-- Wallet ownership (docs/reliability-and-security.md#wallet-ownership). A profile's wallet is
-- what process-payments and record-transaction trust to decide whose history a transfer belongs
-- to, so the client no longer writes it: the link-wallet function sets it after checking an
-- EIP-4361 message the wallet signed, and so does a sign-in with Ethereum (the trigger below).
-- The owner may still unlink it.

alter table public.profiles add column wallet_verified_at timestamptz;

-- Every wallet stored so far was written by the browser with no proof that its user holds the
-- key, so none of them is trusted. The portal asks the connected wallet for a proof the next
-- time its user signs in, and the link comes back verified.
update public.profiles set wallet_address = null where wallet_address is not null;

-- One owner per address, whatever its letter case: two profiles holding one wallet would both be
-- told of its transfers.
drop index public.profiles_wallet_address_lower_idx;
create unique index profiles_wallet_address_lower_key
  on public.profiles (lower(wallet_address)) where wallet_address is not null;

-- The guard of 20261121000007, with the wallet and its proof added to the server-owned fields.
-- The one wallet change a client may make is to unlink it (wallet_address null), which clears
-- its proof too; whoever clears the address (the service role as well) clears the proof, so a
-- timestamp never vouches for an address that is gone.
create or replace function public.profiles_guard() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  server_owned constant text[] := array[
    'role', 'kyc_status', 'account_tier', 'api_key_count', 'two_factor_enabled',
    'hcaptcha_sim_verified', 'last_login_ip', 'last_dex_activity', 'referral_code',
    'referred_by_user_id', 'wallet_address', 'wallet_verified_at'
  ];
  baseline jsonb;
  proposed jsonb := to_jsonb(new);
  unlinking boolean;
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
      'last_dex_activity', null, 'referral_code', null, 'referred_by_user_id', null,
      'wallet_address', null, 'wallet_verified_at', null
    );
    if current_user in ('anon', 'authenticated') then
      new.created_at := now();
    end if;
  end if;
  new.updated_at := now();

  unlinking := new.wallet_address is null and baseline ->> 'wallet_address' is not null;
  if new.wallet_address is null then
    new.wallet_verified_at := null;
  end if;

  if current_user in ('anon', 'authenticated') then
    foreach field in array server_owned loop
      continue when unlinking and field in ('wallet_address', 'wallet_verified_at');
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

-- The nonces link-wallet hands out: each is bound to the user who asked and the address it was
-- asked for (as given; compared without regard to case), expires, and is spent by the one link
-- it proves. Only the function (the service role) reads or writes them.
create table public.wallet_link_nonces (
  nonce text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  address text not null,
  issued_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  constraint wallet_link_nonces_address_is_hex check (address ~ '^0x[0-9a-fA-F]{40}$')
);

create index wallet_link_nonces_expires_at_idx on public.wallet_link_nonces (expires_at);

alter table public.wallet_link_nonces enable row level security;

revoke all on table public.wallet_link_nonces from anon;
revoke all on table public.wallet_link_nonces from authenticated;
grant all on table public.wallet_link_nonces to service_role;

-- Sign in with Ethereum proves the wallet as much as a link does: Supabase Auth checked the
-- signed EIP-4361 message before it wrote the identity (provider web3, provider_id
-- 'web3:ethereum:<address as signed>'). It inserts the identity on the first sign-in and updates
-- it on every later one, so each sign-in links the wallet to the user's profile, unless another
-- profile holds that address. A sign-in never fails for this: a concurrent claim of the address
-- (the unique index) leaves the profile as it was.
create function public.link_web3_wallet() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  address text := substring(new.provider_id from '^web3:ethereum:(0x[0-9a-fA-F]{40})$');
begin
  if address is null then
    return null;
  end if;
  if exists (
    select 1 from public.profiles p
    where lower(p.wallet_address) = lower(address) and p.id <> new.user_id
  ) then
    return null;
  end if;
  begin
    insert into public.profiles (id, wallet_address, wallet_verified_at)
    values (new.user_id, address, now())
    on conflict (id) do update
      set wallet_address = excluded.wallet_address, wallet_verified_at = excluded.wallet_verified_at;
  exception when unique_violation then
    null;
  end;
  return null;
end;
$$;

revoke all on function public.link_web3_wallet() from public;
revoke all on function public.link_web3_wallet() from anon;
revoke all on function public.link_web3_wallet() from authenticated;

create trigger link_web3_wallet
  after insert or update on auth.identities
  for each row when (new.provider = 'web3')
  execute function public.link_web3_wallet();
