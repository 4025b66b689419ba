-- No seed rows. Accounts come from sign-up, the avatars bucket from a
-- migration (so hosted projects get it from `supabase db push` too), and
-- notifications and transactions from the server functions.
select 1;
