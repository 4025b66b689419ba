-- Avatars (docs/product.md#avatars-bucket): public read, png/jpeg/gif only, 2 MB, and every
-- object name starts with the uploader's user id (the portal names files
-- "<user id>-<timestamp>.<ext>").
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', true, 2097152, array['image/png', 'image/jpeg', 'image/gif'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

create policy "avatars: owner uploads under own id" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'avatars' and starts_with(name, (select auth.uid())::text));
create policy "avatars: owner lists own" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and owner_id = (select auth.uid())::text);
create policy "avatars: owner replaces own" on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and owner_id = (select auth.uid())::text)
  with check (bucket_id = 'avatars' and starts_with(name, (select auth.uid())::text));
create policy "avatars: owner deletes own" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and owner_id = (select auth.uid())::text);
