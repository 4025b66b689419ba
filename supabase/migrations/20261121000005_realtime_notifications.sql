-- Live notifications (docs/product.md#realtime): changes to user_notifications are published
-- to Realtime. Full replica identity lets filtered DELETE events carry the row.
alter table public.user_notifications replica identity full;
alter publication supabase_realtime add table public.user_notifications;
