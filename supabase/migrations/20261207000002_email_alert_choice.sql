-- The profile's email choices change one kind at a time (docs/product.md#email-alerts). The
-- Notifications section used to write its whole `email` object from the profile the page held,
-- so an email kind the owner turned off elsewhere (an alert mail's unsubscribe link, another tab
-- or device) came back on when they next ticked the other kind. This sets one key in the
-- database, on the row as it is, and answers the preferences as they now stand.
--
-- Security invoker: the caller's own profile (auth.uid()), through the owner's update policy and
-- the profile guard, exactly as a client's update of its profile.
create function public.set_email_alert(p_kind text, p_on boolean) returns jsonb
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_preferences jsonb;
begin
  if p_kind is null or p_kind not in ('transfers', 'bots') then
    raise exception using errcode = '22023', message = 'p_kind is transfers or bots';
  end if;
  if p_on is null then
    raise exception using errcode = '22023', message = 'p_on is true or false';
  end if;
  update public.profiles p
     set notification_preferences = pg_catalog.jsonb_set(
           case when pg_catalog.jsonb_typeof(p.notification_preferences) = 'object'
                then p.notification_preferences else '{}'::jsonb end,
           array['email'],
           case when pg_catalog.jsonb_typeof(p.notification_preferences -> 'email') = 'object'
                then p.notification_preferences -> 'email' else '{}'::jsonb end
             || pg_catalog.jsonb_build_object(p_kind, p_on)
         )
   where p.id = (select auth.uid())
  returning p.notification_preferences into v_preferences;
  if not found then
    raise exception using errcode = 'P0002', message = 'No profile to change';
  end if;
  return v_preferences;
end;
$$;

revoke all on function public.set_email_alert(text, boolean) from public;
revoke all on function public.set_email_alert(text, boolean) from anon;
grant execute on function public.set_email_alert(text, boolean) to authenticated;
