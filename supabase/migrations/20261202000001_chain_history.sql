-- The history as the chain tells it (docs/product.md#tables). The server writes a proven
-- wallet's rows from Tatum's address events and the transactions' receipts, whichever app sent
-- them, and the portal's own record-transaction call meets those rows: both write through
-- record_wallet_row below, keyed as record_transfer keys a transfer.
--
-- A row now also says where it sits in the chain and what it moved against:
-- - block_number: the block the transaction was mined in, corrected after a reorganisation;
-- - counterparty: the other side of a transfer, or the spender of an approval;
-- - counter_amount and counter_symbol: a swap's other leg (what the wallet paid or got for the
--   DDEX), signed from the wallet's side like amount, so one row shows both legs;
-- - unlimited: an approval of the largest allowance the token can hold (2^256 - 1), which wallets
--   and DEX interfaces show as "unlimited";
-- - status 'dropped': the transaction is no longer in the chain after a reorganisation.

alter table public.transactions add column block_number bigint;
alter table public.transactions add column counterparty text;
alter table public.transactions add column counter_amount text;
alter table public.transactions add column counter_symbol text;
alter table public.transactions add column unlimited boolean not null default false;

alter table public.transactions
  add constraint transactions_counter_amount_is_decimal
  check (counter_amount is null or counter_amount ~ '^-?[0-9]+(\.[0-9]+)?$');
alter table public.transactions
  add constraint transactions_block_number_is_height check (block_number is null or block_number >= 0);

-- Records one row of a wallet's history as record_transfer does (same key, same meeting of a
-- writer that names the log with one that does not, the notification only with a new row), and
-- fills in the details a row recorded by another writer lacks: whichever writer comes first, the
-- row ends with the block, the counterparty and both legs. A block once set is moved only by
-- correct_wallet_rows, after a reorganisation. Returns whether the row was new.
create function public.record_wallet_row(
  p_user_id uuid,
  p_tx_hash text,
  p_type text,
  p_log_index integer,
  p_status text,
  p_amount text,
  p_token_symbol text,
  p_block_number bigint default null,
  p_counterparty text default null,
  p_counter_amount text default null,
  p_counter_symbol text default null,
  p_unlimited boolean default false,
  p_title text default null,
  p_message text default null
) returns boolean
language plpgsql
security invoker
set search_path = ''
as $$
declare
  is_new boolean;
begin
  is_new := public.record_transfer(
    p_user_id, p_tx_hash, p_type, p_log_index, p_status, p_amount, p_token_symbol, p_title, p_message
  );
  -- record_transfer holds the transfer's advisory lock until this transaction ends, so the row it
  -- inserted or met is the one updated here.
  update public.transactions t
     set block_number = coalesce(t.block_number, p_block_number),
         counterparty = coalesce(t.counterparty, p_counterparty),
         counter_amount = coalesce(t.counter_amount, p_counter_amount),
         counter_symbol = coalesce(t.counter_symbol, p_counter_symbol),
         unlimited = t.unlimited or p_unlimited
   where t.user_id = p_user_id and t.tx_hash = p_tx_hash and t.type = p_type
     and t.log_index is not distinct from p_log_index;
  return is_new;
end;
$$;

revoke all on function public.record_wallet_row(uuid, text, text, integer, text, text, text, bigint, text, text, text, boolean, text, text) from public;
revoke all on function public.record_wallet_row(uuid, text, text, integer, text, text, text, bigint, text, text, text, boolean, text, text) from anon;
revoke all on function public.record_wallet_row(uuid, text, text, integer, text, text, text, bigint, text, text, text, boolean, text, text) from authenticated;
grant execute on function public.record_wallet_row(uuid, text, text, integer, text, text, text, bigint, text, text, text, boolean, text, text) to service_role;

-- Corrects a user's rows of one transaction after Tatum redelivers it with `reorg: true`: the
-- function has asked the node, which either no longer has the transaction (p_block_number null:
-- every row is 'dropped') or has it in p_block_number (every row 'confirmed' there, and the
-- amounts the redelivery carries, `[{type, log_index, amount}]`, replace the old ones: a fee, say,
-- differs in another block). When anything changed, the user is told once: the notification's id
-- is the caller's, the same for every redelivery of the same correction. Returns whether anything
-- changed.
create function public.correct_wallet_rows(
  p_user_id uuid,
  p_tx_hash text,
  p_block_number bigint,
  p_amounts jsonb,
  p_notification_id uuid,
  p_title text,
  p_message text
) returns boolean
language plpgsql
security invoker
set search_path = ''
as $$
declare
  changed integer;
  amount_changes integer;
begin
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended(p_user_id::text || ':' || p_tx_hash || ':reorg', 0)
  );
  update public.transactions t
     set status = case when p_block_number is null then 'dropped' else 'confirmed' end,
         block_number = coalesce(p_block_number, t.block_number)
   where t.user_id = p_user_id and t.tx_hash = p_tx_hash
     and (t.status is distinct from case when p_block_number is null then 'dropped' else 'confirmed' end
          or (p_block_number is not null and t.block_number is distinct from p_block_number));
  get diagnostics changed = row_count;
  update public.transactions t
     set amount = a.amount
    from pg_catalog.jsonb_to_recordset(coalesce(p_amounts, '[]'::jsonb)) as a(type text, log_index integer, amount text)
   where t.user_id = p_user_id and t.tx_hash = p_tx_hash and t.type = a.type
     and t.log_index is not distinct from a.log_index
     and a.amount ~ '^-?[0-9]+(\.[0-9]+)?$'
     and t.amount is distinct from a.amount;
  get diagnostics amount_changes = row_count;
  if changed + amount_changes = 0 then
    return false;
  end if;
  insert into public.user_notifications (id, user_id, title, message)
  values (p_notification_id, p_user_id, p_title, p_message)
  on conflict (id) do nothing;
  return true;
end;
$$;

revoke all on function public.correct_wallet_rows(uuid, text, bigint, jsonb, uuid, text, text) from public;
revoke all on function public.correct_wallet_rows(uuid, text, bigint, jsonb, uuid, text, text) from anon;
revoke all on function public.correct_wallet_rows(uuid, text, bigint, jsonb, uuid, text, text) from authenticated;
grant execute on function public.correct_wallet_rows(uuid, text, bigint, jsonb, uuid, text, text) to service_role;
