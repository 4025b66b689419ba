-- The local stand-in for the Database Webhook a hosted project puts on wallet_watch_jobs
-- (docs/deploy.md#3-tatum): instead of calling watch-wallets from the database (pg_net), a
-- row trigger notifies the gateway, which LISTENs and calls the function
-- (stack/gateway/wallet-watch-webhook.ts). A row trigger as the webhook's: a statement trigger
-- also fires for an insert of no rows, and the claim's insert of moved watches is one, so every
-- drain woke the next one. Postgres folds a transaction's equal notifications into one, so a
-- batch of jobs still makes one call. Not a migration: a hosted project gets the webhook, not
-- this. Idempotent: runs on every boot.
create schema if not exists _gateway;
revoke all on schema _gateway from public;

create or replace function _gateway.wallet_watch_jobs_queued() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_notify('wallet_watch_jobs', '');
  return null;
end;
$$;

drop trigger if exists wallet_watch_webhook on public.wallet_watch_jobs;
create trigger wallet_watch_webhook
  after insert on public.wallet_watch_jobs
  for each row execute function _gateway.wallet_watch_jobs_queued();
