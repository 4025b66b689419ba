-- One history row per transfer, not per transaction. A transaction that moves two tokens, or a
-- batch of DDEX transfers to one user, used to keep only its first: the row was keyed by the
-- transaction's hash and the row's type alone.
--
-- A transfer carried by a log (every ERC-20 Transfer) is keyed by that log's index, its position
-- in the block as receipts and Tatum report it. A transaction's own ETH value and its fee have no
-- log: their log_index is null, and there is one of each per transaction. The rows recorded before
-- this migration keep a null log_index; the first writer that names a log takes such a row over
-- (record_transfer below), so no transfer is recorded twice across the change.

alter table public.transactions add column log_index integer;

alter table public.transactions
  add constraint transactions_log_index_is_position check (log_index is null or log_index >= 0);

-- Nulls not distinct: the transaction's own value (no log) is still one row per user and type.
alter table public.transactions drop constraint transactions_one_row_per_transfer;
alter table public.transactions
  add constraint transactions_one_row_per_transfer
  unique nulls not distinct (user_id, tx_hash, type, log_index);

-- Records one transfer, at its log, in a user's history and, when the row is new and a title is
-- given, notifies the user, in one transaction (as 20261121000006 did per transaction).
--
-- p_log_index null means the writer does not know the log: the transaction's ETH value or fee,
-- or a token transfer from a delivery that names none (Tatum's legacy webhook body). Such a
-- writer meets a row of the same kind, token and amount for the transaction. A writer that names
-- the log takes over a row of that token and amount recorded without one, so Tatum's legacy
-- delivery and record-transaction (which reads the log from the receipt) still make one row of
-- one send, whichever comes first, while another transfer of the same transaction is not taken
-- for it. (Two transfers of the same token and amount in one transaction are indistinguishable
-- without their logs: a legacy delivery records them as one.)
create function public.record_transfer(
  p_user_id uuid,
  p_tx_hash text,
  p_type text,
  p_log_index integer,
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
  -- The writers of one transfer (a webhook, its redeliveries, record-transaction) take turns per
  -- user, transaction and type, so each sees the row another has just written: the unique key
  -- alone cannot, as a row without a log and a row with one never conflict.
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended(p_user_id::text || ':' || p_tx_hash || ':' || p_type, 0)
  );
  if p_log_index is null then
    if exists (
      select 1 from public.transactions t
       where t.user_id = p_user_id and t.tx_hash = p_tx_hash and t.type = p_type
         and t.token_symbol is not distinct from p_token_symbol
         and (t.amount is not distinct from p_amount
              or (t.amount ~ '^-?[0-9]+(\.[0-9]+)?$' and p_amount ~ '^-?[0-9]+(\.[0-9]+)?$'
                  and t.amount::numeric = p_amount::numeric))
    ) then
      return false;
    end if;
  else
    update public.transactions t
       set log_index = p_log_index
     where t.id = (
             select c.id from public.transactions c
              where c.user_id = p_user_id and c.tx_hash = p_tx_hash and c.type = p_type
                and c.log_index is null
                and c.token_symbol is not distinct from p_token_symbol
                and (c.amount is not distinct from p_amount
                     or (c.amount ~ '^-?[0-9]+(\.[0-9]+)?$' and p_amount ~ '^-?[0-9]+(\.[0-9]+)?$'
                         and c.amount::numeric = p_amount::numeric))
              order by c.created_at, c.id
              limit 1
           )
       and not exists (
             select 1 from public.transactions d
              where d.user_id = p_user_id and d.tx_hash = p_tx_hash and d.type = p_type
                and d.log_index = p_log_index
           );
    if found then
      return false;
    end if;
  end if;

  insert into public.transactions (user_id, tx_hash, type, log_index, status, amount, token_symbol)
  values (p_user_id, p_tx_hash, p_type, p_log_index, p_status, p_amount, p_token_symbol)
  on conflict (user_id, tx_hash, type, log_index) do nothing
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

revoke all on function public.record_transfer(uuid, text, text, integer, text, text, text, text, text) from public;
revoke all on function public.record_transfer(uuid, text, text, integer, text, text, text, text, text) from anon;
revoke all on function public.record_transfer(uuid, text, text, integer, text, text, text, text, text) from authenticated;
grant execute on function public.record_transfer(uuid, text, text, integer, text, text, text, text, text) to service_role;

-- The earlier form, without p_log_index, records a transfer that names no log. It keeps its
-- signature and grants (service_role only), so callers that never knew a log work unchanged; a
-- call with p_log_index resolves to the form above, as its p_log_index has no default.
create or replace function public.record_transfer(
  p_user_id uuid,
  p_tx_hash text,
  p_type text,
  p_status text,
  p_amount text,
  p_token_symbol text,
  p_title text default null,
  p_message text default null
) returns boolean
language sql
security invoker
set search_path = ''
as $$
  select public.record_transfer(
    p_user_id, p_tx_hash, p_type, null::integer, p_status, p_amount, p_token_symbol, p_title, p_message
  );
$$;
