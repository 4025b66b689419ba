-- The faucet (supabase/functions/faucet): a fixed amount of DDEX for a signed-in user's proven
-- wallet, at most once per 24 hours per account and per address. Only the function, as the service
-- role, reads or writes these tables: no API role may, so nobody can clear their own last claim.

create table public.faucet_claims (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The proven wallet it paid, lower case.
  address text not null check (address ~ '^0x[0-9a-f]{40}$'),
  claimed_at timestamptz not null default now(),
  amount text not null check (amount ~ '^[0-9]+(\.[0-9]+)?$'),
  -- Set once the transfer is sent; a claim whose transfer could not be sent is removed.
  tx_hash text
);

create index faucet_claims_user_idx on public.faucet_claims (user_id, claimed_at desc);
create index faucet_claims_address_idx on public.faucet_claims (address, claimed_at desc);

alter table public.faucet_claims enable row level security;
revoke all on table public.faucet_claims from anon;
revoke all on table public.faucet_claims from authenticated;
grant all on table public.faucet_claims to service_role;

-- Takes a claim for the user's wallet, or says when the next one may be taken: the last claim of
-- the account or of the address (whoever holds it now) plus the cooldown. Claims take turns under
-- one lock, so two at once for one account or one address cannot both pass.
create function public.take_faucet_claim(
  p_user_id uuid,
  p_address text,
  p_amount text,
  p_cooldown interval
) returns table (claim_id uuid, next_claim_at timestamptz)
language plpgsql
security invoker
set search_path = ''
as $$
declare
  last_claim timestamptz;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('faucet-claims', 0));
  select max(c.claimed_at) into last_claim
    from public.faucet_claims c
   where c.user_id = p_user_id or c.address = pg_catalog.lower(p_address);
  if last_claim is not null and last_claim + p_cooldown > pg_catalog.now() then
    return query select null::uuid, last_claim + p_cooldown;
    return;
  end if;
  return query
    insert into public.faucet_claims (user_id, address, amount)
    values (p_user_id, pg_catalog.lower(p_address), p_amount)
    returning faucet_claims.id, faucet_claims.claimed_at + p_cooldown;
end;
$$;

revoke all on function public.take_faucet_claim(uuid, text, text, interval) from public;
revoke all on function public.take_faucet_claim(uuid, text, text, interval) from anon;
revoke all on function public.take_faucet_claim(uuid, text, text, interval) from authenticated;
grant execute on function public.take_faucet_claim(uuid, text, text, interval) to service_role;
