-- Records one transfer in a user's history and, when the row is new and a
-- title is given, notifies the user, in one transaction: a crash between the
-- two writes can no longer leave a history row whose notification never comes
-- (a redelivery would find the row and skip the notification).
-- Called only by the server functions (process-payments, record-transaction)
-- with the service role; clients cannot execute it.
create function public.record_transfer(
  p_user_id uuid,
  p_tx_hash text,
  p_type text,
  p_status text,
  p_amount text,
  p_token_symbol text,
  p_title text default null,
  p_message text default null
) returns boolean
language plpgsql
security invoker
set search_path = ''
as $$
declare
  inserted_id uuid;
begin
  insert into public.transactions (user_id, tx_hash, type, status, amount, token_symbol)
  values (p_user_id, p_tx_hash, p_type, p_status, p_amount, p_token_symbol)
  on conflict (user_id, tx_hash, type) do nothing
  returning id into inserted_id;
  if inserted_id is null then
    return false;
  end if;
  if p_title is not null then
    insert into public.user_notifications (user_id, title, message)
    values (p_user_id, p_title, coalesce(p_message, ''));
  end if;
  return true;
end;
$$;

revoke all on function public.record_transfer(uuid, text, text, text, text, text, text, text) from public;
revoke all on function public.record_transfer(uuid, text, text, text, text, text, text, text) from anon;
revoke all on function public.record_transfer(uuid, text, text, text, text, text, text, text) from authenticated;
grant execute on function public.record_transfer(uuid, text, text, text, text, text, text, text) to service_role;
