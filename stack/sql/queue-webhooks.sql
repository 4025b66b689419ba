-- The local stand-in for the Database Webhooks a hosted project puts on its queues
-- (docs/deploy.md): wallet_watch_jobs, which watch-wallets drains (#3-tatum), and email_outbox,
-- which email-alerts drains (#email-alerts). Instead of calling the function from the database
-- (pg_net), a row trigger notifies the gateway on the queue's channel once the insert commits; the
-- gateway LISTENs and calls the function (stack/gateway/queue-webhook.ts). A row trigger as the
-- webhook's: a statement trigger also fires for an insert of no rows, and the watch claim's insert
-- of moved watches is one, so every drain woke the next one. Postgres folds a transaction's equal
-- notifications into one, so a batch of rows still makes one call. Not a migration: a hosted
-- project gets the webhooks, not this. Idempotent: runs on every boot.
create schema if not exists _gateway;
revoke all on schema _gateway from public;

-- The channel is the trigger's argument: one function for every queue.
create or replace function _gateway.queue_row_inserted() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_notify(tg_argv[0], '');
  return null;
end;
$$;

drop trigger if exists wallet_watch_webhook on public.wallet_watch_jobs;
create trigger wallet_watch_webhook
  after insert on public.wallet_watch_jobs
  for each row execute function _gateway.queue_row_inserted('wallet_watch_jobs');

drop trigger if exists email_outbox_webhook on public.email_outbox;
create trigger email_outbox_webhook
  after insert on public.email_outbox
  for each row execute function _gateway.queue_row_inserted('email_outbox');

-- The function of a data folder from before the queues shared one.
drop function if exists _gateway.wallet_watch_jobs_queued();
