-- Transaction history (docs/product.md#tables). Rows are written only by server functions
-- (process-payments, record-transaction); clients read their own.
-- The spec's readers accept either amount/asset_amount, token_symbol/asset_symbol
-- and tx_hash/transaction_hash; the server writes the first of each pair.
create table public.transactions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  type text not null,
  status text not null,
  amount text,
  asset_amount text,
  token_symbol text,
  asset_symbol text,
  tx_hash text not null,
  transaction_hash text,
  -- Recording one transfer for one user twice (a repeated webhook delivery,
  -- a retried record call) must not create a second row.
  constraint transactions_one_row_per_transfer unique (user_id, tx_hash, type),
  constraint transactions_amount_is_decimal check (amount is null or amount ~ '^-?[0-9]+(\.[0-9]+)?$'),
  constraint transactions_asset_amount_is_decimal check (asset_amount is null or asset_amount ~ '^-?[0-9]+(\.[0-9]+)?$')
);

create index transactions_user_created_idx on public.transactions (user_id, created_at desc);

alter table public.transactions enable row level security;

create policy "transactions: owner reads" on public.transactions
  for select to authenticated using ((select auth.uid()) = user_id);

revoke all on table public.transactions from anon;
revoke all on table public.transactions from authenticated;
grant select on table public.transactions to authenticated;
grant all on table public.transactions to service_role;
