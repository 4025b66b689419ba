-- The profile's last_dex_activity (a spec field, server-owned: the profile guard keeps clients
-- from writing it), which the Trading tab's context card shows as 'Last DEX activity', was never
-- written. It is the time of the user's newest swap in their history: record-transaction writes
-- one `swap` row per swap the portal made (docs/product.md#functions), so a trigger on those rows
-- keeps it, never moving it back for a swap recorded late.
--
-- Security definer: the rows are written by the service role, and the profile guard lets only the
-- service role and the owner of the table change a server-owned field.
create function public.note_dex_activity() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles p
     set last_dex_activity = new.created_at
   where p.id = new.user_id
     and (p.last_dex_activity is null or p.last_dex_activity < new.created_at);
  return null;
end;
$$;

revoke all on function public.note_dex_activity() from public;
revoke all on function public.note_dex_activity() from anon;
revoke all on function public.note_dex_activity() from authenticated;

create trigger note_dex_activity
  after insert on public.transactions
  for each row
  when (new.type = 'swap')
  execute function public.note_dex_activity();
