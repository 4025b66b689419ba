-- The gateway's own bookkeeping for Sign in with Ethereum (stack/gateway/web3-grant.ts): each
-- signed message that signed someone in, until it could no longer pass the issued-at check, so
-- it signs in once. No API role is granted anything here. Idempotent: runs on every boot.
create schema if not exists _gateway;
revoke all on schema _gateway from public;
create table if not exists _gateway.web3_used_messages (
  digest text primary key,
  usable_until timestamptz not null
);
