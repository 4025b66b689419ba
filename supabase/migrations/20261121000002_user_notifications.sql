-- Notifications (docs/product.md#tables). Only the server (service role) inserts them; the
-- owner reads them, marks them read and deletes them.
create table public.user_notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  title text not null,
  message text not null default '',
  is_read boolean not null default false,
  read_at timestamptz,
  created_at timestamptz not null default now()
);

create index user_notifications_user_created_idx
  on public.user_notifications (user_id, created_at desc);

-- A client may flip the read state and nothing else. The trigger enforces it
-- whatever the table grants are (the local gateway's lite re-grants tables to
-- the API roles at runtime; hosted projects also get the column grant below).
create function public.user_notifications_guard() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and (new.id, new.user_id, new.title, new.message, new.created_at)
         is distinct from (old.id, old.user_id, old.title, old.message, old.created_at) then
    raise exception using
      errcode = '42501',
      message = 'Only is_read and read_at of a notification can be changed by the client';
  end if;
  return new;
end;
$$;

create trigger user_notifications_guard
  before update on public.user_notifications
  for each row execute function public.user_notifications_guard();

alter table public.user_notifications enable row level security;

create policy "user_notifications: owner reads" on public.user_notifications
  for select to authenticated using ((select auth.uid()) = user_id);
create policy "user_notifications: owner marks read" on public.user_notifications
  for update to authenticated using ((select auth.uid()) = user_id) with check ((select auth.uid()) = user_id);
create policy "user_notifications: owner deletes" on public.user_notifications
  for delete to authenticated using ((select auth.uid()) = user_id);

revoke all on table public.user_notifications from anon;
revoke all on table public.user_notifications from authenticated;
grant select, delete on table public.user_notifications to authenticated;
grant update (is_read, read_at) on table public.user_notifications to authenticated;
grant all on table public.user_notifications to service_role;
