-- Notifications (spec §3). Only the server (service role) inserts them; the
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
-- Column privilege: a client may flip the read state and nothing else.
grant update (is_read, read_at) on table public.user_notifications to authenticated;
grant all on table public.user_notifications to service_role;
